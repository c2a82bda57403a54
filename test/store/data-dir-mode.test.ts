// Issue 21 (12): a data directory that already exists open to other users (0755) is made private
// (0700) when it is ours and holds only stays's files; one that holds other files is left as is,
// with a warning on stderr saying how to fix it (as ssh does for its keys). Real directories, the
// built CLI as a child process (`stays admin`, `stays serve`).
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startStays, tempDir } from '../helpers/stays.js';

const mode = (dir: string) => statSync(dir).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the data directory is private', () => {
  it('a new data directory is made 0700', async () => {
    const dir = join(tempDir(), 'fresh');
    const r = await runCli(['admin', 'account', 'list', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(mode(dir)).toBe(0o700);
  });

  it('an existing empty 0755 directory is tightened to 0700 by stays admin, silently', async () => {
    const dir = join(tempDir(), 'loose');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const r = await runCli(['admin', 'account', 'list', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(r.stderr).toBe('');
  });

  it('an existing data directory loosened to 0755 after use is tightened again by stays serve', async () => {
    const dir = join(tempDir(), 'used');
    const first = await runCli(['admin', 'account', 'create', '--json', '--data-dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    chmodSync(dir, 0o755);
    const s = await startStays({}, dir);
    try {
      expect(mode(dir)).toBe(0o700);
      expect((await s.req('/v1/health')).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('a 0755 directory holding other files is left as is, with a warning on stderr naming the fix', async () => {
    const dir = join(tempDir(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    const r = await runCli(['admin', 'account', 'list', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(mode(dir)).toBe(0o755);
    expect(r.stderr).toContain(`the data directory ${dir} is open to other users (mode 0755)`);
    expect(r.stderr).toContain('notes.txt');
    expect(r.stderr).toContain(`chmod 700 '${dir}'`);
    // stdout is still the data.
    expect(JSON.parse(r.stdout)).toHaveProperty('accounts');
  });
});
