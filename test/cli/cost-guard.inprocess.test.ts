// The cost guard's words and --dry-run (issue 22, items 9 and 23), the CLI run in this process (staysIn):
// - a --max-credits refusal suggests only flags the command has (read from its own --help);
// - --dry-run on every billable command prints the request and its worst case, exits 0 and sends
//   nothing that costs credits: the balance, the ledger and the jobs are unchanged, against a real
//   `stays serve` on loopback and in-process on the same kind of store with a live key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, day, tempDir } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
beforeAll(async () => {
  s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const dates = ['--check-in', day(30), '--check-out', day(33)];
const window = ['--start-date', day(30), '--end-date', day(60)];

/** Every billable command (those with --max-credits), with arguments that make a live call. */
const BILLABLE: { name: string; args: string[]; input?: string; method: string; path: string }[] = [
  { name: 'search', args: ['search', 'Lisbon'], method: 'GET', path: '/v1/search' },
  { name: 'search', args: ['search', 'Lisbon', '--family', 's', '--max-items', '20'], method: 'POST', path: '/v1/search' },
  { name: 'search', args: ['search', 'Lisbon', '--with-details', '--max-items', '5'], method: 'POST', path: '/v1/search/with-details' },
  { name: 'listing', args: ['listing', 'airbnb', '12345678', ...dates], method: 'GET', path: '/v1/listing/airbnb/12345678' },
  { name: 'price', args: ['price', 'airbnb', '12345678', ...dates], method: 'GET', path: '/v1/price' },
  { name: 'compare', args: ['compare', '--listings', 'airbnb:12345678,vrbo:4886746,booking:pt/casa-azul', ...dates], method: 'GET', path: '/v1/price-compare' },
  { name: 'compare', args: ['compare', '--name', 'Hotel Aurora', '--location', 'Lisbon', ...dates], method: 'GET', path: '/v1/price-compare' },
  { name: 'availability', args: ['availability', 'vrbo', '4886746', '4886747', ...window], method: 'GET', path: '/v1/availability' },
  { name: 'availability', args: ['availability', 'airbnb', '12345678', ...window], method: 'GET', path: '/v1/availability' },
  { name: 'reviews', args: ['reviews', 'airbnb', '12345678'], method: 'GET', path: '/v1/reviews' },
  { name: 'stay get', args: ['stay', 'get', '12345678'], method: 'GET', path: '/v1/stays/12345678' },
  { name: 'stay get', args: ['stay', 'get', '12345678', '--part', 'reviews'], method: 'GET', path: '/v1/stays/12345678/reviews' },
  { name: 'stay batch', args: ['stay', 'batch', '--file', '-'], input: '12345678\n87654321\n', method: 'POST', path: '/v1/stays/batch' },
  { name: 'listings luxury', args: ['listings', 'luxury', 'Lisbon'], method: 'POST', path: '/v1/listings/luxury' },
];

/** The long flags a command lists in its --help. */
async function helpFlags(name: string): Promise<Set<string>> {
  const r = await staysIn([...name.split(' '), '--help'], freshSandbox().env);
  expect(r.code).toBe(0);
  return new Set([...r.stdout.matchAll(/(?:^|[\s,])(--[a-z][a-z-]*)/gm)].map((m) => m[1]!));
}

const credits = async (key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;

describe("--max-credits refusals name only the command's own flags", () => {
  it('every billable command: exit 5, nothing charged, every flag named is one the command has', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const before = await credits(a.liveKey);
    const hints = new Map<string, string>();
    for (const c of BILLABLE) {
      const r = await staysIn([...c.args, '--max-credits', '0'], env, { input: c.input });
      expect(r.code, `${c.args.join(' ')}: ${r.stderr}`).toBe(5);
      expect(r.stdout).toBe('');
      const own = await helpFlags(c.name);
      const named = [...r.stderr.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]);
      for (const flag of named) expect(own, `${c.args.join(' ')} suggests ${flag}: ${r.stderr}`).toContain(flag);
      hints.set(c.args.slice(0, 3).join(' '), r.stderr);
    }
    // What narrows each one, where something does.
    expect(hints.get('search Lisbon')).toMatch(/narrow the call \(--limit, --platforms\)/);
    expect(hints.get('search Lisbon --family')).toMatch(/narrow the call \(--max-items\)/);
    expect(hints.get('availability vrbo 4886746')).toMatch(/narrow the call \(fewer ids, a shorter --start-date\/--end-date window\)/);
    expect(hints.get('availability airbnb 12345678')).not.toMatch(/--limit|--platforms|fewer ids/);
    expect(hints.get('reviews airbnb 12345678')).toMatch(/narrow the call \(--limit\)\./);
    expect(hints.get('compare --listings airbnb:12345678,vrbo:4886746,booking:pt/casa-azul')).toMatch(/narrow the call \(fewer --listings pairs\)/);
    expect(hints.get('compare --name Hotel Aurora')).toMatch(/Raise --max-credits\.$/m);
    expect(hints.get('price airbnb 12345678')).toMatch(/Raise --max-credits\.$/m);
    expect(hints.get('stay batch --file')).toMatch(/fewer entries in --file/);
    expect(hints.get('listings luxury Lisbon')).toMatch(/narrow the call \(--max-items\)/);
    expect(await credits(a.liveKey)).toEqual(before);
  }, 120_000);
});

interface Plan {
  dryRun: true;
  mode: string;
  target: string | null;
  keyEnv: string;
  requests: { method: string; path: string; query?: Record<string, string | string[]>; body?: Record<string, unknown> }[];
  worstCaseCredits: number;
  liveWorstCaseCredits: number;
  perPage: boolean;
  next: unknown;
  cap: { credits: number; source: string } | null;
  overCap: boolean;
}

/** What an account has been charged and run: balance, held, ledger rows, jobs. */
async function footprint(run: (args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>, ledger: () => Promise<unknown[]>) {
  const account = await run(['account', '--json']);
  expect(account.code, account.stderr).toBe(0);
  const jobs = await run(['jobs', 'list', '--json']);
  expect(jobs.code, jobs.stderr).toBe(0);
  return { credits: (JSON.parse(account.stdout) as { data: { credits: unknown } }).data.credits, ledger: await ledger(), jobs: (JSON.parse(jobs.stdout) as { data: unknown[] }).data };
}

/** Every billable command with --dry-run: the plan, exit 0; then the footprint is unchanged. */
async function dryRunAll(run: (args: string[], input?: string) => Promise<{ code: number | null; stdout: string; stderr: string }>, mode: string) {
  for (const c of BILLABLE) {
    const r = await run([...c.args, '--dry-run', '--json'], c.input);
    expect(r.code, `${c.args.join(' ')}: ${r.stderr}`).toBe(0);
    const plan = json<Plan>(r);
    expect(plan).toMatchObject({ dryRun: true, mode, keyEnv: 'live', perPage: false, next: null, cap: null, overCap: false });
    expect(plan.requests).toHaveLength(1);
    expect(plan.requests[0]).toMatchObject({ method: c.method, path: c.path });
    expect(plan.worstCaseCredits, c.args.join(' ')).toBeGreaterThan(0);
    expect(plan.worstCaseCredits).toBe(plan.liveWorstCaseCredits);
  }
  // The query and the body as they would be sent.
  const search = json<Plan>(await run(['search', 'Lisbon', '--limit', '5', '--platforms', 'airbnb,vrbo', '--dry-run', '--json']));
  expect(search.requests[0]!.query).toEqual({ location: 'Lisbon', limit: '5', platforms: 'airbnb,vrbo' });
  const batch = json<Plan>(await run(['stay', 'batch', '--file', '-', '--dry-run', '--json'], '1\n2\n3\n'));
  expect(batch.requests[0]!.body).toEqual({ entries: [{ id: '1' }, { id: '2' }, { id: '3' }] });
  expect(batch.worstCaseCredits).toBe(3);
  // --all: per page, how the walk pages, and the cap; over the cap it says so and still exits 0.
  const walk = await run(['search', 'Lisbon', '--platforms', 'airbnb', '--limit', '5', '--all', '--max-credits', '5', '--dry-run', '--json']);
  expect(walk.code, walk.stderr).toBe(0);
  expect(json<Plan>(walk)).toMatchObject({ perPage: true, worstCaseCredits: 10, next: { query: { cursor: expect.any(String) } }, cap: { credits: 5, source: 'max-credits' }, overCap: true });
  const sWalk = json<Plan>(await run(['listings', 'superhost', 'Lisbon', '--max-items', '20', '--all', '--dry-run', '--json']));
  expect(sWalk).toMatchObject({ perPage: true, worstCaseCredits: 20, next: { body: { nextPageToken: expect.any(String) } } });
  // Text for people: the request, the worst case per page, the cap.
  const text = await run(['search', 'Lisbon', '--platforms', 'airbnb', '--limit', '5', '--all', '--max-credits', '200', '--dry-run', '-o', 'tsv']);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toMatch(/^Dry run: nothing sent, nothing charged\.$/m);
  expect(text.stdout).toMatch(/^Would send: GET \/v1\/search\?\S*location=Lisbon/m);
  expect(text.stdout).toMatch(/^Would send: GET \/v1\/search\?\S*limit=5/m);
  expect(text.stdout).toMatch(/^Worst case: 10 credits per page\.$/m);
  expect(text.stdout).toMatch(/^Cap: --max-credits 200 \(the walk stops before the page that would pass it\)\.$/m);
  // --jq runs on the plan.
  const jq = await run(['price', 'airbnb', '12345678', ...dates, '--dry-run', '--jq', '.worstCaseCredits']);
  expect(jq.stdout.trim()).toMatch(/^\d+$/);
  // stays api: the raw request, priced by the same formulas as the command that sends it.
  const viaCommand = json<Plan>(await run(['search', 'Lisbon', '--limit', '40', '--platforms', 'airbnb', '--dry-run', '--json']));
  const viaApi = await run(['api', 'search', '-f', 'location=Lisbon', '-f', 'limit=40', '-f', 'platforms=airbnb', '--dry-run', '--json']);
  expect(viaApi.code, viaApi.stderr).toBe(0);
  expect(json<Plan>(viaApi)).toMatchObject({ dryRun: true, mode, keyEnv: 'live', worstCaseCredits: viaCommand.worstCaseCredits });
  expect(json<Plan>(viaApi).requests[0]).toMatchObject({ method: 'GET', path: '/v1/search', query: { location: ['Lisbon'], limit: ['40'], platforms: ['airbnb'] } });
  const freeApi = json<Plan>(await run(['api', '/v1/account', '--dry-run', '--json']));
  expect(freeApi).toMatchObject({ worstCaseCredits: 0, requests: [{ method: 'GET', path: '/v1/account' }] });
}

describe('--dry-run sends nothing that costs credits', () => {
  it('against stays serve on loopback, with a live key', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const run = (args: string[], input?: string) => staysIn(args, env, { input });
    const ledger = async () => (await s.admin<{ ledger: unknown[] }>('account', 'show', a.id)).ledger;
    const before = await footprint(run, ledger);
    await dryRunAll(run, 'remote');
    const plan = json<Plan>(await run(['search', 'Lisbon', '--dry-run', '--json']));
    expect(plan.target).toBe(s.url);
    expect(await footprint(run, ledger)).toEqual(before);
    // The same call sent for real is charged (the footprint would show a dry run that sent it).
    const real = await run(['stay', 'get', '12345678', '--json']);
    expect(real.code, real.stderr).toBe(0);
    expect((await credits(a.liveKey)).balance).toBeLessThan((before.credits as { balance: number }).balance);
  }, 180_000);

  it('in-process, with a live key of the local store', async () => {
    const dataDir = tempDir('stays-dry-');
    const admin = async <T>(...args: string[]) => {
      const r = await staysIn(['admin', ...args, '--json', '--data-dir', dataDir]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as T;
    };
    const acct = await admin<{ id: string }>('account', 'create', '--plan', 'pro', '--credits', '1000');
    const key = (await admin<{ key: string }>('key', 'create', '--account', acct.id, '--env', 'live')).key;
    const env = { ...freshSandbox().env, STAYS_DATA_DIR: dataDir, STAYS_API_KEY: key, STAYS_UPSTREAM: 'simulated', STAYS_SIM_FAIL: '' };
    const run = (args: string[], input?: string) => staysIn(args, env, { input, timeoutMs: 30_000 });
    const ledger = async () => (await admin<{ ledger: unknown[] }>('account', 'show', acct.id)).ledger;
    const before = await footprint(run, ledger);
    await dryRunAll(run, 'in-process');
    expect(json<Plan>(await run(['search', 'Lisbon', '--dry-run', '--json'])).target).toBeNull();
    expect(await footprint(run, ledger)).toEqual(before);
    const real = await run(['stay', 'get', '12345678', '--json']);
    expect(real.code, real.stderr).toBe(0);
    expect(await footprint(run, ledger)).not.toEqual(before);
  }, 180_000);

  it('a sandbox key: 0 credits, and what the call would cost on a live key', async () => {
    const r = await staysIn(['search', 'Lisbon', '--dry-run', '--json'], freshSandbox().env);
    expect(r.code, r.stderr).toBe(0);
    expect(json<Plan>(r)).toMatchObject({ mode: 'in-process', keyEnv: 'sandbox', worstCaseCredits: 0, liveWorstCaseCredits: 55, cap: null });
    const text = await staysIn(['search', 'Lisbon', '--dry-run'], freshSandbox().env);
    expect(text.stdout).toMatch(/^Worst case: 0 credits: a sandbox key is free \(55 credits on a live key\)\.$/m);
    // What the run would refuse before any request, the dry run refuses too.
    const noWait = await staysIn(['search', 'Lisbon', '--all', '--no-wait', '--dry-run'], freshSandbox().env);
    expect(noWait.code).toBe(2);
    expect(noWait.stdout).toBe('');
  });
});
