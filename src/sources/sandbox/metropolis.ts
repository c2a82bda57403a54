// Metropolis: the simulated world's big city (issue 38, item 2), large enough that every platform's
// search cap cuts it short (src/core/search-caps.ts), so discovery has to split it. Its listings
// are spread like a real city's: a dense centre, a few busy neighbourhoods, sparse edges. It is
// deterministic and static (listed at every instant, unlike the moving world's listings), and its
// full listing set, the truth, is exported for tests and benches (metropolisTruth). Its ids say
// nowhere (places.ts NOWHERE, booking's country code `ac` has no built-in city), as a listing of any
// place outside the built-in table does: search rows carry the city and coordinates, a lookup of
// the id alone does not (docs/sandbox.md).
import type { EnabledPlatform } from '../../core/platforms.js';
import type { BBox, SearchArea } from '../../core/upstream.js';
import { coreFor, nativeId } from './core.js';
import { hotelStyleName, slugify } from './names.js';
import { ID_ALPHABET, NOWHERE, placeKey, scatter } from './places.js';
import { hash32, rng } from './prng.js';
import { type Row, detailRow } from './rows.js';

const KM_PER_DEG = 111.32;
const CENTRE = { lat: 40, lng: -40 };
/** How far from the centre a listing can be, km. */
const REACH_KM = 14;

export const METROPOLIS = Object.freeze({
  name: 'Metropolis',
  lat: CENTRE.lat,
  lng: CENTRE.lng,
  /** Listings per platform: homes outnumber hotels, as in real cities. */
  listings: Object.freeze({ airbnb: 5000, vrbo: 1500, booking: 900, google: 700 }) as Readonly<Record<EnabledPlatform, number>>,
  /** A box holding every listing (the city's reach, with a margin). */
  bbox: Object.freeze(boxAround(CENTRE.lat, CENTRE.lng, REACH_KM + 1)),
});

/** The box of half-side `km` around a point, by the world's arithmetic (cos of 40° as the world computes it). */
function boxAround(lat: number, lng: number, km: number): BBox {
  const dLat = km / KM_PER_DEG;
  const dLng = km / (KM_PER_DEG * 0.766044443);
  const r = (x: number) => Math.round(x * 1e5) / 1e5;
  return { west: r(lng - dLng), south: r(lat - dLat), east: r(lng + dLng), north: r(lat + dLat) };
}

/** One listing of the truth: where it is and its base nightly rate (what a price band filters on). */
export interface TruthListing {
  platform: EnabledPlatform;
  id: string;
  lat: number;
  lng: number;
  /** The listing's base nightly rate, USD (the simulated platforms' price filter reads it). */
  baseUsd: number;
}

/** Busy neighbourhoods: offsets from the centre (km east, km north), radius km, and weight. */
const HOODS: readonly (readonly [number, number, number, number])[] = [
  [3.5, 1.0, 1.2, 9],
  [-2.5, 3.0, 1.0, 7],
  [-4.0, -3.5, 1.5, 6],
  [6.0, -5.0, 1.0, 5],
  [1.0, -7.5, 1.3, 4],
  [-8.0, 2.0, 0.8, 3],
];
const HOOD_WEIGHT = HOODS.reduce((s, h) => s + h[3], 0);

function position(r: ReturnType<typeof rng>): { lat: number; lng: number } {
  const u = r.next();
  // 45 %: the centre, denser towards its middle (a disk of random radius up to 3 km).
  if (u < 0.45) return scatter(r, CENTRE.lat, CENTRE.lng, 0.2 + 2.8 * r.next());
  // 35 %: the neighbourhoods.
  if (u < 0.8) {
    let w = r.next() * HOOD_WEIGHT;
    let h = HOODS[0]!;
    for (const x of HOODS) {
      h = x;
      if ((w -= x[3]) < 0) break;
    }
    const lat = CENTRE.lat + h[1] / KM_PER_DEG;
    const lng = CENTRE.lng + h[0] / (KM_PER_DEG * 0.766044443);
    return scatter(r, lat, lng, h[2] * (0.3 + 0.7 * r.next()));
  }
  // 20 %: the sparse rest of the city.
  return scatter(r, CENTRE.lat, CENTRE.lng, REACH_KM);
}

function makeTruth(platform: EnabledPlatform): readonly TruthListing[] {
  const used = new Set<string>();
  const out: TruthListing[] = [];
  const n = METROPOLIS.listings[platform];
  for (let i = 0; i < n; i++) {
    const r = rng('metropolis', platform, i);
    let id: string;
    if (platform === 'booking') id = `ac/${slugify(hotelStyleName(r, 'hotel', null), 48)}-${i}`;
    else {
      id = nativeId(platform, r, NOWHERE, NOWHERE + 1, ID_ALPHABET);
      while (used.has(id)) id = nativeId(platform, r, NOWHERE, NOWHERE + 1, ID_ALPHABET);
    }
    used.add(id);
    const at = position(r);
    out.push({ platform, id, lat: at.lat, lng: at.lng, baseUsd: coreFor(platform, id).basis.baseUsd });
  }
  // Recommended order: by a hash of the id, unrelated to where a listing is.
  out.sort((a, b) => hash32('metropolis-rank', platform, a.id) - hash32('metropolis-rank', platform, b.id) || (a.id < b.id ? -1 : 1));
  return Object.freeze(out);
}

/** Made once per platform (a pure function of the platform). */
const TRUTH = new Map<EnabledPlatform, readonly TruthListing[]>();

/** Every Metropolis listing of a platform, in the platform's recommended order: the truth discovery is measured against. */
export function metropolisTruth(platform: EnabledPlatform): readonly TruthListing[] {
  let t = TRUTH.get(platform);
  if (t === undefined) TRUTH.set(platform, (t = makeTruth(platform)));
  return t;
}

/** Whether a search location names Metropolis. */
export const isMetropolis = (location: string) => placeKey(location) === 'metropolis';

/** Half-open, so the four quarters of a box hold each of its points once. */
export const inBox = (b: BBox, lat: number, lng: number) => lng >= b.west && lng < b.east && lat >= b.south && lat < b.north;

export const intersects = (a: BBox, b: BBox) => a.west < b.east && b.west < a.east && a.south < b.north && b.south < a.north;

/** The listings an area (or, without one, the whole city) holds, in recommended order. */
export function metropolisMatches(platform: EnabledPlatform, area: SearchArea | undefined): TruthListing[] {
  const all = metropolisTruth(platform);
  if (!area) return [...all];
  if (!intersects(area.bbox, METROPOLIS.bbox)) return [];
  const lo = area.priceMin ?? 0;
  const hi = area.priceMax ?? Number.POSITIVE_INFINITY;
  return all.filter((x) => inBox(area.bbox, x.lat, x.lng) && x.baseUsd >= lo && x.baseUsd <= hi);
}

/** A Metropolis listing as a search row: its id's listing, with the city's place and its coordinates. */
export function metropolisRow(x: TruthListing): Row {
  const row = detailRow(x.platform, x.id, 1);
  return { ...row, property: { ...row.property, location: { lat: x.lat, lng: x.lng, city: METROPOLIS.name, region: null, country: null, address: null } } };
}
