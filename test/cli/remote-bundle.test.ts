// What a remote call reads (issue 36, item 21): bin/stays runs dist/cli-remote.cjs for the commands
// mode.ts sends there (REMOTE_COMMANDS), and the program imports a command's module only when that
// command runs, so the remote bundle holds no other command's module, nor what only those use (the
// analyst commands, the webhook listener, the MCP tools and zod, which the service's schemas need).
// Reading and deserialising that code was the remote calls' time over their budget; the timing
// itself is `npm run bench cli` (docs/benchmarks.md), on a quiet machine. Reads the build (e2e tier);
// a remote call of every remote command and a non-remote one still run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { freshSandbox, stays } from './helpers.js';

const DIST = resolve(import.meta.dirname, '../../dist');
/** The modules of a bundle (by the path comment esbuild writes before each) and their code. */
function modules(file: string): Map<string, string> {
  const parts = readFileSync(resolve(DIST, file), 'latin1').split(/^\/\/ ((?:src|commands|node_modules)\/\S+)$/m);
  const out = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 2) out.set(parts[i]!, parts[i + 1]!);
  return out;
}
/** A module of the remote bundle replaced by a stub that hands the call to the full bundle. */
const stubbed = (code: string | undefined) => code === undefined || (code.length < 400 && /is not in the remote bundle/.test(code));
const REMOTE = new Set(
  [.../REMOTE_COMMANDS = new Set\(\[([^\]]*)\]/.exec(readFileSync(resolve(import.meta.dirname, '../../commands/_lib/runtime/mode.ts'), 'utf8'))![1]!.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]!),
);

describe('the remote bundle', () => {
  it('holds the remote commands and none of the others, nor zod or the MCP tools', () => {
    const remote = modules('cli-remote.cjs');
    const full = modules('cli.cjs');
    expect(remote.size).toBeGreaterThan(50);
    for (const c of REMOTE) if (full.has(`commands/${c}.ts`)) expect(stubbed(remote.get(`commands/${c}.ts`)), c).toBe(false);
    for (const m of ['commands/history.ts', 'commands/history-run.ts', 'commands/market.ts', 'commands/match.ts', 'commands/compset.ts', 'commands/watch.ts', 'commands/webhooks-listen.ts']) {
      expect(full.has(m), m).toBe(true);
      expect(stubbed(remote.get(m)), m).toBe(true);
    }
    expect([...remote.keys()].filter((m) => m.startsWith('node_modules/zod/') || m.startsWith('src/mcp/tools/'))).toEqual([]);
  });
});

describe('remote calls through it, and the full bundle for the rest', () => {
  let s: Stays;
  let a: TestAccount;
  beforeAll(async () => {
    s = await startStays();
    a = await s.account({ credits: 1000, rpm: 10_000 });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('search and account remote; market and history against the same server', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey };
    const search = await stays(['search', 'Lisbon', '--limit', '1', '--json'], env);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect((await stays(['account', '--json'], env)).code).toBe(0);
    const market = await stays(['market', 'Lisbon', '--from', '2027-06-01', '--to', '2027-07-01', '--json'], env);
    expect(market.code, market.stderr).toBe(0);
    const history = await stays(['history', 'bookings', 'airbnb:62959578', '--from', '2027-06-01', '--to', '2027-07-01', '--json'], env);
    expect(history.code, history.stderr).toBe(0);
  });
});
