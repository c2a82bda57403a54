// GET /v1/matches and /v1/matches/decisions (issue 27, item 4) through the app in-process on the
// SQLite store: a sandbox key finds the twins the sandbox world knows (its truth), never the
// neighbours; says why when nothing matches; pins and rejections per account; typed, free errors;
// a live key reads what the deployment observed (simulated upstream).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { MATCH_DECISIONS_MAX } from '../../src/core/schemas/matches.js';
import { sandboxTruth } from '../../src/sources/sandbox/truth.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const clock = manualClock(Date.UTC(2026, 10, 26, 12));
let t: TestApp;
let a: TestAccount;
let b: TestAccount;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  a = await t.account({ credits: 100_000, rpm: 100_000 });
  b = await t.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

interface Cand {
  platform: string;
  listingId: string;
  score: number;
  match: boolean;
  decision: string | null;
  why: string;
  veto: string | null;
  evidence: { signal: string; detail: string; agrees: boolean | null }[];
}
interface Matches {
  listing: { platform: string; listingId: string; name: string | null };
  method: string;
  threshold: number;
  candidateSource: string;
  candidatesConsidered: number;
  matches: Cand[];
  bestNonMatch: Cand | null;
  summary: string;
}

const get = async (path: string, key = a.sandboxKey) => {
  const r = await t.req(path, { key });
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return JSON.parse(text) as { data: Matches; meta: { creditsCharged: number; platforms: string[] } };
};
const send = (method: string, path: string, body: unknown, key = a.sandboxKey) =>
  t.req(path, { key, method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

const ANCHOR = '62959578'; // a multi-listed Lisbon airbnb listing of the sandbox world
const key = (c: { platform: string; listingId?: string; id?: string }) => `${c.platform}:${c.listingId ?? c.id}`;

describe('GET /v1/matches (sandbox key): the sandbox world with known truth', () => {
  it('finds exactly the twins the truth knows, never a neighbour; free; evidence per signal', async () => {
    expect(sandboxTruth.isMultiListed(ANCHOR)).toBe(true);
    const twins = sandboxTruth.twins('airbnb', ANCHOR).map(key).sort();
    const neighbours = sandboxTruth
      .around('airbnb', ANCHOR)
      .filter((m) => m.role === 'neighbour')
      .map(key);
    expect(neighbours.length).toBeGreaterThan(0);
    const r = await get(`/v1/matches?platform=airbnb&listingId=${ANCHOR}`);
    expect(r.meta.creditsCharged).toBe(0);
    expect(r.data).toMatchObject({ listing: { platform: 'airbnb', listingId: ANCHOR }, method: 'match/1', threshold: 0.8, candidateSource: 'sandbox' });
    expect(r.data.matches.map(key).sort()).toEqual(twins);
    // The neighbours were scored and are not matches; the city's search rows were candidates too.
    expect(r.data.candidatesConsidered).toBeGreaterThan(100);
    for (const m of r.data.matches) {
      expect(m.score).toBeGreaterThanOrEqual(0.8);
      expect(m.why).toMatch(/is a match: score/);
      expect(m.evidence.map((e) => e.signal)).toEqual(['name', 'description', 'distance', 'bedrooms', 'guests', 'bathrooms', 'photos', 'host']);
    }
    expect(neighbours).toContain(key(r.data.bestNonMatch!));
    expect(r.data.bestNonMatch!.why).toMatch(/is not a match/);
    expect(r.data.summary).toMatch(new RegExp(`^Method match/1 \\(threshold 0.8\\) scored ${r.data.candidatesConsidered} candidate listings on vrbo, booking, google from the sandbox world`));
    // From a twin, the anchor is found back.
    const twin = sandboxTruth.twins('airbnb', ANCHOR)[0]!;
    const back = await get(`/v1/matches?platform=${twin.platform}&listingId=${encodeURIComponent(twin.id)}&platforms=airbnb`);
    expect(back.data.matches.map(key)).toEqual([`airbnb:${ANCHOR}`]);
  });

  it('a listing on one platform only: no match, and why (the best candidate and what disagreed)', async () => {
    const lone = '10000037';
    expect(sandboxTruth.isMultiListed(lone)).toBe(false);
    const r = await get(`/v1/matches?listingId=stays_airbnb_${lone}`);
    expect(r.data.matches).toEqual([]);
    expect(r.data.bestNonMatch).not.toBeNull();
    expect(r.data.summary).toMatch(/No match\. The best candidate: .* is not a match: /);
  });

  it('the threshold and the platforms narrow it', async () => {
    const r = await get(`/v1/matches?platform=airbnb&listingId=${ANCHOR}&platforms=vrbo&threshold=1`);
    expect(r.data.threshold).toBe(1);
    expect(r.data.matches.filter((m) => m.score < 1)).toEqual([]);
    expect(new Set([...r.data.matches, r.data.bestNonMatch!].map((c) => c.platform))).toEqual(new Set(['vrbo']));
  });

  it('pins and rejections, per account: pinned always a match (score 1), rejected never; removed again', async () => {
    const twin = sandboxTruth.twins('airbnb', ANCHOR)[0]!;
    const neighbour = sandboxTruth.around('airbnb', ANCHOR).find((m) => m.role === 'neighbour')!;
    const pin = await send('POST', '/v1/matches/decisions', { listing: `airbnb:${ANCHOR}`, match: `${neighbour.platform}:${neighbour.id}`, decision: 'pinned' });
    expect(pin.status).toBe(200);
    expect(((await pin.json()) as { data: unknown }).data).toMatchObject({ listing: { platform: 'airbnb', listingId: ANCHOR }, decision: 'pinned' });
    expect((await send('POST', '/v1/matches/decisions', { listing: `${twin.platform}:${twin.id}`, match: `airbnb:${ANCHOR}`, decision: 'rejected' })).status).toBe(200);
    const r = await get(`/v1/matches?platform=airbnb&listingId=${ANCHOR}`);
    expect(r.data.matches[0]).toMatchObject({ platform: neighbour.platform, listingId: neighbour.id, score: 1, match: true, decision: 'pinned' });
    expect(r.data.matches[0]!.evidence[0]!.detail).toBe('pinned by this account');
    expect(r.data.matches.map(key)).not.toContain(key(twin));
    // Another account decided nothing.
    const other = await get(`/v1/matches?platform=airbnb&listingId=${ANCHOR}`, b.sandboxKey);
    expect(other.data.matches.map(key).sort()).toEqual(sandboxTruth.twins('airbnb', ANCHOR).map(key).sort());
    // Removed: scored by the method again.
    const del = await send('DELETE', `/v1/matches/decisions?listing=airbnb:${ANCHOR}&match=${encodeURIComponent(`${neighbour.platform}:${neighbour.id}`)}`, undefined);
    expect(((await del.json()) as { data: unknown }).data).toMatchObject({ decision: null, decidedAt: null });
    await send('DELETE', `/v1/matches/decisions?listing=airbnb:${ANCHOR}&match=${encodeURIComponent(`${twin.platform}:${twin.id}`)}`, undefined);
    expect((await get(`/v1/matches?platform=airbnb&listingId=${ANCHOR}`)).data.matches.every((m) => m.decision === null)).toBe(true);
    await expectError(
      await send('DELETE', `/v1/matches/decisions?listing=airbnb:${ANCHOR}&match=${encodeURIComponent(`${twin.platform}:${twin.id}`)}`, undefined),
      404,
      'match_decision_not_found',
      'match',
    );
  });

  it('bad input: typed errors, free, never a 500', async () => {
    await expectError(await t.req('/v1/matches?platform=airbnb', { key: a.sandboxKey }), 400, 'missing_parameter', 'listingId');
    await expectError(await t.req('/v1/matches?listingId=123', { key: a.sandboxKey }), 400, 'missing_parameter', 'platform');
    await expectError(await t.req('/v1/matches?platform=airbnb&listingId=abc', { key: a.sandboxKey }), 400, 'invalid_parameter', 'listingId');
    await expectError(await t.req(`/v1/matches?platform=airbnb&listingId=${ANCHOR}&threshold=2`, { key: a.sandboxKey }), 400, 'invalid_parameter', 'threshold');
    await expectError(await t.req(`/v1/matches?platform=airbnb&listingId=${ANCHOR}&platforms=airbnb`, { key: a.sandboxKey }), 400, 'invalid_parameter', 'platforms');
    await expectError(await t.req(`/v1/matches?platform=airbnb&listingId=${ANCHOR}&platforms=expedia`, { key: a.sandboxKey }), 400, 'platform_not_enabled', 'platforms');
    await expectError(await send('POST', '/v1/matches/decisions', { listing: 'airbnb:1234567', match: 'airbnb:7654321', decision: 'pinned' }), 400, 'invalid_parameter', 'match');
    await expectError(await send('POST', '/v1/matches/decisions', { listing: 'airbnb:1234567', match: 'vrbo', decision: 'pinned' }), 400, 'invalid_parameter', 'match');
    await expectError(await send('POST', '/v1/matches/decisions', { listing: 'airbnb:1234567', match: 'vrbo:123', decision: 'maybe' }), 400, 'invalid_parameter', 'decision');
    await expectError(await t.req('/v1/matches?platform=airbnb&listingId=1', {}), 401, 'missing_api_key');
  });
});

describe('GET /v1/matches (live key): what this deployment observed', () => {
  it('a listing never observed is 404 listing_not_found, free', async () => {
    await expectError(await t.req('/v1/matches?platform=airbnb&listingId=123456789', { key: a.liveKey }), 404, 'listing_not_found', 'listingId');
  });

  it("after searches of its city: the other platforms' listings seen there are candidates; without coordinates or photos none is confirmed, unless pinned", async () => {
    const s = await t.req('/v1/search?location=Faro&platforms=airbnb,vrbo', { key: a.liveKey, headers: { prefer: 'wait=30' } });
    const found = ((await s.json()) as { data: { platform: string; platformListingId: string }[] }).data;
    const air = found.find((p) => p.platform === 'airbnb')!.platformListingId;
    const vrbo = found.find((p) => p.platform === 'vrbo')!.platformListingId;
    const r = await get(`/v1/matches?platform=airbnb&listingId=${air}`, a.liveKey);
    expect(r.data.candidateSource).toBe('observations');
    expect(r.data.candidatesConsidered).toBeGreaterThan(0);
    expect(r.data.matches).toEqual([]);
    expect(r.data.bestNonMatch!.why).toMatch(/the place is not confirmed/);
    expect((await send('POST', '/v1/matches/decisions', { listing: `airbnb:${air}`, match: `vrbo:${vrbo}`, decision: 'pinned' }, a.liveKey)).status).toBe(200);
    const pinned = await get(`/v1/matches?platform=airbnb&listingId=${air}`, a.liveKey);
    expect(pinned.data.matches.map(key)).toEqual([`vrbo:${vrbo}`]);
    // The sandbox environment of the same account does not see the live pin.
    expect((await get(`/v1/matches?platform=airbnb&listingId=${ANCHOR}`)).data.matches.map((m) => m.decision)).not.toContain('pinned');
  });

  it('an account keeps at most MATCH_DECISIONS_MAX decisions per key environment: a new pair past it is 403, a kept one may change, and the many pins are read at once (issue 35, item 3)', async () => {
    const c = await t.account({ credits: 0, rpm: 100_000 });
    const other = (n: number) => ({ platform: 'vrbo', listingId: String(2_000_000 + n) });
    const subject = { platform: 'airbnb', listingId: ANCHOR };
    for (let n = 0; n < MATCH_DECISIONS_MAX; n++) await t.runtime.store.setMatchDecision(c.id, 'sandbox', subject, other(n), 'pinned', clock.now(), MATCH_DECISIONS_MAX);
    const past = await send('POST', '/v1/matches/decisions', { listing: `airbnb:${ANCHOR}`, match: 'vrbo:3000000', decision: 'pinned' }, c.sandboxKey);
    const body = await expectError(past, 403, 'match_decision_limit_exceeded', 'match');
    expect(body.error.message).toContain(String(MATCH_DECISIONS_MAX));
    expect((await send('POST', '/v1/matches/decisions', { listing: `airbnb:${ANCHOR}`, match: 'vrbo:2000001', decision: 'rejected' }, c.sandboxKey)).status).toBe(200);
    // Every pin is a match, read in one pass (before: a pass over the candidates per pin).
    const r = await t.req(`/v1/matches?platform=airbnb&listingId=${ANCHOR}&platforms=vrbo`, { key: c.sandboxKey });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { data: Matches }).data.matches.filter((m) => m.decision === 'pinned')).toHaveLength(MATCH_DECISIONS_MAX - 1);
  }, 60_000);

  it('live candidates are placed where the searches that showed them recorded them (issue 36, item 12): a twin 30 m away with the same name and bedrooms matches', async () => {
    const row = (platform: string, listingId: string, name: string, lat: number, lng: number) => ({
      platform,
      listingId,
      kind: 'search' as const,
      key: 'porto',
      currency: 'EUR',
      value: { name, nightlyPrice: null, totalPrice: null, lat, lng, bedrooms: 2 },
    });
    await t.runtime.store.recordObservations(
      [
        row('airbnb', '71000001', 'Ribeira loft with river view', 41.1406, -8.6133),
        row('vrbo', '71000002', 'Ribeira loft with river view', 41.14085, -8.6134),
        row('vrbo', '71000003', 'Ribeira loft with river view', 41.1506, -8.6133),
      ],
      'simulated',
      clock.now(),
    );
    const r = await get('/v1/matches?platform=airbnb&listingId=71000001', a.liveKey);
    expect(r.data.matches.map(key)).toEqual(['vrbo:71000002']);
    // The same name 1.1 km away: another place.
    expect(r.data.bestNonMatch).toMatchObject({ listingId: '71000003', veto: expect.stringMatching(/m apart/) });
  });
});
