// Issue 38, item 2: discovery past the caps, pure, with a fake search over a known truth (the
// simulated big city's, and small cities made here): every listing found once, every truncated
// answer reported and split, price bands where geography cannot split, a guard on searches.
import { describe, expect, it } from 'vitest';
import { distanceMeters } from '../../../src/core/analytics/geometry.js';
import { type CellQuery, type CellSearch, circleBox, discover, plannedSize, splitBox } from '../../../src/core/collections/discovery.js';
import type { EnabledPlatform } from '../../../src/core/platforms.js';
import type { Property } from '../../../src/core/schemas/resources.js';
import type { BBox } from '../../../src/core/upstream.js';
import { METROPOLIS, type TruthListing, inBox, metropolisTruth } from '../../../src/sources/sandbox/metropolis.js';

/** A platform over `truth` (in its recommended order) that answers at most `cap` rows, saying how many it has (or not). */
function fakeSearch(truth: readonly TruthListing[], cap: number, o: { reports?: boolean } = {}): CellSearch & { calls: CellQuery[] } {
  const calls: CellQuery[] = [];
  const f = async (q: CellQuery) => {
    calls.push(q);
    const m = truth.filter((x) => x.platform === q.platform && inBox(q.bbox, x.lat, x.lng) && x.baseUsd >= (q.priceMin ?? 0) && x.baseUsd <= (q.priceMax ?? Number.POSITIVE_INFINITY));
    const rows = m.slice(0, cap).map((x) => ({ platform: x.platform, platformListingId: x.id, location: { lat: x.lat, lng: x.lng } }) as unknown as Property);
    return { rows, truncated: m.length > cap ? { cap, returned: cap, reported: o.reports === false ? null : m.length } : null };
  };
  return Object.assign(f, { calls });
}

const ids = (rows: readonly Pick<Property, 'platform' | 'platformListingId'>[]) => rows.map((r) => `${r.platform}:${r.platformListingId}`);

describe('discovery over Metropolis (5,000 airbnb listings, cap 280)', () => {
  const truth = metropolisTruth('airbnb');

  it('finds every listing once, within 1.5× the minimum searches, and reports every truncated answer', async () => {
    const search = fakeSearch(truth, 280);
    const r = await discover({ bbox: METROPOLIS.bbox, platforms: ['airbnb'], search });
    expect(new Set(ids(r.listings)).size).toBe(r.listings.length);
    expect(ids(r.listings).sort()).toEqual(truth.map((x) => `airbnb:${x.id}`).sort());
    expect(r.searches.airbnb).toBe(search.calls.length);
    expect(r.searches.airbnb).toBeLessThanOrEqual(1.5 * Math.ceil(truth.length / 280));
    // Every cut answer is reported and was split; every cell left whole came back whole.
    const cut = r.cells.filter((c) => c.truncated !== null);
    expect(r.truncations).toHaveLength(cut.length);
    expect(cut.length).toBeGreaterThan(0);
    for (const c of r.cells) expect(c.split === null).toBe(c.truncated === null);
    expect(r.truncations[0]).toMatchObject({ bbox: METROPOLIS.bbox, cap: 280, reported: truth.length });
    expect(r.incomplete).toEqual([]);
  });

  it('is deterministic: the same answers give the same cells', async () => {
    const a = await discover({ bbox: METROPOLIS.bbox, platforms: ['airbnb'], search: fakeSearch(truth, 280) });
    const b = await discover({ bbox: METROPOLIS.bbox, platforms: ['airbnb'], search: fakeSearch(truth, 280) });
    expect(b.cells).toEqual(a.cells);
  });

  it('without reported counts it splits as a quadtree and still finds everything', async () => {
    const search = fakeSearch(truth, 280, { reports: false });
    const r = await discover({ bbox: METROPOLIS.bbox, platforms: ['airbnb'], search });
    expect(r.listings).toHaveLength(truth.length);
    expect(r.truncations.every((t) => t.reported === null)).toBe(true);
  });

  it('stops at maxSearches and says the platform is incomplete', async () => {
    const r = await discover({ bbox: METROPOLIS.bbox, platforms: ['airbnb'], search: fakeSearch(truth, 280), maxSearches: 5 });
    expect(r.searches.airbnb).toBe(5);
    expect(r.incomplete).toEqual(['airbnb']);
    expect(r.listings.length).toBeLessThan(truth.length);
  });
});

describe('price bands where geography cannot split', () => {
  // A tower: 400 listings at one point (one building), and 100 scattered around it.
  const tower: TruthListing[] = [];
  for (let i = 0; i < 500; i++) {
    const scattered = i >= 400;
    tower.push({
      platform: 'vrbo',
      id: String(1_000_000 + i),
      lat: scattered ? 10 + (i % 10) * 0.001 : 10.005,
      lng: scattered ? 20 + Math.floor((i - 400) / 10) * 0.001 : 20.005,
      baseUsd: 40 + ((i * 37) % 400),
    });
  }
  const box: BBox = { west: 19.99, south: 9.99, east: 20.02, north: 10.02 };

  it('splits the point by price until no band is truncated, and finds all 500', async () => {
    const search = fakeSearch(tower, 100);
    const r = await discover({ bbox: box, platforms: ['vrbo'], search });
    expect(ids(r.listings).sort()).toEqual(tower.map((x) => `vrbo:${x.id}`).sort());
    expect(r.cells.some((c) => c.split === 'price')).toBe(true);
    expect(r.cells.some((c) => c.priceMin !== undefined && c.truncated === null)).toBe(true);
    for (const c of r.cells) expect(c.split === null).toBe(c.truncated === null);
  });
});

describe('several platforms', () => {
  it('each platform is split on its own, against its own cap', async () => {
    const truth = [...metropolisTruth('google'), ...metropolisTruth('booking')];
    const platforms: EnabledPlatform[] = ['google', 'booking'];
    const r = await discover({ bbox: METROPOLIS.bbox, platforms, search: fakeSearch(truth, 200) });
    expect(r.listings).toHaveLength(truth.length);
    expect(r.searches.google).toBeGreaterThan(1);
    expect(r.truncations.every((t) => t.cap === 200)).toBe(true);
  });
});

describe('splitBox and plannedSize', () => {
  it('k parts tile the box and share its points about evenly', () => {
    const pts = metropolisTruth('vrbo').slice(0, 500);
    const parts = splitBox(METROPOLIS.bbox, pts, 7);
    expect(parts).toHaveLength(7);
    const counts = parts.map((p) => pts.filter((x) => inBox(p, x.lat, x.lng)).length);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(pts.length);
    for (const n of counts) expect(Math.abs(n - 500 / 7)).toBeLessThan(5);
  });

  it('plans parts smaller when the sample is thinner, never past the cap', () => {
    expect(plannedSize(280, 5000, 280)).toBeLessThan(plannedSize(280, 1000, 280));
    expect(plannedSize(280, 281, 280)).toBeLessThanOrEqual(280);
    expect(plannedSize(280, 5000, 280)).toBeGreaterThan(150);
  });
});

describe('circleBox', () => {
  it("holds a comp set's circle: every Metropolis listing within the radius of a point is inside its box", () => {
    const centre = { lat: METROPOLIS.lat, lng: METROPOLIS.lng };
    const b = circleBox(centre.lat, centre.lng, 1500);
    const near = metropolisTruth('airbnb').filter((x) => distanceMeters(centre.lat, centre.lng, x.lat, x.lng) <= 1500);
    expect(near.length).toBeGreaterThan(100);
    for (const x of near) expect(inBox(b, x.lat, x.lng)).toBe(true);
    // And not much more: the box's corners are outside the circle.
    expect(distanceMeters(centre.lat, centre.lng, b.north, b.east)).toBeGreaterThan(1500);
  });
});
