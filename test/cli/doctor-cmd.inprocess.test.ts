// `stays doctor` as a user runs it: the CLI run in this process (staysIn), against the local fake of
// the scraping platform. A table on stdout, --json one object, exit 0 when every primary source is
// ready and 4 when the token is refused; the token never printed; only GETs reach the platform.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, IDS } from '../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../fakes/apify/server.js';
import pkg from '../../package.json' with { type: 'json' };
import { type TestAccount, tempDir } from '../helpers/stays.js';
import { staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let fake: ApifyFake;
beforeAll(async () => {
  fake = await startApifyFake();
  fake.actor({ name: 'tri_angle~airbnb-scraper', id: 'GsNzxEKzE2vQ5d9HN', buildNumber: '0.0.93', inputSchema: { properties: { locationQueries: { type: 'array' }, currency: { type: 'string' } } } });
});
afterAll(() => fake.close());

const env = (token: string) => ({
  STAYS_UPSTREAM: 'apify',
  STAYS_APIFY_TOKEN: token,
  STAYS_APIFY_BASE_URL: fake.url,
  // Only airbnb search is configured, so every primary source of the report is this actor or none.
  STAYS_ACTORS: JSON.stringify({ airbnb: { search: ['tri_angle~airbnb-scraper'] } }),
  STAYS_DATA_DIR: tempDir(),
  STAYS_CONFIG_DIR: tempDir(),
});

describe('stays doctor (the built CLI)', () => {
  it('prints what serves each platform and need, without starting a run', async () => {
    const before = fake.calls.length;
    const r = await staysIn(['doctor'], env(fake.token));
    expect(r.stdout).toMatch(/^PLATFORM\s+NEED\s+#\s+SOURCE\s+STATUS/m);
    expect(r.stdout).toMatch(/airbnb\s+search\s+1\s+tri_angle~airbnb-scraper\s+ok\s+0\.0\.93/);
    expect(r.stdout + r.stderr).not.toContain(fake.token);
    expect(fake.calls.slice(before).every((c) => c.method === 'GET')).toBe(true);
    // The other needs keep their documented default actors, which this fake does not know: missing (exit 7).
    expect(r.stdout).toMatch(/airbnb\s+listing\s+1\s+\S+\s+missing/);
    expect(r.code).toBe(7);
  });

  it('--json: one object; a refused token exits 4 and is never echoed', async () => {
    const r = await staysIn(['doctor', '--json'], env('apify_api_wrong_secret_value'));
    expect(r.code).toBe(4);
    const report = JSON.parse(r.stdout) as { token: { ok: boolean } };
    expect(report.token.ok).toBe(false);
    expect(r.stdout + r.stderr).not.toContain('apify_api_wrong_secret_value');
  });
});

describe('the upstream settings in stays config (in-process mode)', () => {
  it('config set upstream/apify-token/apify-base-url/actors: doctor and an in-process live listing use them; the token shows redacted', async () => {
    const dirs = { STAYS_DATA_DIR: tempDir(), STAYS_CONFIG_DIR: tempDir() };
    const set = async (k: string, v: string) => {
      const r = await staysIn(['config', 'set', k, v], dirs);
      expect(r.code, r.stderr).toBe(0);
    };
    await set('upstream', 'apify');
    await set('apify-token', fake.token);
    await set('apify-base-url', fake.url);
    await set('actors', JSON.stringify({ airbnb: { listing: ['tri_angle~airbnb-scraper'] } }));
    const listed = await staysIn(['config', 'list'], dirs);
    expect(listed.stdout).toMatch(/^upstream=apify$/m);
    expect(listed.stdout).not.toContain(fake.token);

    const dr = await staysIn(['doctor', '--json'], dirs);
    const report = JSON.parse(dr.stdout) as { token: { ok: boolean }; rows: { platform: string; need: string; rank: number; source: string }[] };
    expect(report.token.ok).toBe(true);
    expect(report.rows.find((r) => r.platform === 'airbnb' && r.need === 'listing' && r.rank === 1)?.source).toBe('tri_angle~airbnb-scraper');

    // A live key on the local store, then a listing fetched in-process through the platform (the fake).
    const acct = JSON.parse((await staysIn(['admin', 'account', 'create', '--credits', '100', '--json'], dirs)).stdout) as { id: string };
    const key = JSON.parse((await staysIn(['admin', 'key', 'create', '--account', acct.id, '--env', 'live', '--json'], dirs)).stdout) as { key: string };
    fake.script('tri_angle~airbnb-scraper', { kind: 'items', items: FIXTURES.airbnb.listing!.normal });
    const r = await staysIn(['listing', 'airbnb', IDS.airbnb, '--json', '--api-key', key.key], dirs);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout) as { data: { platformListingId: string }; meta: { platformResults: { source?: string }[]; creditsCharged: number } };
    expect(body.data.platformListingId).toBe(IDS.airbnb);
    expect(body.meta.platformResults[0]!.source).toBe('tri_angle~airbnb-scraper');
    expect(body.meta.creditsCharged).toBe(3);

    // A bad value is refused when set, not at the next command.
    const bad = await staysIn(['config', 'set', 'upstream', 'real'], dirs);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/upstream must be one of none, simulated, apify/);
  });
});

describe('stays doctor without a platform token (in-process)', () => {
  it('prints the table it promises (each need unchecked), names the store, exits 4 as its help says', async () => {
    const dataDir = tempDir();
    const r = await staysIn(['doctor'], { STAYS_UPSTREAM: 'apify', STAYS_APIFY_TOKEN: '', STAYS_ACTORS: '', STAYS_DATA_DIR: dataDir, STAYS_CONFIG_DIR: tempDir(), STAYS_BASE_URL: '' });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toMatch(new RegExp(`^mode: in-process on the local store in ${dataDir}$`, 'm'));
    expect(r.stdout).toMatch(/^token: FAILED: STAYS_APIFY_TOKEN is not set/m);
    expect(r.stdout).toMatch(/^PLATFORM\s+NEED\s+#\s+SOURCE\s+STATUS/m);
    expect(r.stdout).toMatch(/^airbnb\s+search\s+1\s+\S+\s+unchecked\s+.*not checked: no token$/m);
    expect(r.stdout).toMatch(/problems found: the token/);
    const help = await staysIn(['doctor', '--help']);
    expect(help.stdout).toMatch(/4 when\s+the\s+platform\s+token\s+is\s+missing\s+or\s+refused/);
  });
});

describe('stays doctor against a server (remote mode, issue 22 item 3)', () => {
  let s: Served;
  let a: TestAccount;
  beforeAll(async () => {
    s = await serveIn({ STAYS_UPSTREAM: 'simulated' });
    a = await s.account();
  });
  afterAll(async () => {
    await s.stop();
  });
  const dirs = () => ({ STAYS_DATA_DIR: tempDir(), STAYS_CONFIG_DIR: tempDir(), STAYS_UPSTREAM: '', STAYS_APIFY_TOKEN: '', STAYS_PROFILE: '' });

  interface Remote {
    mode: string;
    server: { reachable: boolean; version: string | null };
    clock: { skewSeconds: number | null; ok: boolean };
    key: { ok: boolean; env: string | null; prefix: string | null; account: string | null };
    upstream: { kind: string; platforms: Record<string, Record<string, string[]>> } | null;
    rows: { platform: string; need: string; source: string; status: string }[];
    ok: boolean;
  }

  it('checks the server, its version, the key and its env, the clock and its upstream per platform: exit 0', async () => {
    const r = await staysIn(['doctor'], { ...dirs(), STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`server: ${s.url}: ok, stays ${pkg.version}`);
    expect(r.stdout).toMatch(/^clock: /m);
    expect(r.stdout).toContain(`key: ok ${a.liveKey.slice(0, 14)}… (from STAYS_API_KEY): accepted (live), account ${a.id}`);
    expect(r.stdout).toMatch(/^upstream: simulated$/m);
    expect(r.stdout).toMatch(/^airbnb\s+search\s+simulated\s+builtin/m);
    expect(r.stdout).not.toContain(a.liveKey);

    const j = await staysIn(['doctor', '--json'], { ...dirs(), STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey });
    expect(j.code, j.stderr).toBe(0);
    const report = JSON.parse(j.stdout) as Remote;
    expect(report).toMatchObject({ mode: 'remote', server: { reachable: true, version: pkg.version }, key: { ok: true, env: 'sandbox', account: a.id }, upstream: { kind: 'simulated' }, ok: true });
    // Same machine: the Date header (whole seconds) is within a second of ours.
    expect(Math.abs(report.clock.skewSeconds!)).toBeLessThanOrEqual(1);
    expect(report.upstream!.platforms.google!.compare).toEqual(['simulated']);
    expect(report.rows.filter((x) => x.status !== 'builtin')).toEqual([]);
  });

  it('--profile: the base URL and key of the profile', async () => {
    const env = dirs();
    expect((await staysIn(['config', 'set', 'base-url', s.url, '--profile', 'prod'], env)).code).toBe(0);
    expect((await staysIn(['config', 'set', 'api-key', a.liveKey, '--profile', 'prod'], env)).code).toBe(0);
    const r = await staysIn(['doctor', '--profile', 'prod', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'remote', profile: 'prod', key: { ok: true, env: 'live' } });
    const typo = await staysIn(['doctor', '--profile', 'prdo'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/profile prdo not found; profiles: default, prod\. Did you mean prod\?/);
  });

  it('no key: the table still prints, exit 4; a refused key: exit 4; an unreachable server: exit 1', async () => {
    const none = await staysIn(['doctor'], { ...dirs(), STAYS_BASE_URL: s.url, STAYS_API_KEY: '' });
    expect(none.code).toBe(4);
    expect(none.stdout).toMatch(/^key: MISSING: no API key for this server/m);
    expect(none.stdout).toMatch(/^PLATFORM\s+NEED\s+SOURCE\s+STATUS/m);
    expect(none.stdout).toMatch(/problems found: the key/);
    const bogus = `stay_live_${'z'.repeat(32)}`;
    const refused = await staysIn(['doctor', '--api-key', bogus], { ...dirs(), STAYS_BASE_URL: s.url });
    expect(refused.code).toBe(4);
    expect(refused.stdout).toMatch(/^key: FAILED stay_live_zzzz… \(from --api-key\): refused/m);
    expect(refused.stdout + refused.stderr).not.toContain(bogus);
    const down = await staysIn(['doctor', '--base-url', 'http://127.0.0.1:1', '--api-key', a.liveKey], dirs());
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/^server: http:\/\/127\.0\.0\.1:1: FAILED: cannot be reached/m);
  });

  it('a server without an upstream: exit 7, every row not_configured', async () => {
    const bare = await serveIn();
    try {
      const b = await bare.account();
      const r = await staysIn(['doctor', '--json'], { ...dirs(), STAYS_BASE_URL: bare.url, STAYS_API_KEY: b.liveKey });
      expect(r.code).toBe(7);
      const report = JSON.parse(r.stdout) as Remote;
      expect(report.upstream!.kind).toBe('none');
      expect(report.rows.every((x) => x.status === 'not_configured')).toBe(true);
    } finally {
      await bare.stop();
    }
  });
});
