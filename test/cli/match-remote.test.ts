// `stays match` and `stays compare --matched` as the built CLI runs them against a real `stays serve`
// (child processes): compare is a remote-bundle command (commands/_lib/runtime/mode.ts), so
// --matched must work from that bundle; the answers equal the in-process ones on a fresh machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

let s: Stays;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  s = await startStays();
  a = await s.account();
  box = freshSandbox();
});
afterAll(async () => {
  await s?.stop();
});

const remote = (...args: string[]) => stays([...args, '--base-url', s.url, '--api-key', a.sandboxKey], box.env);
const STAY = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];

describe('stays match / compare --matched against stays serve', () => {
  it('answers as in-process; the remote bundle runs compare --matched', async () => {
    for (const args of [
      ['match', 'airbnb:62959578', '--json'],
      ['compare', '--listing', 'airbnb:62959578', '--matched', ...STAY, '--json'],
    ]) {
      const r = await remote(...args);
      expect(r.code, r.stderr).toBe(0);
      const local = await stays(args, box.env);
      expect(local.code, local.stderr).toBe(0);
      expect(JSON.parse(r.stdout).data).toEqual(JSON.parse(local.stdout).data);
    }
    const none = await remote('compare', '--listing', 'airbnb:10000037', '--matched', ...STAY);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/No listing of the same property to compare with/);
  });
});
