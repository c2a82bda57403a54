// `stays jobs list` (issue 9, item 16), the CLI run in this process (staysIn) against a real
// `stays serve` with the simulated upstream: a table (ids whole, newest first, age, credits) that
// fits COLUMNS, tsv/csv as data, --json, --json FIELDS, jsonl, --status, --limit with its footer,
// --all, typed usage errors, and a sandbox key's empty list explained.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollJob } from '../helpers/jobs.js';
import { type TestAccount, day } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
let box: Sandbox;
/** Newest first: running (google), failed (vrbo), completed (airbnb). */
let ids: string[] = [];
let charged = 0;

const stay = `checkIn=${day(40)}&checkOut=${day(43)}`;
async function startJob(platform: string, listingId: string): Promise<string> {
  const res = await s.req(`/v1/price?platform=${platform}&listingId=${listingId}&${stay}`, { key: a.liveKey });
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: { jobId: string } }).data.jobId;
}

beforeAll(async () => {
  s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50,google=30000', STAYS_SIM_FAIL: 'vrbo=all_actors_failed' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
  box = freshSandbox();
  const done = await startJob('airbnb', '1234567');
  charged = (await pollJob(s, a.liveKey, done)).meta.creditsCharged;
  const failed = await startJob('vrbo', '7654321');
  await pollJob(s, a.liveKey, failed);
  const running = await startJob('google', 'ChIJabcdefghijklmn');
  ids = [running, failed, done];
});
afterAll(async () => {
  await s.stop();
});

const jobs = (...args: string[]) => staysIn(['jobs', 'list', ...args, '--base-url', s.url, '--api-key', a.liveKey], box.env);

describe('stays jobs list', () => {
  it('a table: whole ids newest first, status, operation, age, credits; the error code of a failed job', async () => {
    const r = await jobs('-o', 'table');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const header = lines.find((l) => l.includes('JOB ID'))!;
    for (const h of ['JOB ID', 'STATUS', 'OPERATION', 'AGE', 'CREDITS', 'ERROR']) expect(header).toContain(h);
    const rows = lines.filter((l) => /job_[0-9A-Z]{26}/.test(l));
    expect(rows.map((l) => /job_[0-9A-Z]{26}/.exec(l)![0])).toEqual(ids);
    expect(rows[0]).toMatch(/(pending|running)\s.*price\s.*\d+ s\s.*-/);
    expect(rows[1]).toMatch(/failed\s.*price\s.*\d+ s\s.*\b0\b.*all_actors_failed/);
    expect(rows[2]).toMatch(new RegExp(`completed\\s.*price\\s.*\\d+ s\\s.*\\b${charged}\\b`));
    expect(r.stderr).not.toMatch(/more jobs/);
  });

  it('fits COLUMNS: ERROR goes first, then OPERATION; the ids stay whole', async () => {
    const at = (columns: number) => staysIn(['jobs', 'list', '-o', 'table', '--base-url', s.url, '--api-key', a.liveKey], { ...box.env, COLUMNS: String(columns) });
    for (const [columns, shown, gone] of [
      [200, ['OPERATION', 'ERROR'], []],
      [80, ['OPERATION', 'AGE', 'CREDITS'], ['ERROR']],
      [60, ['AGE', 'CREDITS'], ['ERROR', 'OPERATION']],
    ] as const) {
      const r = await at(columns);
      expect(r.code, r.stderr).toBe(0);
      const [header, ...rows] = r.stdout.trimEnd().split('\n');
      for (const h of ['JOB ID', 'STATUS', ...shown]) expect(header, `${columns}`).toContain(h);
      for (const h of gone) expect(header, `${columns}`).not.toContain(h);
      expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(ids);
      expect(Math.max(...[header!, ...rows].map((l) => [...l].length))).toBeLessThanOrEqual(columns);
    }
  });

  it('tsv and csv are data: ISO times, plain numbers, empty when unknown', async () => {
    const tsv = await jobs('-o', 'tsv');
    expect(tsv.code, tsv.stderr).toBe(0);
    const rows = tsv.stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual(ids);
    const [running, failed, done] = rows as [string[], string[], string[]];
    expect(done).toEqual([ids[2], 'completed', 'price', 'airbnb', expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), expect.stringMatching(/Z$/), String(charged), '']);
    expect(failed.slice(1)).toEqual(['failed', 'price', 'vrbo', expect.any(String), expect.any(String), '0', 'all_actors_failed']);
    expect(running[5]).toBe('');
    expect(running[6]).toBe('');

    const csv = await jobs('-o', 'csv');
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('job_id,status,operation,platforms,created_at,finished_at,credits_charged,error_code');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(ids);
  });

  it('--json is the API envelope; --json FIELDS and -o jsonl narrow it', async () => {
    const r = await jobs('--json');
    expect(r.code, r.stderr).toBe(0);
    const env = json<{ data: { jobId: string; result?: unknown }[]; meta: { pagination: { hasMore: boolean } } }>(r);
    expect(env.data.map((j) => j.jobId)).toEqual(ids);
    expect(env.data.every((j) => !('result' in j))).toBe(true);
    expect(env.meta.pagination.hasMore).toBe(false);

    const fields = await jobs('--json', 'jobId,status');
    expect(json(fields)).toEqual([
      { jobId: ids[0], status: expect.stringMatching(/^(pending|running)$/) },
      { jobId: ids[1], status: 'failed' },
      { jobId: ids[2], status: 'completed' },
    ]);

    const jsonl = await jobs('-o', 'jsonl');
    expect(
      jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { jobId: string }).jobId),
    ).toEqual(ids);
  });

  it('--status filters; --limit pages with a footer; --all walks every page', async () => {
    const failed = await jobs('--status', 'failed', '-o', 'tsv');
    expect(
      failed.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual([ids[1]]);

    const one = await jobs('--limit', '1', '-o', 'table');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain(ids[0]);
    expect(one.stdout).not.toContain(ids[1]);
    const cursor = /^more jobs \(--all for every one\); the next:\n--cursor (\S+)$/m.exec(one.stderr)?.[1];
    expect(cursor).toBeDefined();
    const next = await jobs('--limit', '1', '--cursor', cursor!, '-o', 'tsv');
    expect(next.stdout.split('\t')[0]).toBe(ids[1]);

    for (const format of ['table', 'tsv', 'jsonl', 'json']) {
      const all = await jobs('--limit', '1', '--all', '-o', format);
      expect(all.code, `${format}: ${all.stderr}`).toBe(0);
      const found =
        format === 'json'
          ? json<{ data: { jobId: string }[] }>(all).data.map((j) => j.jobId)
          : format === 'jsonl'
            ? all.stdout
                .trimEnd()
                .split('\n')
                .map((l) => (JSON.parse(l) as { jobId: string }).jobId)
            : all.stdout.match(/^job_[0-9A-Z]{26}/gm);
      expect(found, format).toEqual(ids);
    }
  });

  it("bad flags are the API's typed errors: exit 2, free, the envelope with --json", async () => {
    const zero = await jobs('--limit', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/^error: --limit must be at least 1/m);
    expect(zero.stderr).toMatch(/^ {2}param: --limit$/m);
    const status = await jobs('--status', 'done', '--json');
    expect(status.code).toBe(2);
    expect(status.stdout).toBe('');
    expect(JSON.parse(status.stderr)).toMatchObject({ error: { type: 'invalid_request', code: 'invalid_parameter', param: 'status', creditsCharged: 0 } });
    const cursor = await jobs('--cursor', 'nope');
    expect(cursor.code).toBe(2);
    expect(cursor.stderr).toMatch(/cursor/);
  });

  it('in-process with the local sandbox key: no jobs, and why', async () => {
    const local = await staysIn(['jobs', 'list', '-o', 'table'], freshSandbox().env);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toBe('');
    expect(local.stderr).toMatch(/No jobs in the last 24 hours\. Sandbox calls answer at once and never start one/);
    const j = await staysIn(['jobs', 'list', '--json'], freshSandbox().env);
    expect(json<{ data: unknown[]; meta: { sandbox: boolean } }>(j)).toMatchObject({ data: [], meta: { sandbox: true } });
  });
});
