// Discovery past the caps (issue 38, item 2): every listing of an area, though a platform answers
// at most its cap a search. The area is split until no search of a cell is truncated, and where
// geography cannot split further (a cell too small, or every listing of it at one point) by price
// bands. Pure: the search is given (the live path bills it as the same call by hand), and the
// split is a function of the answers, so the same answers give the same cells.
//
// How a truncated cell is split: its answer carries a sample of its listings (the rows the
// platform returned, with their coordinates) and, usually, how many it has. The cell is cut
// along its longer side at the sample's quantiles (a k-d split) into as many parts as that count
// needs, each planned at a size whose count, estimated from the sample, stays under the cap by a
// margin (plannedSize), so most parts come back whole at the first try. Far past the cap the
// sample is too thin for that: a first round of a few parts is searched, and their counts and
// denser samples plan the rest. The last part of a split is never searched blind: its count is
// the cell's less its siblings', so it is split first if that is past the cap, searched once if
// it fits, and not searched at all if every listing it holds was found already (a cell just past
// the cap is cut unevenly for that: the first part as large as can be trusted, the rest small).
// Without a count the cell is cut in four, as a quadtree would. A part that is still truncated
// is split the same way with its own (denser) sample.
import { boxAround } from '../analytics/geometry.js';
import type { EnabledPlatform } from '../platforms.js';
import type { Property } from '../schemas/resources.js';
import type { BBox, Truncation } from '../upstream.js';

/**
 * The box a circle needs (a comp set's anchor and radius, issue 38's compSet scope): discovery
 * searches boxes, and the listings outside the circle are kept out afterwards by distance.
 */
export function circleBox(lat: number, lng: number, radiusMeters: number): BBox {
  const b = boxAround(lat, lng, radiusMeters);
  return { west: Math.max(-180, b.minLng), south: Math.max(-90, b.minLat), east: Math.min(180, b.maxLng), north: Math.min(90, b.maxLat) };
}

/** One search of a cell: a platform, a box and, past geography, a nightly price band. */
export interface CellQuery {
  platform: EnabledPlatform;
  bbox: BBox;
  priceMin?: number | undefined;
  priceMax?: number | undefined;
}

/** What discovery reads of a search row. */
export type DiscoveryRow = Pick<Property, 'platform' | 'platformListingId' | 'location' | 'bedrooms'>;

/** What a search of a cell answered: its rows (every one, not a page) and whether a cap cut them. */
export interface CellAnswer {
  rows: readonly DiscoveryRow[];
  truncated: Truncation | null;
}

export type CellSearch = (q: CellQuery) => Promise<CellAnswer>;

/** A searched cell, as the result reports it. */
export interface Cell extends CellQuery {
  /** Rows its search answered. */
  returned: number;
  truncated: Truncation | null;
  /** Whether it was split (by area, or by price band), its parts searched in its place. */
  split: 'area' | 'price' | null;
}

export interface DiscoveryOptions {
  bbox: BBox;
  platforms: readonly EnabledPlatform[];
  search: CellSearch;
  /** A cell narrower than this (degrees, either side) is split by price band instead (default 0.0005, about 50 m). */
  minCellDeg?: number;
  /** At most this many searches per platform (default 10,000): a guard, never reached on a real city. */
  maxSearches?: number;
}

export interface DiscoveryResult {
  /** Every listing found, once (the first row seen of it), by platform then in the order found. */
  listings: DiscoveryRow[];
  /** Searches made, per platform. */
  searches: Partial<Record<EnabledPlatform, number>>;
  /** Every truncated answer: the cell that was cut, and what the platform reported. */
  truncations: (CellQuery & Truncation)[];
  cells: Cell[];
  /** Whether a platform stopped at maxSearches with cells still truncated (its listings are then incomplete). */
  incomplete: EnabledPlatform[];
}

interface Point {
  lat: number;
  lng: number;
}

const DEFAULT_MIN_CELL_DEG = 0.0005;
/** How many standard deviations of a part's estimated count are kept under the cap (plannedSize). */
const Z = 0.8;
/** A cell needing more parts than this is split in two rounds: a few parts first, whose counts and samples plan the rest. */
const ONE_ROUND_PARTS = 8;

/** The cosine of a latitude, for comparing a box's sides in distance rather than in degrees. */
const cosLat = (lat: number) => Math.cos((lat * Math.PI) / 180);

/** The points inside a box (half-open, as the platforms' boxes are). */
const inside = (b: BBox, p: Point) => p.lng >= b.west && p.lng < b.east && p.lat >= b.south && p.lat < b.north;

/**
 * A box cut into `k` parts holding about as many of `points` each: along its longer side at the
 * points' quantile, then each side the same way. Too few points to place a cut: the middle.
 */
export function splitBox(b: BBox, points: readonly Point[], k: number, firstShare?: number): BBox[] {
  if (k <= 1) return [b];
  const k1 = Math.floor(k / 2);
  // Two parts may be cut unevenly: `firstShare` of the points in the first.
  const share = k === 2 && firstShare !== undefined ? firstShare : k1 / k;
  const wide = (b.east - b.west) * cosLat((b.south + b.north) / 2) >= b.north - b.south;
  const lo = wide ? b.west : b.south;
  const hi = wide ? b.east : b.north;
  const at = (p: Point) => (wide ? p.lng : p.lat);
  const sorted = points.map(at).sort((x, y) => x - y);
  let cut = lo + (hi - lo) * share;
  if (sorted.length >= 2) {
    const i = Math.min(sorted.length - 1, Math.max(1, Math.round(sorted.length * share)));
    cut = (sorted[i - 1]! + sorted[i]!) / 2;
  }
  // Never on an edge: a part without width is a search that cannot answer anything.
  if (!(cut > lo && cut < hi)) cut = (lo + hi) / 2;
  const first: BBox = wide ? { ...b, east: cut } : { ...b, north: cut };
  const second: BBox = wide ? { ...b, west: cut } : { ...b, south: cut };
  return [
    ...splitBox(
      first,
      points.filter((p) => inside(first, p)),
      k1,
    ),
    ...splitBox(
      second,
      points.filter((p) => inside(second, p)),
      k - k1,
    ),
  ];
}

/** A price band cut in two: halves of a closed band, and an open one at twice its floor (at least 100 more). */
function splitBand(min: number, max: number | undefined): [number, number | undefined][] {
  const mid = max === undefined ? Math.max(min * 2, min + 100) : (min + max) / 2;
  return [
    [min, mid],
    [mid, max],
  ];
}

const located = (rows: readonly DiscoveryRow[]): Point[] =>
  rows.flatMap((r) => (typeof r.location.lat === 'number' && typeof r.location.lng === 'number' ? [{ lat: r.location.lat, lng: r.location.lng }] : []));

/**
 * The size a part is planned at, from a cell of `total` listings of which `sampled` came back: a
 * part of L listings holds about L·f of the sample (f = sampled / total), so its count is known to
 * about √(L(1−f)/f); L is chosen so that L plus `z` of those stays under the cap.
 */
export function plannedSize(cap: number, total: number, sampled: number, z = Z): number {
  const f = Math.min(1, Math.max(sampled, 1) / Math.max(total, 1));
  const v = (1 - f) / f;
  const r = (-z * Math.sqrt(v) + Math.sqrt(z * z * v + 4 * cap)) / 2;
  return Math.max(1, Math.min(cap, r * r));
}

/**
 * Finds every listing of the box on each platform: searches the box, splits what was truncated
 * (by area, then by price band) until nothing is, and keeps each listing once.
 */
export async function discover(o: DiscoveryOptions): Promise<DiscoveryResult> {
  const minDeg = o.minCellDeg ?? DEFAULT_MIN_CELL_DEG;
  const max = o.maxSearches ?? 10_000;
  const seen = new Map<string, DiscoveryRow>();
  const result: DiscoveryResult = { listings: [], searches: {}, truncations: [], cells: [], incomplete: [] };

  for (const platform of o.platforms) {
    let made = 0;
    let stopped = false;
    /** Where this platform's listings found so far are. */
    const found: Point[] = [];

    /** Searches a cell and whatever its truncation needs; its exact count (null: the platform did not say). */
    const explore = async (q: CellQuery): Promise<number | null> => {
      if (made >= max) {
        stopped = true;
        return null;
      }
      made++;
      const answer = await o.search(q);
      for (const r of answer.rows) {
        const key = `${r.platform}:${r.platformListingId}`;
        if (!seen.has(key)) {
          seen.set(key, r);
          result.listings.push(r);
          const at = located([r])[0];
          if (at) found.push(at);
        }
      }
      const cell: Cell = { ...q, returned: answer.rows.length, truncated: answer.truncated, split: null };
      result.cells.push(cell);
      const t = answer.truncated;
      if (t === null) return answer.rows.length;
      result.truncations.push({ ...q, ...t });
      const points = located(answer.rows).filter((p) => inside(q.bbox, p));
      const b = q.bbox;
      const tiny = b.east - b.west < minDeg || b.north - b.south < minDeg;
      const onePoint = points.length > 1 && points.every((p) => p.lat === points[0]!.lat && p.lng === points[0]!.lng);
      if (q.priceMin !== undefined || q.priceMax !== undefined || tiny || onePoint) {
        // A band a cent wide still cut: listings no search can tell apart (left incomplete, said).
        if (q.priceMax !== undefined && q.priceMax - (q.priceMin ?? 0) < 0.01) {
          stopped = true;
          return t.reported;
        }
        cell.split = 'price';
        for (const [min, hi] of splitBand(q.priceMin ?? 0, q.priceMax)) await explore({ platform, bbox: b, priceMin: min, ...(hi === undefined ? {} : { priceMax: hi }) });
        return t.reported;
      }
      cell.split = 'area';
      if (t.reported === null) {
        // No count to plan with: a quadtree's four quarters.
        for (const bbox of splitBox(b, [], 4)) await explore({ platform, bbox });
        return null;
      }
      await fill(b, t.reported, points, t.cap);
      return t.reported;
    };

    /**
     * Covers a box whose count is known (`total`, past the cap) with searches that come back
     * whole, planned from the sample of its listings seen so far (see the top of this file).
     */
    const fill = async (box: BBox, total: number, sample: readonly Point[], cap: number): Promise<void> => {
      const size = plannedSize(cap, total, sample.length);
      const need = Math.max(2, Math.ceil(total / size));
      // Two parts: the first as large as can be trusted to come back whole, the second the rest,
      // whose listings may all be known already (then it is not searched at all).
      const parts = need === 2 ? splitBox(box, sample, 2, Math.min(0.95, size / total)) : splitBox(box, sample, need > ONE_ROUND_PARTS ? Math.ceil(need / ONE_ROUND_PARTS) : need);
      let left = total;
      for (const [i, part] of parts.entries()) {
        if (stopped) return;
        if (i < parts.length - 1) {
          const n = await explore({ platform, bbox: part });
          if (n === null) return;
          left -= n;
        } else if (left > cap)
          await fill(
            part,
            left,
            sample.filter((p) => inside(part, p)),
            cap,
          );
        else if (left > foundIn(part)) await explore({ platform, bbox: part });
      }
    };

    /** How many of this platform's listings found so far lie in a box. */
    const foundIn = (b: BBox) => found.reduce((n, p) => n + (inside(b, p) ? 1 : 0), 0);

    await explore({ platform, bbox: o.bbox });
    if (stopped) result.incomplete.push(platform);
    result.searches[platform] = made;
  }
  return result;
}
