// Distances and boxes on the globe, for every analytic that asks how far apart two listings are or
// which listings lie near a point: comp sets and market (a radius around an anchor), matches (how
// far apart two listings' pins are). Pure: degrees in, metres out.

/** The mean radius of the Earth, in metres (the sphere the distances are measured on). */
const EARTH_M = 6_371_000;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine: exact on the sphere at any distance). */
export function distanceMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A box holding every point within `meters` of the point (a little larger): what an index can find before distanceMeters decides. */
export function boxAround(lat: number, lng: number, meters: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = (meters / EARTH_M) * (180 / Math.PI) * 1.001;
  const dLng = dLat / Math.max(0.01, Math.cos(rad(lat)));
  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
}
