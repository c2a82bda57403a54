// Issue 38, item 2: truncation is never silent, and a search can ask for an area. Over a real
// `stays serve` on loopback: a search the platform's cap cut says so (meta.truncated and a
// results_truncated warning), one it did not cut says nothing; a bbox search answers the listings
// inside the box (Metropolis's truth, src/sources/sandbox/metropolis.ts), and a bad bbox is a
// typed 400 that charges nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METROPOLIS, metropolisTruth } from '../../src/sources/sandbox/metropolis.js';
import { type JobBody, pollJob } from '../helpers/jobs.js';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';

interface Row {
  platform: string;
  platformListingId: string;
  location: { lat: number | null; lng: number | null; city: string | null };
}
interface Body {
  data: Row[];
  meta: {
    creditsCharged: number;
    truncated?: { platform: string; cap: number; returned: number; reported: number | null }[];
    warnings: { code: string; platform?: string; message: string }[];
    pagination: { nextCursor: string | null };
  };
  error?: { type: string; code: string; param: string | null; creditsCharged: number; message: string };
}

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' });
  a = await s.account({ credits: 100_000, rpm: 1_000_000 });
});
afterAll(async () => {
  await s?.stop();
});

/** A live search, waited for (its job polled when it outlasts the wait). */
async function search(query: string, key = a.liveKey): Promise<{ status: number; body: Body }> {
  const res = await s.req(`/v1/search?${query}`, { key, headers: { prefer: 'wait=20' } });
  const body = (await res.json()) as Body & JobBody;
  if (res.status !== 202) return { status: res.status, body };
  const job = await pollJob(s, key, (body as JobBody).data.jobId, 30_000);
  return { status: 200, body: { data: job.data.result as Row[], meta: job.meta as unknown as Body['meta'] } };
}

describe('truncation is never silent', () => {
  it('a whole-city search past the airbnb cap names the platform, its cap and what it reported, with a warning', async () => {
    const { status, body } = await search('location=Metropolis&platforms=airbnb,booking&limit=5');
    expect(status).toBe(200);
    const airbnb = metropolisTruth('airbnb').length;
    expect(body.meta.truncated).toEqual([{ platform: 'airbnb', cap: 280, returned: 280, reported: airbnb }]);
    const w = body.meta.warnings.filter((x) => x.code === 'results_truncated');
    expect(w.map((x) => x.platform)).toEqual(['airbnb']);
    expect(w[0]!.message).toContain(`280 of ${airbnb}`);
    // booking's 900 listings are under its cap of 1,000: answered in full, not named.
    expect(body.data.some((r) => r.platform === 'booking')).toBe(true);
  });

  it('pages over the rows the platform returned, no further', async () => {
    const first = await search('location=Metropolis&platforms=airbnb&limit=40');
    let cursor = first.body.meta.pagination.nextCursor;
    let seen = first.body.data.length;
    while (cursor) {
      const next = await search(`location=Metropolis&platforms=airbnb&limit=40&cursor=${cursor}`);
      seen += next.body.data.length;
      expect(next.body.meta.truncated?.[0]?.platform).toBe('airbnb');
      cursor = next.body.meta.pagination.nextCursor;
    }
    expect(seen).toBe(280);
  });

  it('a search under every cap carries no truncated field and no warning', async () => {
    const { body } = await search('location=Lisbon&limit=5');
    expect(body.meta.truncated).toBeUndefined();
    expect(body.meta.warnings.map((w) => w.code)).not.toContain('results_truncated');
  });

  it('a sandbox key says so too', async () => {
    const { status, body } = await search('location=Metropolis&platforms=vrbo,airbnb&limit=2', a.sandboxKey);
    expect(status).toBe(200);
    expect(body.meta.truncated?.map((t) => [t.platform, t.reported])).toEqual([
      ['vrbo', metropolisTruth('vrbo').length],
      ['airbnb', metropolisTruth('airbnb').length],
    ]);
  });
});

describe('bbox searches', () => {
  const box = (b: { west: number; south: number; east: number; north: number }) => `${b.west},${b.south},${b.east},${b.north}`;

  it('answers every listing inside a box under the cap, and only those', async () => {
    // A box east of the centre, small enough for fewer than 280 airbnb listings.
    const b = { west: -39.95, south: 40.0, east: -39.9, north: 40.05 };
    const truth = metropolisTruth('airbnb').filter((x) => x.lng >= b.west && x.lng < b.east && x.lat >= b.south && x.lat < b.north);
    expect(truth.length).toBeGreaterThan(40);
    expect(truth.length).toBeLessThan(280);
    const ids = new Set<string>();
    let cursor: string | null = null;
    do {
      const { status, body } = await search(`location=Metropolis&bbox=${box(b)}&platforms=airbnb&limit=40${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      expect(body.meta.truncated).toBeUndefined();
      for (const r of body.data) {
        expect(r.location.lat! >= b.south && r.location.lat! < b.north && r.location.lng! >= b.west && r.location.lng! < b.east).toBe(true);
        ids.add(r.platformListingId);
      }
      cursor = body.meta.pagination.nextCursor;
    } while (cursor);
    expect([...ids].sort()).toEqual(truth.map((x) => x.id).sort());
  });

  it('a box over the whole city is truncated; a price band sent with it narrows what the platform counts', async () => {
    const whole = await search(`location=Metropolis&bbox=${box(METROPOLIS.bbox)}&platforms=airbnb&limit=1`);
    expect(whole.body.meta.truncated?.[0]?.reported).toBe(metropolisTruth('airbnb').length);
    const band = await search(`location=Metropolis&bbox=${box(METROPOLIS.bbox)}&platforms=airbnb&limit=1&priceMin=100&priceMax=150`);
    const inBand = metropolisTruth('airbnb').filter((x) => x.baseUsd >= 100 && x.baseUsd <= 150).length;
    expect(inBand).toBeGreaterThan(280);
    expect(inBand).toBeLessThan(metropolisTruth('airbnb').length);
    expect(band.body.meta.truncated?.[0]?.reported).toBe(inBand);
    expect(band.body.meta.warnings.map((w) => w.code)).not.toContain('price_filter_needs_dates');
  });

  it('a box over Lisbon answers Lisbon listings inside it', async () => {
    const { body } = await search('location=Lisbon&bbox=-9.25,38.65,-9.05,38.80&platforms=airbnb&limit=40');
    expect(body.data.length).toBeGreaterThan(0);
    for (const r of body.data) expect(r.location.city).toBe('Lisbon');
  });

  it.each([
    ['location=X&bbox=1,2,3', 'invalid_parameter', 'bbox'],
    ['location=X&bbox=a,b,c,d', 'invalid_parameter', 'bbox'],
    ['location=X&bbox=-200,10,20,30', 'invalid_parameter', 'bbox'],
    ['location=X&bbox=10,40,5,45', 'invalid_parameter', 'bbox'],
    ['location=X&bbox=10,40,10,45', 'invalid_parameter', 'bbox'],
    ['location=X&bbox=1,2,3,4&bbox=1,2,3,5', 'invalid_parameter', 'bbox'],
    ['bbox=1,2,3,4', 'missing_parameter', 'location'],
  ])('%s → 400 %s (param %s), free', async (query, code, param) => {
    const res = await s.req(`/v1/search?${query}`, { key: a.liveKey });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Body;
    expect(body.error).toMatchObject({ type: 'invalid_request', code, param, creditsCharged: 0 });
  });
});
