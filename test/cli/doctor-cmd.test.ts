// `stays doctor` as a user runs it: the built CLI as a child process, against the local fake of
// the scraping platform. A table on stdout, --json one object, exit 0 when every primary source is
// ready and 4 when the token is refused; the token never printed; only GETs reach the platform.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, IDS } from '../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../fakes/apify/server.js';
import { runCli, tempDir } from '../helpers/stays.js';

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
    const r = await runCli(['doctor'], env(fake.token));
    expect(r.stdout).toMatch(/^PLATFORM\s+NEED\s+#\s+SOURCE\s+STATUS/m);
    expect(r.stdout).toMatch(/airbnb\s+search\s+1\s+tri_angle~airbnb-scraper\s+ok\s+0\.0\.93/);
    expect(r.stdout + r.stderr).not.toContain(fake.token);
    expect(fake.calls.slice(before).every((c) => c.method === 'GET')).toBe(true);
    // The other needs keep their documented default actors, which this fake does not know: missing (exit 7).
    expect(r.stdout).toMatch(/airbnb\s+listing\s+1\s+\S+\s+missing/);
    expect(r.code).toBe(7);
  });

  it('--json: one object; a refused token exits 4 and is never echoed', async () => {
    const r = await runCli(['doctor', '--json'], env('apify_api_wrong_secret_value'));
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
      const r = await runCli(['config', 'set', k, v], dirs);
      expect(r.code, r.stderr).toBe(0);
    };
    await set('upstream', 'apify');
    await set('apify-token', fake.token);
    await set('apify-base-url', fake.url);
    await set('actors', JSON.stringify({ airbnb: { listing: ['tri_angle~airbnb-scraper'] } }));
    const listed = await runCli(['config', 'list'], dirs);
    expect(listed.stdout).toMatch(/^upstream=apify$/m);
    expect(listed.stdout).not.toContain(fake.token);

    const dr = await runCli(['doctor', '--json'], dirs);
    const report = JSON.parse(dr.stdout) as { token: { ok: boolean }; rows: { platform: string; need: string; rank: number; source: string }[] };
    expect(report.token.ok).toBe(true);
    expect(report.rows.find((r) => r.platform === 'airbnb' && r.need === 'listing' && r.rank === 1)?.source).toBe('tri_angle~airbnb-scraper');

    // A live key on the local store, then a listing fetched in-process through the platform (the fake).
    const acct = JSON.parse((await runCli(['admin', 'account', 'create', '--credits', '100', '--json'], dirs)).stdout) as { id: string };
    const key = JSON.parse((await runCli(['admin', 'key', 'create', '--account', acct.id, '--env', 'live', '--json'], dirs)).stdout) as { key: string };
    fake.script('tri_angle~airbnb-scraper', { kind: 'items', items: FIXTURES.airbnb.listing!.normal });
    const r = await runCli(['listing', 'airbnb', IDS.airbnb, '--json', '--api-key', key.key], dirs);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout) as { data: { platformListingId: string }; meta: { platformResults: { source?: string }[]; creditsCharged: number } };
    expect(body.data.platformListingId).toBe(IDS.airbnb);
    expect(body.meta.platformResults[0]!.source).toBe('tri_angle~airbnb-scraper');
    expect(body.meta.creditsCharged).toBe(3);

    // A bad value is refused when set, not at the next command.
    const bad = await runCli(['config', 'set', 'upstream', 'real'], dirs);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/upstream must be one of none, simulated, apify/);
  });
});
