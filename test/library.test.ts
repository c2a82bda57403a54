// The package as a library (issue 4, item 1): a separate project installs `stays` and writes
// `import { createClient } from 'stays'`. Resolved through package.json "exports" to the built
// dist/index.js, typed by dist/types, and run against a real `stays serve` and in-process.
import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays, tempDir } from './helpers/stays.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

let s: Stays;
let acct: TestAccount;
let app: string;
beforeAll(async () => {
  s = await startStays();
  acct = await s.account();
  app = tempDir('stays-consumer-');
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(ROOT, join(app, 'node_modules', 'stays'), 'dir');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
});
afterAll(async () => {
  await s?.stop();
});

describe("import { createClient } from 'stays'", () => {
  it('searches a remote service and an in-process store, with typed errors', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { createClient, StaysApiError } from 'stays';
const remote = createClient({ baseUrl: process.env.URL, apiKey: process.env.KEY });
const page = await remote.search({ location: 'Lisbon', limit: 2, platforms: 'airbnb' });
const local = createClient({ dataDir: process.env.DATA, apiKey: process.env.KEY });
const same = await local.search({ location: 'Lisbon', limit: 2, platforms: 'airbnb' });
let error;
try { await remote.listing('airbnb', 'not-a-number'); } catch (e) { error = e instanceof StaysApiError ? { status: e.status, code: e.code, param: e.param } : String(e); }
await local.close();
console.log(JSON.stringify({ ids: page.data.map((p) => p.id), same: JSON.stringify(same.data) === JSON.stringify(page.data), meta: page.meta, error }));
`,
    );
    const r = await run(process.execPath, ['use.mjs'], { cwd: app, env: { ...process.env, URL: s.url, KEY: acct.sandboxKey, DATA: s.dataDir } });
    const out = JSON.parse(r.stdout) as { ids: string[]; same: boolean; meta: Record<string, unknown>; error: unknown };
    expect(out.ids).toHaveLength(2);
    for (const id of out.ids) expect(id).toMatch(/^stays_airbnb_\d+$/);
    expect(out.same).toBe(true);
    expect(out.meta).toMatchObject({ sandbox: true, creditsCharged: 0 });
    expect(out.error).toEqual({ status: 400, code: 'invalid_parameter', param: 'id' });
  });

  it('is typed: a consumer typechecks against dist/types, and a misuse does not', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['use.ts'] }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const check = async (body: string) => {
      writeFileSync(join(app, 'use.ts'), `import { createClient, type Property, type StaysClient } from 'stays';\n${body}\n`);
      try {
        await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
        return '';
      } catch (e) {
        return (e as { stdout: string }).stdout;
      }
    };
    expect(
      await check(`const c: StaysClient = createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'stay_test_x' });
export async function first(): Promise<string | undefined> {
  const page = await c.search({ location: 'Lisbon', limit: 5 });
  const p: Property | undefined = page.data[0];
  return p?.name;
}`),
    ).toBe('');
    const misuse = await check(`export const n: number = createClient({ baseUrl: 'x' }).search;`);
    expect(misuse).toMatch(/error TS2322/);
  }, 60_000);
});
