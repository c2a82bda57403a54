// GET /v1/price-compare keeps the public contract's meaning of min and median (issue 36, item 7):
// the peer service's OpenAPI document (../shared/spec/peer) describes min as the cheapest offer IN
// the currency and median as the median offer in it; every answer here, sandbox and live, direct
// and google mode, offers whose inclusions agree and offers whose do not, is checked against that
// meaning. The like-for-like figures are the new optional `comparable`, present exactly when the
// price_inclusions_differ warning is. Skips without ../shared (test/helpers/peer-fake.ts).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type PriceCompare, PriceCompareSchema } from '../../src/core/schemas/resources.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { PEER_SPEC, PEER_SPEC_AVAILABLE } from '../helpers/peer-fake.js';
import type { TestAccount } from '../helpers/stays.js';

type Prop = { description?: string };
type PeerCompare = { required: string[]; properties: Record<string, Prop> };

const STAY = 'checkIn=2027-03-01&checkOut=2027-03-04&adults=2';

function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return Math.round((sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2) * 100) / 100;
}

describe.skipIf(!PEER_SPEC_AVAILABLE)('price-compare answers hold the peer OpenAPI meaning of min and median', () => {
  let t: TestApp;
  let a: TestAccount;
  let peer: PeerCompare;
  beforeAll(async () => {
    peer = (JSON.parse(readFileSync(PEER_SPEC, 'utf8')) as { components: { schemas: { PriceCompare: PeerCompare } } }).components.schemas.PriceCompare;
    t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' }, { clock: manualClock(Date.UTC(2026, 10, 26, 12)) });
    a = await t.account({ credits: 100_000, rpm: 100_000 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** One answer against the contract: what the peer's descriptions of min and median say, in numbers. */
  function holds(data: unknown, warnings: { code: string }[]): PriceCompare {
    for (const k of peer.required) expect(data, `required ${k}`).toHaveProperty(k);
    const c = PriceCompareSchema.parse(data);
    const inCurrency = c.offers
      .filter((o) => o.currency === c.currency)
      .map((o) => o.totalPrice)
      .sort((x, y) => x - y);
    // "Cheapest offer IN `currency`. Offers quoted in another currency are excluded".
    expect(c.min).toBe(inCurrency[0] ?? null);
    // "Median offer IN `currency`, same exclusion as `min`."
    expect(c.median).toBe(median(inCurrency));
    const differ = warnings.some((w) => w.code === 'price_inclusions_differ');
    expect(c.comparable !== undefined).toBe(differ);
    if (c.comparable) {
      // The offers ranked first (cheapest first) are the like-for-like group.
      const group = c.offers.slice(0, c.comparable.offers).map((o) => o.totalPrice);
      expect(c.comparable.offers).toBeGreaterThan(0);
      expect(c.comparable.min).toBe(group[0]);
      expect(c.comparable.median).toBe(median([...group].sort((x, y) => x - y)));
    }
    return c;
  }

  it('the peer document says what min and median mean (the meaning checked below)', () => {
    expect(peer.properties.min?.description).toMatch(/^Cheapest offer IN `currency`/);
    expect(peer.properties.median?.description).toMatch(/^Median offer IN `currency`, same exclusion as `min`/);
  });

  it('sandbox and live answers, direct and google mode', async () => {
    const get = async (path: string, key: string) => {
      const r = await t.req(path, { key, headers: { prefer: 'wait=30' } });
      const text = await r.text();
      expect(r.status, text).toBe(200);
      return JSON.parse(text) as { data: unknown; meta: { warnings: { code: string }[] } };
    };
    const found = (await get('/v1/search?location=Faro&platforms=airbnb,booking,vrbo&limit=30', a.liveKey)).data as { platform: string; platformListingId: string }[];
    const live = (['vrbo', 'booking', 'airbnb'] as const).map((p) => `${p}:${encodeURIComponent(found.find((r) => r.platform === p)!.platformListingId)}`).join(',');
    const asks: [string, string][] = [
      [`listings=airbnb:12345678,booking:pt/casa-azul,vrbo:4886746&${STAY}`, a.sandboxKey],
      [`listings=airbnb:12345678,booking:pt/casa-azul,vrbo:4886746&${STAY}&currency=EUR`, a.sandboxKey],
      [`listings=airbnb:12345678,airbnb:87654321,airbnb:55555555&${STAY}`, a.sandboxKey],
      [`listings=vrbo:4886746,booking:pt/casa-azul&${STAY}`, a.sandboxKey],
      [`name=Hotel%20Aurora&location=Lisbon&${STAY}`, a.sandboxKey],
      [`listings=${live}&${STAY}`, a.liveKey],
    ];
    let differing = 0;
    for (const [q, key] of asks) {
      const r = await get(`/v1/price-compare?${q}`, key);
      const c = holds(r.data, r.meta.warnings);
      if (c.comparable) {
        differing++;
        // Where inclusions differ, min is the cheapest offer in the currency even when it is listed apart.
        expect(c.min).toBeLessThanOrEqual(c.comparable.min!);
      }
    }
    // Both kinds of answer were checked.
    expect(differing).toBeGreaterThan(0);
    expect(differing).toBeLessThan(asks.length);
  });
});
