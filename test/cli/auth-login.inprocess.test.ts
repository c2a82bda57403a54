// `stays auth login|logout` and `stays config profiles` (issue 22, item 21), the CLI run in this
// process (staysIn) against a real `stays serve` on loopback (test/cli/serve-in.ts: the server in this process, on loopback): the key is
// checked before it is stored, never printed, and a refused key leaves nothing behind. The prompt
// on a real terminal is auth-login.test.ts's.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
beforeAll(async () => {
  s = await serveIn();
  a = await s.account({ credits: 500 });
});
afterAll(async () => {
  await s.stop();
});

const profilesOf = (configDir: string) => (JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }).profiles;

describe('stays auth login --with-token', () => {
  it('checks the key on the server, stores it and the base URL in the profile, never prints it', async () => {
    const box = freshSandbox();
    const r = await staysIn(['auth', 'login', '--with-token', '--base-url', s.url, '--profile', 'prod'], box.env, { input: `${a.liveKey}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`logged in to ${s.url} with ${a.liveKey.slice(0, 14)}… (live, account ${a.id}); stored in profile prod`);
    expect(r.stdout + r.stderr).not.toContain(a.liveKey);
    expect(profilesOf(box.configDir).prod).toEqual({ 'api-key': a.liveKey, 'base-url': s.url });

    const who = await staysIn(['whoami', '--json', '--profile', 'prod'], box.env);
    expect(who.code, who.stderr).toBe(0);
    expect(json<{ account: { id: string }; key: { from: string } }>(who)).toMatchObject({ account: { id: a.id }, key: { from: 'config' } });

    // config profiles: the implicit default and prod, the active one marked.
    const list = await staysIn(['config', 'profiles', '--json'], { ...box.env, STAYS_PROFILE: 'prod' });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'default', active: false, baseUrl: null, key: null },
      { name: 'prod', active: true, baseUrl: s.url, key: `${a.liveKey.slice(0, 14)}…` },
    ]);
    const text = await staysIn(['config', 'profiles'], box.env);
    expect(text.stdout).toMatch(/^\* default +in-process +none$/m);
    expect(text.stdout).toMatch(new RegExp(`^  prod +${s.url} +stay_live_.{4}…$`, 'm'));
    expect(text.stdout).not.toContain(a.liveKey);
    const typo = await staysIn(['config', 'profiles', '--profile', 'prdo'], box.env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/profile prdo not found; profiles: default, prod\. Did you mean prod\?/);

    // logout removes the key, keeps the base URL; a second logout has nothing to remove.
    const out = await staysIn(['auth', 'logout', '--profile', 'prod'], box.env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/removed the API key of profile prod/);
    expect(profilesOf(box.configDir).prod).toEqual({ 'base-url': s.url });
    const again = await staysIn(['auth', 'logout', '--profile', 'prod'], box.env);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/profile prod has no stored API key; nothing to remove/);
    expect((await staysIn(['auth', 'logout', '--profile', 'prdo'], box.env)).code).toBe(2);
    expect((await staysIn(['account', '--profile', 'prod'], box.env)).code).toBe(4);
  });

  it('a refused key: exit 4, nothing stored, the key not echoed', async () => {
    const box = freshSandbox();
    const bogus = `stay_live_${'q'.repeat(32)}`;
    const r = await staysIn(['auth', 'login', '--with-token', '--base-url', s.url, '--profile', 'prod'], box.env, { input: bogus });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/refused the key \(\w+\); nothing was stored/);
    expect(r.stdout + r.stderr).not.toContain(bogus);
    expect(existsSync(join(box.configDir, 'config.json'))).toBe(false);
  });

  it('in-process: a key of the local store is accepted; a server key is refused with how to point at the server', async () => {
    const box = freshSandbox();
    const acct = json<{ id: string }>(await staysIn(['admin', 'account', 'create', '--credits', '10', '--json'], box.env));
    const key = json<{ key: string }>(await staysIn(['admin', 'key', 'create', '--account', acct.id, '--env', 'sandbox', '--json'], box.env)).key;
    const r = await staysIn(['auth', 'login', '--with-token'], box.env, { input: key });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/logged in to the local in-process store .*stored in profile default/);
    const who = json<{ account: { id: string }; key: { from: string } }>(await staysIn(['whoami', '--json'], box.env));
    expect(who).toMatchObject({ account: { id: acct.id }, key: { from: 'config' } });

    const other = freshSandbox();
    const refused = await staysIn(['auth', 'login', '--with-token', '--profile', 'ci'], other.env, { input: a.sandboxKey });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/not a key of the local in-process store .*stays auth login --base-url URL --profile ci/);
    expect(existsSync(join(other.configDir, 'config.json'))).toBe(false);
  });

  it('no terminal and no --with-token, or an empty stdin: exit 2', async () => {
    const box = freshSandbox();
    const r = await staysIn(['auth', 'login'], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-token/);
    const empty = await staysIn(['auth', 'login', '--with-token'], box.env, { input: '\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/No key on stdin/);
  });
});
