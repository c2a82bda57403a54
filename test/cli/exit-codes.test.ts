// One exit code per error class (the map in commands/_lib/runtime/io.ts), each reached through a real
// trigger: sandbox magic values, account states on a real server, and a fake job service.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, day, startStays } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

let s: Stays;
let a: TestAccount;
let fake: FakeJobs;
let box: Sandbox;
beforeAll(async () => {
  [s, fake] = await Promise.all([startStays(), startFakeJobs()]);
  a = await s.account();
  box = freshSandbox();
});
afterAll(async () => {
  await Promise.all([s.stop(), fake.close()]);
});

const remote = (key: string, ...args: string[]) => stays([...args, '--base-url', s.url, '--api-key', key], box.env);
const stay = () => ['--check-in', day(30), '--check-out', day(33)];

describe('exit codes', () => {
  it('0 for success, an empty result too', async () => {
    const r = await remote(a.sandboxKey, 'search', 'empty', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual([]);
  });

  it('2 for usage errors and invalid_request', async () => {
    expect((await stays(['search', 'Lisbon', '--bogus'], box.env)).code).toBe(2);
    expect((await stays(['search', '--no-input'], box.env)).code).toBe(2);
    expect((await stays(['listing', 'airbnb'], box.env)).code).toBe(2); // no TTY: never prompts
    expect((await stays(['search', 'Lisbon', '--output', 'yaml'], box.env)).code).toBe(2);
    expect((await stays(['search', 'Lisbon', '--timeout', 'soon'], box.env)).code).toBe(2);
    const invalid = await remote(a.sandboxKey, 'price', 'airbnb', '12345678', '--check-in', day(3), '--check-out', day(1));
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/invalid_request\/invalid_date_range/);
  });

  it('3 for not_found (listing 404, 409, 410)', async () => {
    expect((await remote(a.sandboxKey, 'listing', 'airbnb', '404')).code).toBe(3);
    expect((await remote(a.sandboxKey, 'reviews', 'vrbo', '409')).code).toBe(3);
    expect((await remote(a.sandboxKey, 'price', 'booking', 'us/410', ...stay())).code).toBe(3);
  });

  it('4 for authentication_error and permission_denied', async () => {
    expect((await remote('stay_test_nopenopenopenopenopenopenopenope', 'account')).code).toBe(4);
    const narrow = await s.account({ scopes: 'account.read' });
    const denied = await remote(narrow.sandboxKey, 'search', 'Lisbon');
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(/permission_denied\/scope_insufficient/);
  });

  it('5 for insufficient_credits', async () => {
    const poor = await s.account({ credits: 0 });
    const r = await remote(poor.liveKey, 'search', 'Lisbon');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/insufficient_credits\/credit_balance_too_low/);
  });

  it('6 for rate_limited after retries', async () => {
    const slow = await s.account({ rpm: 1 });
    expect((await remote(slow.sandboxKey, 'account')).code).toBe(0);
    const r = await remote(slow.sandboxKey, 'account', '--timeout', '3s');
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/rate_limited\/rate_limit_exceeded/);
    const busy = await stays(['search', 'busy', '--base-url', fake.url, '--api-key', 'stay_live_x', '--debug'], box.env);
    expect(busy.code).toBe(6);
    expect(busy.stderr.match(/→ 429/g)).toHaveLength(3); // the first try and two retries after Retry-After
  });

  it('7 for upstream_unavailable and upstream_timeout', async () => {
    expect((await remote(a.sandboxKey, 'search', 'fail')).code).toBe(7);
    expect((await remote(a.sandboxKey, 'listing', 'vrbo', '503')).code).toBe(7);
    expect((await remote(a.sandboxKey, 'reviews', 'airbnb', '504')).code).toBe(7);
  });

  it('1 for internal_error and an unreachable service', async () => {
    const r = await stays(['search', 'boom', '--base-url', fake.url, '--api-key', 'stay_live_x'], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/internal_error/);
  });

  it('errors go to stderr: message first, then type/code, param, requestId, docUrl', async () => {
    const r = await remote(a.sandboxKey, 'search', 'Lisbon', '--limit', '99');
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[1]).toMatch(/invalid_request\/limit_out_of_range/);
    expect(r.stderr).toMatch(/param: --limit[\s\S]*requestId: req_\w+[\s\S]*docs: https?:\/\/\S+\/errors\/limit_out_of_range/);
  });

  it('with --json the error envelope is one line on stderr and stdout stays empty', async () => {
    const r = await remote(a.sandboxKey, 'listing', 'airbnb', '404', '--json');
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { type: 'not_found', code: 'listing_not_found', creditsCharged: 0, requestId: expect.stringMatching(/^req_/) } });
    const usage = await stays(['search', 'Lisbon', '--bogus', '--json'], box.env);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr)).toMatchObject({ error: { type: 'invalid_request', code: 'usage' } });
  });

  it('stays help exit-codes documents the map', async () => {
    const r = await stays(['help', 'exit-codes'], box.env);
    expect(r.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 130]) expect(r.stdout).toMatch(new RegExp(`^\\s+${code}  \\S`, 'm'));
    // Answering no to the credit question on a terminal exits 5 (tty-guard.test.ts): the map says so.
    expect(r.stdout).toMatch(/^\s+5 {2}.*--max-credits, or a credit question on a terminal answered no$/m);
    // The README's table is the same map, row for row.
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const line of r.stdout.split('\n').slice(2).filter(Boolean)) {
      const [, code, what] = /^\s*(\d+) {2}(.*)$/.exec(line)!;
      expect(readme).toContain(`| ${code} | ${what!.replace(/--(no-wait|timeout|all|max-credits|fail-on-partial)/g, '`--$1`')} |`);
    }
  });
});
