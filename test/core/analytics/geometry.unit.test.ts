// The one distance on the globe (src/core/analytics/geometry.ts): comp sets, market and matches
// measure with it. Known distances, symmetry, the box an index searches before the distance decides,
// and how closely it agrees with the equirectangular formula match/1 measured with before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxAround, distanceMeters } from '../../../src/core/analytics/geometry.js';

/** The formula matches used before (equirectangular), to show the move changed no score. */
function equirectangular(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const x = ((lng2 - lng1) * Math.PI) / 180;
  const k = Math.cos((((lat1 + lat2) / 2) * Math.PI) / 180);
  const dy = ((lat2 - lat1) * Math.PI) / 180;
  return 6_371_000 * Math.sqrt(x * k * (x * k) + dy * dy);
}

/** The point `m` metres from (lat, lng) on bearing `deg` (0 north, 90 east), on the same sphere. */
function destination(lat: number, lng: number, m: number, deg: number): { lat: number; lng: number } {
  const r = Math.PI / 180;
  const d = m / 6_371_000;
  const b = deg * r;
  const p1 = lat * r;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l2 = lng * r + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { lat: p2 / r, lng: l2 / r };
}

const lat = fc.double({ min: -70, max: 70, noNaN: true });
const lng = fc.double({ min: -179, max: 179, noNaN: true });

describe('distanceMeters', () => {
  it('is 0 from a point to itself, and the same both ways', () => {
    expect(distanceMeters(38.7223, -9.1393, 38.7223, -9.1393)).toBe(0);
    fc.assert(fc.property(lat, lng, lat, lng, (a, b, c, d) => distanceMeters(a, b, c, d) === distanceMeters(c, d, a, b)));
  });

  it('measures on a sphere of 6,371 km: a degree of latitude, a quarter meridian, the antipode', () => {
    expect(distanceMeters(0, 0, 1, 0)).toBeCloseTo(111_194.93, 1);
    expect(distanceMeters(0, 0, 90, 0)).toBeCloseTo((Math.PI / 2) * 6_371_000, 3);
    // Near the antipode the haversine loses digits (within a metre of 20,015 km) and its term may
    // round past 1: clamped, never NaN.
    expect(distanceMeters(0, 0, 0, 180)).toBeCloseTo(Math.PI * 6_371_000, 3);
    expect(distanceMeters(10, 20, -10, -160)).toBeCloseTo(Math.PI * 6_371_000, 0);
  });

  it('gives known city distances: Lisbon–Porto about 274 km, Paris–London about 344 km', () => {
    expect(distanceMeters(38.7223, -9.1393, 41.1579, -8.6291) / 1000).toBeCloseTo(274.3, 0);
    expect(distanceMeters(48.8566, 2.3522, 51.5074, -0.1278) / 1000).toBeCloseTo(343.6, 0);
  });

  it('a degree of longitude shrinks with the cosine of the latitude', () => {
    expect(distanceMeters(60, 10, 60, 10.001) / distanceMeters(0, 10, 0, 10.001)).toBeCloseTo(0.5, 6);
  });

  it('agrees with the equirectangular formula within 0.1 mm up to 2 km (the distances match/1 scores)', () => {
    fc.assert(
      fc.property(lat, lng, fc.double({ min: 0, max: 2000, noNaN: true }), fc.double({ min: 0, max: 360, noNaN: true }), (a, b, m, deg) => {
        const p = destination(a, b, m, deg);
        expect(Math.abs(distanceMeters(a, b, p.lat, p.lng) - equirectangular(a, b, p.lat, p.lng))).toBeLessThan(1e-4);
        expect(distanceMeters(a, b, p.lat, p.lng)).toBeCloseTo(m, 6);
      }),
    );
  });
});

describe('boxAround', () => {
  const inside = (b: ReturnType<typeof boxAround>, p: { lat: number; lng: number }) => p.lat >= b.minLat && p.lat <= b.maxLat && p.lng >= b.minLng && p.lng <= b.maxLng;

  it('holds every point within the radius, whatever the bearing', () => {
    fc.assert(
      fc.property(lat, lng, fc.double({ min: 1, max: 50_000, noNaN: true }), fc.double({ min: 0, max: 360, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b, r, deg, f) => {
        expect(inside(boxAround(a, b, r), destination(a, b, r * f, deg))).toBe(true);
      }),
    );
  });

  it('is only a little larger than the circle: a tenth of a percent north and south', () => {
    const b = boxAround(38.7, -9.14, 1000);
    expect(distanceMeters(38.7, -9.14, b.maxLat, -9.14)).toBeCloseTo(1001, 0);
    expect(distanceMeters(38.7, -9.14, b.minLat, -9.14)).toBeCloseTo(1001, 0);
    expect(distanceMeters(38.7, -9.14, 38.7, b.maxLng)).toBeGreaterThan(1000);
    expect(distanceMeters(38.7, -9.14, 38.7, b.maxLng)).toBeLessThan(1002);
  });

  it('stays finite at a pole', () => {
    const b = boxAround(90, 0, 1000);
    expect(Number.isFinite(b.minLng) && Number.isFinite(b.maxLng)).toBe(true);
    expect(b.maxLat).toBeGreaterThan(90);
  });
});
