// Issue 38, item 2: a search a platform's cap cut is never silent on the command line either: one
// line on stderr (the results_truncated warning) in table mode, once over an --all walk; the bare
// --json envelope carries it in meta.truncated instead.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, staysIn } from './helpers.js';

let box: Sandbox;
const T = { timeoutMs: 60_000 };
beforeAll(async () => {
  box = freshSandbox();
  const r = await staysIn(['account', '-o', 'json'], box.env, T);
  expect(r.code, r.stderr).toBe(0);
}, 90_000);

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));

describe('a truncated search', () => {
  it('table mode: one line naming the platform, what it returned and reported, and the code', async () => {
    const r = await staysIn(['search', 'Metropolis', '--platforms', 'airbnb,booking', '--limit', '3', '-o', 'table'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const w = warnings(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^warning: airbnb answered 280 of 5000 results .*\(results_truncated\)$/);
  }, 90_000);

  it('over an --all walk the line is said once', async () => {
    const r = await staysIn(['search', 'Metropolis', '--platforms', 'airbnb', '--limit', '40', '--all', '-o', 'table'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    expect(warnings(r.stderr).filter((l) => l.includes('results_truncated'))).toHaveLength(1);
  }, 90_000);

  it('--json: the envelope says it in meta, stderr stays quiet', async () => {
    const r = await staysIn(['search', 'Metropolis', '--platforms', 'airbnb', '--limit', '1', '--json'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    expect(warnings(r.stderr)).toEqual([]);
    expect(JSON.parse(r.stdout).meta.truncated).toEqual([{ platform: 'airbnb', cap: 280, returned: 280, reported: 5000 }]);
  }, 90_000);

  it('a search under the caps prints no such line', async () => {
    const r = await staysIn(['search', 'Lisbon', '--limit', '2', '-o', 'table'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('results_truncated');
  }, 90_000);
});
