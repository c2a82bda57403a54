// The layer rule of commands/ (biome.json, docs/architecture.md "The check"; issue 34, item 5):
// a command reaches the service only through the client. Probe modules written beside the
// commands for the length of a test, linted by the project's own Biome with the project's own
// configuration: an import of an operation, the runtime or the store is refused with the rule's
// message, the client and the shared contract (schemas, limits) are not; commands/_lib keeps its
// own rule (it does not import command modules) besides this one; the named exceptions (admin,
// the in-process runner) may reach the service. And no command imports a schema module for more
// than its types, except completion (which reads the schemas' enums).
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');
const RULE = /commands\/ reaches the service only through the client/;
const LIB_RULE = /commands\/_lib serves the command modules/;

const written: string[] = [];
afterEach(() => {
  for (const f of written.splice(0)) rmSync(f, { force: true });
});

/** Lints modules of the project (paths relative to it) with the project's biome.json. */
async function lintFiles(...paths: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const r = await promisify(execFile)(BIOME, ['lint', '--max-diagnostics=50', ...paths], { cwd: ROOT });
    return { ok: true, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** Lints `code` as a new probe module at `path`, removed after the test. */
function lint(path: string, code: string): Promise<{ ok: boolean; out: string }> {
  const file = join(ROOT, path);
  // wx: never over an existing module (and only what was written here is removed).
  writeFileSync(file, code, { flag: 'wx' });
  written.push(file);
  return lintFiles(relative(ROOT, file));
}

const probe = `zz-layer-probe-${process.pid}.ts`;

describe("commands/ reaches the service only through the client (biome.json's rule)", () => {
  it('a command importing an operation, the runtime or the store is refused, each import named', async () => {
    const r = await lint(
      `commands/${probe}`,
      [
        "import { runDueWatches } from '../src/core/ops/watches.js';",
        "import type { Runtime } from '../src/runtime.js';",
        "export const probe = async (rt: Runtime) => (await import('../src/store/db-url.js')).redactUrl(String(await runDueWatches(rt)));",
        '',
      ].join('\n'),
    );
    expect(r.ok, r.out).toBe(false);
    expect(r.out).toMatch(RULE);
    expect(r.out.match(/lint\/style\/noRestrictedImports/g)).toHaveLength(3);
  }, 30_000);

  it('the client and the shared contract are allowed', async () => {
    const r = await lint(
      `commands/${probe}`,
      [
        "import { operations } from '../src/client/operations.js';",
        "import type { MarketView } from '../src/core/schemas/market.js';",
        "import { SEARCH_LIMIT } from '../src/core/limits.js';",
        'export const probe = (m: MarketView) => [operations.watchRun(), SEARCH_LIMIT, m.currency];',
        '',
      ].join('\n'),
    );
    expect(r.ok, r.out).toBe(true);
  }, 30_000);

  it('commands/_lib: both its own rule and this one; the in-process runner is excepted from this one only', async () => {
    const code = ["import { createRuntime } from '../../../src/runtime.js';", "import { defineSearch } from '../../search.js';", 'export const probe = [createRuntime, defineSearch];', ''].join('\n');
    const lib = await lint(`commands/_lib/output/${probe}`, code);
    expect(lib.ok).toBe(false);
    expect(lib.out).toMatch(RULE);
    expect(lib.out).toMatch(LIB_RULE);
    // The named exceptions reach the service: the in-process runner builds it, admin works on its store.
    const excepted = await lintFiles('commands/_lib/config/local-key.ts', 'commands/_lib/runtime/context.ts', 'commands/admin.ts', 'commands/serve.ts');
    expect(excepted.ok, excepted.out).toBe(true);
    expect(readFileSync(join(ROOT, 'commands/_lib/config/local-key.ts'), 'utf8')).toMatch(/src\/core\/admin\.js/);
  }, 30_000);
});

describe('commands import schema modules for their types', () => {
  it('only completion imports a schema module for values (its enums); the others import types', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
    const valueImports = files(join(ROOT, 'commands'))
      .filter((f) => !f.includes('zz-layer-probe'))
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8');
        const statics = [...text.matchAll(/^import (?!type )[^;]*from '[./]+src\/core\/schemas\/[^']+'/gm)];
        const dynamics = [...text.matchAll(/import\('[./]+src\/core\/schemas\/[^']+'\)/g)];
        return [...statics, ...dynamics].map(() => relative(ROOT, f));
      });
    expect([...new Set(valueImports)]).toEqual(['commands/completion/spec.ts']);
  });
});
