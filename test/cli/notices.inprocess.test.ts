// Issue 22, item 11: each problem is said on stderr once, in one line, its code once.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, staysIn } from './helpers.js';

let box: Sandbox;
const T = { timeoutMs: 60_000 };
const DATES = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
beforeAll(async () => {
  box = freshSandbox();
  const r = await staysIn(['account', '-o', 'json'], box.env, T);
  expect(r.code, r.stderr).toBe(0);
}, 90_000);

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));
const times = (line: string, s: string) => line.split(s).length - 1;

describe('one line per problem', () => {
  it('compare --listings: a failed listing is one line naming it, its code once', async () => {
    const r = await staysIn(['compare', '--listings', 'airbnb:12345678,vrbo:404,vrbo:502', ...DATES, '-o', 'tsv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const w = warnings(r.stderr);
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^warning: vrbo:404 failed \(listing_not_found\): .*; results are partial$/);
    expect(w[1]).toMatch(/^warning: vrbo:502 failed \(actor_blocked\): .*; results are partial$/);
    expect(times(w[0]!, 'listing_not_found')).toBe(1);
    expect(times(w[1]!, 'actor_blocked')).toBe(1);
  }, 90_000);

  it('availability of several listings: a missing one is one line, its code once', async () => {
    const r = await staysIn(['availability', 'vrbo', '404', '4886746', '--start-date', '2027-03-01', '--end-date', '2027-03-03', '-o', 'tsv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const w = warnings(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^warning: 404: /);
    expect(times(w[0]!, 'listing_not_found')).toBe(1);
  }, 90_000);

  it('a search with a failed platform: one line for it', async () => {
    const r = await staysIn(['search', 'partial', '--limit', '1', '-o', 'tsv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const w = warnings(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^warning: google failed \(all_actors_failed\): .*; results are partial$/);
    expect(times(w[0]!, 'all_actors_failed')).toBe(1);
  }, 90_000);
});
