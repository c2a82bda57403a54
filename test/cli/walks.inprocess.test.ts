// Issue 9, the paths where scripts used to get silently incomplete data or no word at all:
// --all over pages that ran as async jobs (live, on a real server with the simulated upstream),
// warnings and partial results on stderr in every format, --fail-on-partial, a visible 429 wait,
// profiles that inherit the default, 401s in CLI words, and the --max-credits cost guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
let fake: FakeJobs;
beforeAll(async () => {
  [s, fake] = await Promise.all([serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '150', STAYS_SIM_FAIL: '' }), startFakeJobs()]);
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await Promise.all([s.stop(), fake.close()]);
});

const balance = async () => ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;
const ids = (jsonl: string) =>
  jsonl
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe('--all over pages that run as async jobs (live key, real server)', () => {
  it('search: the first walk returns every row, the same as the cached walk, and bills what it says', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const before = await balance();
    const first = await staysIn(['search', 'Porto', '--limit', '20', '--all', '-o', 'json'], env, { timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    // Page 1 ran as a job (the CLI waited on it); the walk went on after it.
    expect(first.stderr).toMatch(/waiting for job job_/);
    const walked = json<{ data: { id: string }[]; meta: { creditsCharged: number; pagination: { hasMore: boolean } } }>(first);
    expect(walked.meta.pagination.hasMore).toBe(false);
    expect((await balance()).balance).toBe(before.balance - walked.meta.creditsCharged);

    const again = await staysIn(['search', 'Porto', '--limit', '20', '--all', '-o', 'jsonl'], env, { timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/waiting for job/);
    const cachedIds = ids(again.stdout);
    expect(walked.data.map((r) => r.id)).toEqual(cachedIds);
    // More than one page per platform: 20 a platform on the first page, and the walk went past it.
    expect(cachedIds.length).toBeGreaterThan(4 * 20);
    expect(new Set(cachedIds).size).toBe(cachedIds.length);
  });

  it('reviews: every review, whether the first page ran as a job or came from the cache', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const first = await staysIn(['reviews', 'airbnb', '31415926', '--limit', '5', '--all', '-o', 'jsonl'], env, { timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/waiting for job job_/);
    const again = await staysIn(['reviews', 'airbnb', '31415926', '--limit', '5', '--all', '-o', 'jsonl'], env, { timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const rows = again.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { reviewId: string }).reviewId);
    expect(first.stdout).toBe(again.stdout);
    expect(rows.length).toBeGreaterThan(5);
  });
});

describe('warnings and partial results on stderr, whatever the format', () => {
  let box: Sandbox;
  beforeAll(() => {
    box = freshSandbox();
  });

  for (const format of ['tsv', 'csv', 'jsonl', 'table']) {
    it(`-o ${format}: the rows on stdout, one notice line each on stderr`, async () => {
      const r = await staysIn(['search', 'partial', '--limit', '2', '-o', format], box.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/warning:|results are partial/);
      expect(r.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(format === 'table' ? 6 : 6);
      // One line for the failed leg, carrying the service's own words about it (not a second line).
      expect(r.stderr.match(/^warning: google failed \(all_actors_failed\): .+; results are partial$/gm)).toHaveLength(1);
      expect(r.stderr.match(/google/g)).toHaveLength(2);
    });
  }

  it('a skipped platform (D12) is one warning line', async () => {
    const r = await staysIn(['search', 'Lisbon', '--platforms', 'airbnb,expedia', '--limit', '1', '-o', 'jsonl'], box.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('warning: expedia is not enabled and was skipped. (platform_not_enabled)\n');
  });

  it('an ignored filter is a warning line too; --json keeps every notice in the envelope and stderr empty', async () => {
    const tsv = await staysIn(['search', 'Lisbon', '--limit', '2', '--price-min', '50', '-o', 'tsv'], box.env);
    expect(tsv.code).toBe(0);
    expect(tsv.stderr).toMatch(/^warning: .*price.*\(\w+\)$/m);
    const full = await staysIn(['search', 'partial', '--limit', '2', '--price-min', '50', '--json'], box.env);
    expect(full.code).toBe(0);
    expect(full.stderr).toBe('');
    const meta = json(full).meta as { partial: boolean; warnings: { code: string }[] };
    expect(meta.partial).toBe(true);
    expect(meta.warnings.length).toBeGreaterThan(0);
  });

  it('--fail-on-partial (and STAYS_FAIL_ON_PARTIAL=1) exit 7 after printing the data; a whole result exits 0', async () => {
    const flag = await staysIn(['search', 'partial', '--limit', '2', '-o', 'jsonl', '--fail-on-partial'], box.env);
    expect(flag.code).toBe(7);
    expect(flag.stdout.trim().split('\n')).toHaveLength(6);
    expect(flag.stderr).toMatch(/results are partial[\s\S]*--fail-on-partial/);
    const envVar = await staysIn(['search', 'partial', '--limit', '2', '--json'], { ...box.env, STAYS_FAIL_ON_PARTIAL: '1' });
    expect(envVar.code).toBe(7);
    expect(json(envVar).meta).toMatchObject({ partial: true });
    const whole = await staysIn(['search', 'Lisbon', '--limit', '2', '-o', 'jsonl', '--fail-on-partial'], box.env);
    expect(whole.code).toBe(0);
    const walk = await staysIn(['search', 'partial', '--limit', '2', '--all', '-o', 'csv', '--fail-on-partial'], box.env);
    expect(walk.code).toBe(7);
    expect(walk.stderr.match(/google failed/g)).toHaveLength(1);
  });
});

describe('a rate-limit pause is visible', () => {
  it('non-TTY: a status line says it is rate limited and when it retries', async () => {
    const r = await staysIn(['search', 'busy-once', '--base-url', fake.url, '--api-key', 'stay_live_fake', '-o', 'tsv'], freshSandbox().env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^stays: rate limited, retrying in 1 s \(HTTP 429\)$/m);
    expect(r.stdout).toContain('Fake flat');
  });
});

describe('profiles and keys', () => {
  it('a named profile inherits the base URL of the default profile', async () => {
    const box = freshSandbox();
    expect((await staysIn(['config', 'set', 'base-url', s.url], box.env)).code).toBe(0);
    expect((await staysIn(['config', 'set', 'api-key', a.sandboxKey, '--profile', 'prod'], box.env)).code).toBe(0);
    const r = await staysIn(['account', '--profile', 'prod', '--json'], box.env);
    expect(r.code, r.stderr).toBe(0);
    // The server's pro account, not a local sandbox one made in-process.
    expect(json(r).data).toMatchObject({ plan: { code: 'pro' }, key: { env: 'sandbox' } });
    expect(r.stderr).not.toMatch(/local sandbox account/);
  });

  it('a key without a base URL, and a base URL without a key, are explained in CLI words', async () => {
    const box = freshSandbox();
    const keyOnly = await staysIn(['account'], { ...box.env, STAYS_API_KEY: a.liveKey });
    expect(keyOnly.code).toBe(4);
    expect(keyOnly.stderr).toMatch(/STAYS_API_KEY is not a key of the local in-process store/);
    expect(keyOnly.stderr).toMatch(/stays config set base-url URL/);
    expect(keyOnly.stderr).not.toMatch(/Authorization|Bearer/);
    const urlOnly = await staysIn(['account'], { ...box.env, STAYS_BASE_URL: s.url });
    expect(urlOnly.code).toBe(4);
    expect(urlOnly.stderr).toMatch(/No API key for http:\/\/127\.0\.0\.1:\d+ \(base URL from STAYS_BASE_URL\)/);
    expect(urlOnly.stderr).toMatch(/stays config set api-key KEY/);
    expect(urlOnly.stderr).not.toMatch(/Authorization|Bearer/);
  });
});

describe('--max-credits', () => {
  it('refuses a live call whose worst case passes the cap: exit 5, nothing on stdout, nothing charged', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const before = await balance();
    const r = await staysIn(['search', 'Braga', '--limit', '10', '--max-credits', '20', '-o', 'jsonl'], env);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/may cost up to \d+ credits, which would pass --max-credits 20/);
    expect(await balance()).toEqual(before);
    const under = await staysIn(['price', 'airbnb', '1234567', '--check-in', '2027-05-01', '--check-out', '2027-05-03', '--max-credits', '3', '--json'], env, { timeoutMs: 60_000 });
    expect(under.code, under.stderr).toBe(0);
  });

  it('stops an --all walk before the page that would pass the cap, after printing what was paid for', async () => {
    const env = { ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey };
    const before = await balance();
    // One airbnb leg at limit 5: each page costs at most max(5, 2×5) = 10.
    const r = await staysIn(['search', 'Faro', '--platforms', 'airbnb', '--limit', '5', '--all', '--max-credits', '25', '-o', 'jsonl'], env, { timeoutMs: 60_000 });
    expect(r.code).toBe(5);
    expect(r.stdout.trim().split('\n')).toHaveLength(10);
    expect(r.stderr).toMatch(/next page \(3\) may cost up to 10 credits, after 20 charged for 2 pages/);
    expect((await balance()).balance).toBe(before.balance - 20);
  });

  it('sandbox keys are free and never guarded', async () => {
    const r = await staysIn(['search', 'Lisbon', '--max-credits', '0', '-o', 'jsonl', '--limit', '1'], freshSandbox().env);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('--jq and --json FIELDS at the edges', () => {
  it('--no-wait: --jq runs on the 202 job envelope', async () => {
    const r = await staysIn(['search', 'slow', '--base-url', fake.url, '--api-key', 'stay_live_fake', '--no-wait', '--jq', '.data.jobId'], freshSandbox().env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('job_slow\n');
  });

  it('--json swallowing an argument says to put it after the arguments', async () => {
    const r = await staysIn(['reviews', 'booking', '--json', 'pt/casa-azul'], freshSandbox().env);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(/put --json after the arguments, or write --json=FIELDS/);
  });
});
