// Issue 22, item 22: `stays api --paginate` walks the next-page tokens as `gh api --paginate`
// does (Family U meta.pagination.nextCursor, Family S meta.next_page_token), printing each page;
// --slurp gathers them into one array. Against a real `stays serve` on loopback and in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  // The simulated upstream: a live key's search runs as a job (202), which --paginate must not pass in silence.
  s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '150', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
  box = freshSandbox();
});
afterAll(async () => {
  await s.stop();
});

interface UPage {
  data: { id: string }[];
  meta: { pagination: { cursor: string | null; nextCursor: string | null; hasMore: boolean } };
}
interface SPage {
  data: { id: string }[];
  meta: { has_more: boolean; next_page_token: string | null };
}

const remote = (args: string[], key = a.sandboxKey) => staysIn([...args, '--base-url', s.url, '--api-key', key], box.env, { timeoutMs: 60_000 });
const lines = (out: string) => out.trim().split('\n');
const idsOf = (jsonl: string) => lines(jsonl).map((l) => (JSON.parse(l) as { id: string }).id);

describe('stays api --paginate on a real server (loopback)', () => {
  it('Family U: one body a line, each page asked with the previous nextCursor, every row of search --all', async () => {
    const r = await remote(['api', 'search', '-f', 'location=Porto', '-f', 'limit=20', '--paginate']);
    expect(r.code, r.stderr).toBe(0);
    const pages = lines(r.stdout).map((l) => JSON.parse(l) as UPage);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((p, i) => {
      expect(p.meta.pagination.cursor).toBe(i === 0 ? null : pages[i - 1]!.meta.pagination.nextCursor);
      expect(p.meta.pagination.hasMore).toBe(i < pages.length - 1);
    });
    const walked = await remote(['search', 'Porto', '--limit', '20', '--all', '-o', 'jsonl']);
    expect(walked.code, walked.stderr).toBe(0);
    expect(pages.flatMap((p) => p.data.map((d) => d.id))).toEqual(idsOf(walked.stdout));

    const rows = await remote(['api', 'search', '-f', 'location=Porto', '-f', 'limit=20', '--paginate', '-o', 'jsonl']);
    expect(rows.code, rows.stderr).toBe(0);
    expect(idsOf(rows.stdout)).toEqual(idsOf(walked.stdout));
  });

  it('Family S (POST body): resends the body with nextPageToken; --slurp prints one array of the pages', async () => {
    const r = await remote(['api', '/v1/search', '-X', 'POST', '-f', 'location=Lisbon', '-F', 'maxItems=50', '--paginate', '--slurp']);
    expect(r.code, r.stderr).toBe(0);
    const pages = JSON.parse(r.stdout) as SPage[];
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((p, i) => expect(p.meta.next_page_token === null).toBe(i === pages.length - 1));
    const walked = await remote(['search', 'Lisbon', '--family', 's', '--max-items', '50', '--all', '-o', 'jsonl']);
    expect(walked.code, walked.stderr).toBe(0);
    const ids = pages.flatMap((p) => p.data.map((d) => d.id));
    expect(ids).toEqual(idsOf(walked.stdout));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a page answered 202 (a live job; stays api does not wait) stops the walk: exit 1, what to do', async () => {
    const r = await remote(['api', 'search', '-f', 'location=Braga', '-f', 'limit=5', '--paginate'], a.liveKey);
    expect(r.code).toBe(1);
    const job = (JSON.parse(lines(r.stdout)[0]!) as { data: { jobId: string } }).data.jobId;
    expect(job).toMatch(/^job_/);
    expect(r.stderr).toContain(`error: Page 1 was accepted as job ${job} (202), and stays api does not wait for jobs, so --paginate stopped there. Wait for it with: stays jobs wait ${job}`);
  });
});

describe('stays api --paginate in-process', () => {
  const local = (...args: string[]) => staysIn(['api', ...args], box.env);

  it('--jq applies to each page; with --slurp to the array of pages', async () => {
    const each = await local('search', '-f', 'location=Lisbon', '-f', 'limit=20', '--paginate', '--jq', '.data | length');
    expect(each.code, each.stderr).toBe(0);
    const counts = lines(each.stdout).map(Number);
    expect(counts.length).toBeGreaterThan(1);
    const all = await local('search', '-f', 'location=Lisbon', '-f', 'limit=20', '--paginate', '--slurp', '--jq', 'map(.data | length)');
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(counts);
  });

  it('a resource without pagination is its only page', async () => {
    const r = await local('/v1/account', '--paginate', '--slurp');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ data: { key: { env: 'sandbox' } } }]);
  });

  it('--slurp without --paginate, or with -o jsonl, -i or --json FIELDS, is a usage error (exit 2, nothing sent)', async () => {
    for (const extra of [[], ['--paginate', '-o', 'jsonl'], ['--paginate', '-i'], ['--paginate', '--json', 'id']]) {
      const r = await local('search', '-f', 'location=Lisbon', '--slurp', ...extra, '--debug');
      expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/stays debug: GET/);
      // Text, or the error envelope where errors are JSON (-o jsonl, --json).
      expect(r.stderr).toMatch(/error: --slurp |"message":"--slurp /);
    }
  });
});
