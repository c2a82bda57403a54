// `stays help errors [CODE]` and in-process docUrls, through the built CLI.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/core/error-docs.js';
import { ALL_ERROR_CODES } from '../../src/core/errors.js';
import { runCli, tempDir } from '../helpers/stays.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stays help errors', () => {
  it('lists the catalogue: code, type, status, one line each', async () => {
    const r = await runCli(['help', 'errors']);
    expect(r.code).toBe(0);
    for (const code of ALL_ERROR_CODES) expect(r.stdout).toMatch(new RegExp(`^  ${code} +[a-z_]+ +\\d{3}  \\S`, 'm'));
  });

  it('prints one entry, the same text as the module gives the pages', async () => {
    const r = await runCli(['help', 'errors', 'listing_not_found']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(errorText('listing_not_found'));
    expect(r.stdout).toMatch(/Cause: .+\nFix: .+/);
  });

  it('an unknown code exits 2 with a suggestion', async () => {
    const r = await runCli(['help', 'errors', 'listing_not_fund']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no error code "listing_not_fund"; did you mean listing_not_found\?/);
  });
});

describe('in-process docUrls', () => {
  it("name the reference shipped with the package: a file that has the code's section", async () => {
    const r = await runCli(['listing', 'airbnb', '404', '--json'], { STAYS_DATA_DIR: dir, STAYS_DOCS_URL: '' });
    expect(r.code).toBe(3);
    // The first use also says it created a local sandbox account; the envelope is the last line.
    const { error } = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { docUrl: string } };
    const url = new URL(error.docUrl);
    expect(url.protocol).toBe('file:');
    expect(url.hash).toBe('#listing_not_found');
    const file = fileURLToPath(new URL(url.pathname, 'file:'));
    expect(file).toMatch(/dist[\\/]docs[\\/]errors\.md$/);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('\n## listing_not_found\n');
  });
});
