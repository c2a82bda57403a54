// The Family S commands against a real `stays serve` (remote mode): with a sandbox key, the same
// answers as in-process; with a live key on the simulated upstream, searches that run as jobs
// (maxItems 241-250: 202, the CLI waits and pages on from the job's nextCursor), and a balance
// that moves by exactly the credits the commands reported. The cost guard refuses before any request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
const T = { timeoutMs: 120_000 };
beforeAll(async () => {
  s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
}, 120_000);
afterAll(async () => {
  await s.stop();
});

const balance = async () => ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;
/** Credits a --json answer reports: Family S meta, or the Family U meta of a page that ran as a job. */
const charged = (meta: { credits_charged?: number; creditsCharged?: number }) => meta.credits_charged ?? meta.creditsCharged ?? 0;

interface Stay {
  id: string;
  title: string;
}
type Meta = { credits_charged?: number; creditsCharged?: number; missing?: number; next_page_token?: string | null };

describe('remote, sandbox key', () => {
  it('stay get (id, URL, --part), batch from stdin and search --all answer as in-process', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey };
    const [byId, byUrl, part, batch, walk] = await Promise.all([
      staysIn(['stay', 'get', '12345', '--json'], env, T),
      staysIn(['stay', 'get', 'https://www.airbnb.com/rooms/12345', '--json'], env, T),
      staysIn(['stay', 'get', '12345', '--part', 'amenities', '-o', 'csv'], env, T),
      staysIn(['stay', 'batch', '--file', '-', '-o', 'csv'], env, { ...T, input: '12345\n404\n' }),
      staysIn(['search', 'Lisbon', '--max-items', '20', '--all', '-o', 'jsonl'], env, T),
    ]);
    for (const r of [byId, byUrl, part, batch, walk]) expect(r.code, r.stderr).toBe(0);
    expect(json<{ data: Stay }>(byId).data).toEqual(json<{ data: Stay }>(byUrl).data);
    expect(part.stdout.split('\n')[0]).toBe('stay_id,category,items');
    expect(batch.stdout.trim().split('\n')).toHaveLength(2);
    expect(batch.stderr).toMatch(/^stays: 1 of 2 entries could not be resolved$/m);
    const ids = walk.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as Stay).id);
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
  }, 120_000);

  it('a service error keeps its exit code remotely: stay get 404 exits 3', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey };
    const r = await staysIn(['stay', 'get', '404'], env, T);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/not_found\/listing_not_found/);
  }, 60_000);
});

describe('remote, live key on the simulated upstream', () => {
  it('the balance moves by the sum of the credits the commands reported; async pages are walked through', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const before = await balance();
    const metas: Meta[] = [];
    const run = async (args: string[], input?: string) => {
      const r = await staysIn([...args, '--json'], env, { ...T, input });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const body = json<{ data: unknown; meta: Meta }>(r);
      metas.push(body.meta);
      return body;
    };
    await run(['stay', 'get', '12345']);
    await run(['stay', 'get', '12345', '--part', 'host']);
    const batch = await run(['stay', 'batch', '--file', '-'], '12345\nhttps://www.airbnb.com/rooms/777\n404\n');
    expect(batch.meta.missing).toBe(1);
    // maxItems 245: each page is a job (202); the walk waits on it, then goes on from its nextCursor.
    const walk = await run(['search', '--location-queries', 'Lisbon,Porto,Paris,London,Rome', '--max-items', '245', '--all']);
    const rows = walk.data as Stay[];
    expect(rows.length).toBeGreaterThan(245);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(charged(walk.meta)).toBe(rows.length);
    await run(['listings', 'superhost', 'Lisbon', '--max-items', '5']);
    await run(['search', 'Porto', '--with-details', '--max-items', '3']);

    const after = await balance();
    expect(after.held).toBe(0);
    const reported = metas.reduce((n, m) => n + charged(m), 0);
    expect(reported).toBeGreaterThan(0);
    expect(before.balance - after.balance).toBe(reported);
  }, 240_000);

  it('--max-credits knows the S worst cases: refused before any request (exit 5), nothing charged', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const before = await balance();
    const [search, details, batch, preset] = await Promise.all([
      staysIn(['search', 'Lisbon', '--max-items', '100', '--max-credits', '99'], env, T),
      staysIn(['search', 'Lisbon', '--with-details', '--max-items', '30', '--max-credits', '59'], env, T),
      staysIn(['stay', 'batch', '--file', '-', '--max-credits', '2'], env, { ...T, input: '1\n2\n3\n' }),
      // A preset page is at most 50 rows, whatever --max-items says: 50 fits a cap of 50.
      staysIn(['listings', 'luxury', 'Lisbon', '--max-items', '200', '--max-credits', '49'], env, T),
    ]);
    for (const r of [search, details, batch, preset]) {
      expect(r.code, r.stderr).toBe(5);
      expect(r.stdout).toBe('');
    }
    expect(search.stderr).toMatch(/up to 100 credits/);
    expect(details.stderr).toMatch(/up to 60 credits/);
    expect(batch.stderr).toMatch(/up to 3 credits/);
    expect(preset.stderr).toMatch(/up to 50 credits/);
    expect((await balance()).balance).toBe(before.balance);
  }, 120_000);
});
