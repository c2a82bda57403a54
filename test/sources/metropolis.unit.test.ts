// Issue 38, item 2: the simulated world's big city. Deterministic, spread like a real city (a dense
// centre, sparse edges), every listing inside its box, ids that say nowhere (their place is the
// search's), and searches of it cut at each platform's cap, saying how many there are.
import { describe, expect, it } from 'vitest';
import { ENABLED_PLATFORMS } from '../../src/core/platforms.js';
import { SEARCH_CAPS } from '../../src/core/search-caps.js';
import type { BBox, CandidateList, CappedRows } from '../../src/core/upstream.js';
import { METROPOLIS, inBox, metropolisTruth } from '../../src/sources/sandbox/metropolis.js';
import { placeForListing } from '../../src/sources/sandbox/places.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

const world = createSandboxWorld();
const rowsOf = (a: CandidateList | CappedRows) => ('truncated' in a ? a.rows : a.all());
const quarters = (b: BBox): BBox[] => {
  const mx = (b.west + b.east) / 2;
  const my = (b.south + b.north) / 2;
  return [
    { west: b.west, south: b.south, east: mx, north: my },
    { west: mx, south: b.south, east: b.east, north: my },
    { west: b.west, south: my, east: mx, north: b.north },
    { west: mx, south: my, east: b.east, north: b.north },
  ];
};

describe('the truth', () => {
  it.each(ENABLED_PLATFORMS)('%s: its size, unique ids that say nowhere, every listing inside the city box', (p) => {
    const t = metropolisTruth(p);
    expect(t).toHaveLength(METROPOLIS.listings[p]);
    expect(new Set(t.map((x) => x.id)).size).toBe(t.length);
    for (const x of t.slice(0, 50)) expect(placeForListing(p, x.id)).toBeNull();
    expect(t.every((x) => inBox(METROPOLIS.bbox, x.lat, x.lng))).toBe(true);
  });

  it('is dense at the centre and sparse at the edges', () => {
    const t = metropolisTruth('airbnb');
    const km = (x: { lat: number; lng: number }) => Math.hypot((x.lat - METROPOLIS.lat) * 111.32, (x.lng - METROPOLIS.lng) * 111.32 * 0.766);
    const centre = t.filter((x) => km(x) < 2).length / (Math.PI * 4);
    const edge = t.filter((x) => km(x) > 10).length / (Math.PI * (14 ** 2 - 10 ** 2));
    expect(centre).toBeGreaterThan(20 * edge);
    expect(edge).toBeGreaterThan(0);
  });

  it('is the same set, in the same order, every time it is made', () => {
    const again = createSandboxWorld().searchAnswer('vrbo', 'metropolis', { currency: 'USD', rooms: 1 });
    expect(rowsOf(again).map((r) => r.platformListingId)).toEqual(
      metropolisTruth('vrbo')
        .slice(0, SEARCH_CAPS.vrbo)
        .map((x) => x.id),
    );
  });
});

describe('searching it', () => {
  it.each(ENABLED_PLATFORMS)('%s: the whole city is cut at the cap, and says how many there are', (p) => {
    const a = world.searchAnswer(p, 'Metropolis', { currency: 'USD', rooms: 1 });
    const n = METROPOLIS.listings[p];
    if (n > SEARCH_CAPS[p]) expect('truncated' in a && a.truncated).toEqual({ cap: SEARCH_CAPS[p], returned: SEARCH_CAPS[p], reported: n });
    else expect('truncated' in a).toBe(false);
    expect(rowsOf(a)).toHaveLength(Math.min(n, SEARCH_CAPS[p]));
    // The plain search answers the same rows (silently: only searchAnswer can say so).
    expect(world.searchPlatform(p, 'Metropolis', { currency: 'USD', rooms: 1 }).map((r) => r.platformListingId)).toEqual(rowsOf(a).map((r) => r.platformListingId));
  });

  it('the four quarters of a box hold each of its listings once', () => {
    const count = (b: BBox) => {
      const a = world.searchAnswer('airbnb', '', { currency: 'USD', rooms: 1, area: { bbox: b } });
      return 'truncated' in a ? a.truncated.reported! : a.all().length;
    };
    expect(quarters(METROPOLIS.bbox).reduce((s, q) => s + count(q), 0)).toBe(count(METROPOLIS.bbox));
    expect(count(METROPOLIS.bbox)).toBe(METROPOLIS.listings.airbnb);
  });

  it('a box under the cap answers exactly the truth inside it; a price band narrows it on the base rate', () => {
    const b = quarters(quarters(METROPOLIS.bbox)[0]!)[0]!;
    const truth = metropolisTruth('airbnb').filter((x) => inBox(b, x.lat, x.lng));
    expect(truth.length).toBeLessThan(SEARCH_CAPS.airbnb);
    const a = world.searchAnswer('airbnb', '', { currency: 'USD', rooms: 1, area: { bbox: b } });
    expect(rowsOf(a).map((r) => r.platformListingId)).toEqual(truth.map((x) => x.id));
    const banded = world.searchAnswer('airbnb', '', { currency: 'USD', rooms: 1, area: { bbox: METROPOLIS.bbox, priceMin: 60, priceMax: 70 } });
    expect(rowsOf(banded).map((r) => r.platformListingId)).toEqual(
      metropolisTruth('airbnb')
        .filter((x) => x.baseUsd >= 60 && x.baseUsd <= 70)
        .slice(0, SEARCH_CAPS.airbnb)
        .map((x) => x.id),
    );
  });

  it('dated rows carry a price for the stay', () => {
    const stay = { checkIn: '2030-03-01', checkOut: '2030-03-03', adults: 2, children: 0, childAges: [], currency: 'USD' };
    const rows = rowsOf(world.searchAnswer('booking', 'Metropolis', { currency: 'USD', rooms: 1, stay }));
    expect(rows.every((r) => (r.price?.nightlyPrice ?? 0) > 0)).toBe(true);
  });
});
