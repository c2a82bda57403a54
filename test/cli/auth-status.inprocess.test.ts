// `stays auth status` and `stays whoami` (issue 9, item 14), the CLI run in this process (staysIn): in
// process on the local store, and remote against a real `stays serve` with the key from a flag,
// the environment or the config; no key and a refused key explained, exit 4, the status first.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

interface Status {
  mode: string;
  baseUrl: string | null;
  baseUrlFrom: string | null;
  dataDir: string | null;
  store: { kind: string; path?: string; url?: string } | null;
  profile: string;
  configFile: string;
  configFileExists: boolean;
  key: { prefix: string; env: string; from: string; id: string | null } | null;
  account: { id: string | null; plan: { code: string; name: string; status: string }; credits: { balance: number; available: number; held: number }; rateLimit: { requestsPerMinute: number } } | null;
  authenticated: boolean;
}

let s: Served;
let a: TestAccount;
beforeAll(async () => {
  s = await serveIn();
  a = await s.account({ credits: 1234 });
});
afterAll(async () => {
  await s.stop();
});

const localKeyOf = (box: Sandbox) => {
  const cfg = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as { profiles: Record<string, { localKeys: Record<string, { key: string; keyId: string; accountId: string }> }> };
  return cfg.profiles.default!.localKeys[resolve(box.dataDir)]!;
};

describe('in-process', () => {
  it('shows the data dir, profile, config file, the local key (a prefix), its account, plan and credits', async () => {
    const box = freshSandbox();
    const r = await staysIn(['auth', 'status'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const local = localKeyOf(box);
    expect(r.stdout).toMatch(new RegExp(`^Mode: +in-process on the local store in ${resolve(box.dataDir)}`, 'm'));
    expect(r.stdout).toMatch(/^Profile: +default$/m);
    expect(r.stdout).toMatch(new RegExp(`^Config: +${join(box.configDir, 'config.json')}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Key: +${local.key.slice(0, 14)}… \\(sandbox, the local key made for this data directory\\) ${local.keyId}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Account: +${local.accountId}$`, 'm'));
    expect(r.stdout).toMatch(/^Plan: +Free \/ Sandbox \(free, active\)$/m);
    expect(r.stdout).toMatch(/^Credits: +0 available \(0 balance, 0 held\); sandbox calls are free$/m);
    expect(r.stdout).toMatch(/^Rate limit: +\d+ requests per minute$/m);
    expect(r.stdout + r.stderr).not.toContain(local.key);
  });

  it('whoami --json is one JSON object, the same as auth status --json', async () => {
    const box = freshSandbox();
    const who = await staysIn(['whoami', '--json'], box.env);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout.trim().split('\n')).toHaveLength(1);
    const st = json<Status>(who);
    const local = localKeyOf(box);
    expect(st).toEqual({
      mode: 'in-process',
      baseUrl: null,
      baseUrlFrom: null,
      dataDir: resolve(box.dataDir),
      store: { kind: 'sqlite', path: join(resolve(box.dataDir), 'stays.db') },
      profile: 'default',
      configFile: join(box.configDir, 'config.json'),
      configFileExists: true,
      key: { prefix: `${local.key.slice(0, 14)}…`, env: 'sandbox', from: 'local', id: local.keyId },
      account: {
        id: local.accountId,
        plan: { code: 'free', name: 'Free / Sandbox', status: 'active' },
        credits: { balance: 0, available: 0, held: 0, expiringSoon: 0 },
        rateLimit: expect.objectContaining({}),
      },
      authenticated: true,
    });
    const again = await staysIn(['auth', 'status', '--json'], box.env);
    expect(json<Status>(again)).toEqual(st);
    expect(who.stdout).not.toContain(local.key);
  });

  it('--debug names the store the command runs on', async () => {
    const box = freshSandbox();
    const r = await staysIn(['account', '--debug'], box.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`stays debug: in-process on the local store in ${resolve(box.dataDir)} · profile default`);
  });

  it('--json FIELDS picks fields of the status', async () => {
    const box = freshSandbox();
    const r = await staysIn(['whoami', '--json', 'mode,profile'], box.env);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual({ mode: 'in-process', profile: 'default' });
  });
});

describe('remote', () => {
  it('names the server, where the base URL and key came from, and the account behind the key', async () => {
    const box = freshSandbox();
    const flag = await staysIn(['auth', 'status', '--json', '--base-url', s.url, '--api-key', a.liveKey], box.env);
    expect(flag.code, flag.stderr).toBe(0);
    expect(json<Status>(flag)).toEqual({
      mode: 'remote',
      baseUrl: s.url,
      baseUrlFrom: 'flag',
      dataDir: null,
      store: null,
      profile: 'default',
      configFile: join(box.configDir, 'config.json'),
      configFileExists: false,
      key: { prefix: `${a.liveKey.slice(0, 14)}…`, env: 'live', from: 'flag', id: null },
      // GET /v1/account reports the account id (beyond the spec's table; a peer that does not leaves it null).
      account: { id: a.id, plan: { code: 'pro', name: 'Pro', status: 'active' }, credits: { balance: 1234, available: 1234, held: 0, expiringSoon: 0 }, rateLimit: { requestsPerMinute: 300 } },
      authenticated: true,
    });
    expect(flag.stdout + flag.stderr).not.toContain(a.liveKey);

    const env = await staysIn(['whoami', '--json'], { ...box.env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey });
    expect(json<Status>(env)).toMatchObject({ baseUrlFrom: 'env', key: { env: 'sandbox', from: 'env', prefix: `${a.sandboxKey.slice(0, 14)}…` } });

    expect((await staysIn(['config', 'set', 'base-url', s.url, '--profile', 'prod'], box.env)).code).toBe(0);
    expect((await staysIn(['config', 'set', 'api-key', a.liveKey, '--profile', 'prod'], box.env)).code).toBe(0);
    const human = await staysIn(['whoami', '--profile', 'prod'], box.env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^Mode: +remote: ${s.url} \\(base URL from the config\\)$`, 'm'));
    expect(human.stdout).toMatch(/^Profile: +prod$/m);
    expect(human.stdout).toMatch(new RegExp(`^Config: +${join(box.configDir, 'config.json')}$`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^Key: +${a.liveKey.slice(0, 14)}… \\(live, from the config\\)$`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^Account: +${a.id}$`, 'm'));
    expect(human.stdout).toMatch(/^Plan: +Pro \(pro, active\)$/m);
    expect(human.stdout).toMatch(/^Credits: +1,234 available \(1,234 balance, 0 held\)$/m);
    expect(human.stdout).toMatch(/^Rate limit: +300 requests per minute$/m);
    expect(human.stdout + human.stderr).not.toContain(a.liveKey);
  });

  it('no key: the status, then how to set one, exit 4', async () => {
    const box = freshSandbox();
    const r = await staysIn(['auth', 'status', '--base-url', s.url], box.env);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^Mode: +remote: /m);
    expect(r.stdout).toMatch(/^Key: +none$/m);
    expect(r.stdout).not.toMatch(/^Plan:/m);
    expect(r.stderr).toMatch(/No API key for http:\/\/127\.0\.0\.1:\d+ \(base URL from --base-url\)/);
    expect(r.stderr).toMatch(/stays config set api-key KEY.*STAYS_API_KEY/);
    expect(r.stderr).not.toMatch(/Authorization|Bearer/);

    const j = await staysIn(['whoami', '--json', '--base-url', s.url], box.env);
    expect(j.code).toBe(4);
    expect(json<Status>(j)).toMatchObject({ mode: 'remote', key: null, account: null, authenticated: false });
    expect(JSON.parse(j.stderr) as { error: { code: string } }).toMatchObject({ error: { code: 'missing_api_key' } });
  });

  it('a refused key: the status with its prefix, then the refusal in CLI words, exit 4', async () => {
    const box = freshSandbox();
    const bogus = `stay_live_${'x'.repeat(32)}`;
    const r = await staysIn(['whoami', '--base-url', s.url, '--api-key', bogus], box.env);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^Key: +stay_live_xxxx… \(live, from --api-key\)$/m);
    expect(r.stderr).toMatch(/refused the API key from --api-key/);
    expect(r.stdout + r.stderr).not.toContain(bogus);
  });

  it('a key in-process that the local store does not know: exit 4, told to set a base URL', async () => {
    const box = freshSandbox();
    const r = await staysIn(['auth', 'status', '--api-key', a.liveKey], box.env);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^Mode: +in-process/m);
    expect(r.stdout).toMatch(/^Key: +stay_live_.{4}… \(live, from --api-key\)$/m);
    expect(r.stderr).toMatch(/stays config set base-url URL/);
    expect(r.stdout + r.stderr).not.toContain(a.liveKey);
  });
});
