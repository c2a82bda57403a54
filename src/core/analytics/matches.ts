// The same place across platforms (issue 27, item 4): whether two listings on different platforms
// are the same property, as a score in 0..1 with its evidence, signal by signal. Pure: the facts of
// two listings in, a verdict out; where the facts come from is the operation's (ops/matches.ts).
//
// Method match/1 (docs/analytics.md "The same place across platforms"):
// - Each signal both listings state scores 0..1; the score is their weighted mean over the signals
//   available (a signal neither or only one listing states neither helps nor hurts).
// - name: the larger of the token Jaccard and the trigram Dice of the normalized names (lower case,
//   no accents, bedroom counts and common translations of room words made one token, stop words
//   and the city dropped). description: the same, when both have one.
// - distance: no penalty within 200 m (airbnb moves pins up to ~150 m), falling to 0 at 1 km.
// - bedrooms (exact 1, one apart 0.3), guests (exact 1, 1–2 apart 0.6), bathrooms (exact 1, half
//   a bathroom apart 0.6), host (the same first name or company 1, different person 0; a person
//   beside a company says nothing).
// - photos: 64-bit perceptual hashes; two photos are the same within 8 bits (Hamming). Two shared
//   photos or more are strong evidence (1); one shared photo is what neighbours in one building
//   often have (0.3); none 0.
// - Vetoes, whatever the score: more than 1 km apart, bedrooms two or more apart, or, when both
//   have three photos or more, at most one shared. And a match needs the place confirmed: the
//   distance or the photos must be available and agree.
import { distanceMeters } from './geometry.js';

export const MATCH_METHOD = 'match/1';
export const DEFAULT_MATCH_THRESHOLD = 0.8;

export interface MatchFacts {
  platform: string;
  listingId: string;
  name: string | null;
  description?: string | null;
  lat: number | null;
  lng: number | null;
  city?: string | null;
  bedrooms: number | null;
  bathrooms: number | null;
  maxOccupancy: number | null;
  host: string | null;
  /** Perceptual hashes (16 hex digits) of the listing's photos, or null when none are available. */
  photoHashes: string[] | null;
}

export const MATCH_SIGNALS = ['name', 'description', 'distance', 'bedrooms', 'guests', 'bathrooms', 'photos', 'host'] as const;
export type MatchSignalName = (typeof MATCH_SIGNALS)[number];

export interface MatchSignal {
  signal: MatchSignalName;
  /** 0..1, or null when the signal is not available for this pair. */
  score: number | null;
  weight: number;
  /** true when the signal says same, false when it says different, null when unavailable. */
  agrees: boolean | null;
  /** What was compared, in words ("212 m apart: within the 200 m pins move"). */
  detail: string;
}

export interface MatchVerdict {
  score: number;
  match: boolean;
  /** Why it is not a match whatever the score, or null. */
  veto: string | null;
  signals: MatchSignal[];
}

const WEIGHTS: Record<MatchSignalName, number> = { name: 0.2, description: 0.1, distance: 0.2, bedrooms: 0.15, guests: 0.05, bathrooms: 0.05, photos: 0.3, host: 0.05 };
const NO_PENALTY_M = 200;
const ZERO_AT_M = 1000;
const PHOTO_BITS = 8;

const CANON: Record<string, string> = {
  apartamento: 'apartment',
  appartement: 'apartment',
  appartamento: 'apartment',
  wohnung: 'apartment',
  piso: 'apartment',
  flat: 'apartment',
  apt: 'apartment',
  estudio: 'studio',
  monolocale: 'studio',
  casa: 'house',
  maison: 'house',
  haus: 'house',
  huis: 'house',
  home: 'house',
  moradia: 'townhouse',
  villetta: 'townhouse',
  stadthaus: 'townhouse',
  herenhuis: 'townhouse',
  vivenda: 'villa',
  chalet: 'cottage',
  casale: 'cottage',
  ferienhaus: 'cottage',
  huisje: 'cottage',
  casita: 'cottage',
  cabana: 'cabin',
  cabane: 'cabin',
  baita: 'cabin',
  hutte: 'cabin',
  hut: 'cabin',
};
const STOP = new Set(
  'a an the and of in at on near by with to for from close heart sleeps br bedroom bedrooms bed beds perto de do da dos das em com junto cerca en con del la el pres a au aux avec le les des vicino al con di nahe mit am im bij met het een'.split(
    ' ',
  ),
);

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** A name's tokens: folded, bedroom counts as one token (2br, 2-bedroom → 2bed), translations of room words made one, stop words and the city dropped. */
function nameTokens(name: string, cities: readonly (string | null | undefined)[] = []): string[] {
  const drop = new Set(cities.filter((c): c is string => typeof c === 'string' && c.length > 0).flatMap((c) => fold(c).split(/[^a-z0-9]+/)));
  const s = fold(name)
    .replace(/\b(\d+)\s*-?\s*(?:br|bd|bed|beds|bedroom|bedrooms|quartos?|chambres?|camere|schlafzimmer|slaapkamers?|dormitorios?)\b/g, ' $1bed ')
    .replace(/\bsleeps\s+\d+\b/g, ' ');
  return s
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0 && !STOP.has(t) && !drop.has(t))
    .map((t) => CANON[t] ?? t);
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (A.size === 0 && B.size === 0) return 0;
  let both = 0;
  for (const t of A) if (B.has(t)) both++;
  return both / (A.size + B.size - both);
}

function trigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  const p = `  ${s} `;
  for (let i = 0; i + 3 <= p.length; i++) {
    const g = p.slice(i, i + 3);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function dice(a: string, b: string): number {
  const A = trigrams(a);
  const B = trigrams(b);
  let both = 0;
  let total = 0;
  for (const [g, n] of A) {
    both += Math.min(n, B.get(g) ?? 0);
    total += n;
  }
  for (const n of B.values()) total += n;
  return total === 0 ? 0 : (2 * both) / total;
}

/** Text similarity 0..1: the larger of the token Jaccard and the trigram Dice of the sorted tokens. */
function textSimilarity(a: string, b: string, cities: readonly (string | null | undefined)[] = []): number {
  const ta = nameTokens(a, cities);
  const tb = nameTokens(b, cities);
  if (ta.length === 0 || tb.length === 0) return 0;
  return Math.max(jaccard(ta, tb), dice([...ta].sort().join(' '), [...tb].sort().join(' ')));
}

/** Hamming distance of two 64-bit hashes written as 16 hex digits. */
function hamming(a: string, b: string): number {
  let n = 0;
  for (let i = 0; i < 16; i += 4) {
    let x = Number.parseInt(a.slice(i, i + 4), 16) ^ Number.parseInt(b.slice(i, i + 4), 16);
    while (x) {
      n += x & 1;
      x >>>= 1;
    }
  }
  return n;
}

/** How many of a's photos have a photo of b within PHOTO_BITS bits. */
function sharedPhotos(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (const h of a) if (b.some((g) => hamming(h, g) <= PHOTO_BITS)) n++;
  return n;
}

const COMPANY = /\b(co|inc|ltd|llc|gmbh|rentals?|homes?|stays|management|hosting|lets|properties|group|apartments|vacations?)\b\.?/i;

function hostSignal(a: string | null, b: string | null): MatchSignal {
  const w = WEIGHTS.host;
  if (!a || !b) return { signal: 'host', score: null, weight: w, agrees: null, detail: 'host name not stated by both' };
  const fa = fold(a).trim();
  const fb = fold(b).trim();
  const ca = COMPANY.test(a);
  const cb = COMPANY.test(b);
  if (ca && cb)
    return fa === fb
      ? { signal: 'host', score: 1, weight: w, agrees: true, detail: `same company host (${a})` }
      : { signal: 'host', score: 0, weight: w, agrees: false, detail: `different company hosts (${a} / ${b})` };
  if (ca !== cb) return { signal: 'host', score: null, weight: w, agrees: null, detail: `a person and a company (${a} / ${b}): says nothing` };
  const first = (s: string) => s.split(/[\s&,]+/)[0] ?? '';
  return first(fa) === first(fb)
    ? { signal: 'host', score: 1, weight: w, agrees: true, detail: `same host first name (${a} / ${b})` }
    : { signal: 'host', score: 0, weight: w, agrees: false, detail: `different hosts (${a} / ${b})` };
}

function count(signal: 'bedrooms' | 'guests' | 'bathrooms', a: number | null, b: number | null): MatchSignal {
  const w = WEIGHTS[signal];
  if (a === null || b === null) return { signal, score: null, weight: w, agrees: null, detail: `${signal} not stated by both` };
  const d = Math.abs(a - b);
  const score = d === 0 ? 1 : signal === 'bedrooms' ? (d <= 1 ? 0.3 : 0) : signal === 'guests' ? (d <= 2 ? 0.6 : 0) : d <= 0.5 ? 0.6 : 0;
  return { signal, score, weight: w, agrees: score >= 0.5, detail: d === 0 ? `${signal} equal (${a})` : `${signal} differ (${a} / ${b})` };
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Whether b is the same property as a, with the evidence, by method match/1. */
export function scoreMatch(a: MatchFacts, b: MatchFacts, threshold = DEFAULT_MATCH_THRESHOLD): MatchVerdict {
  const cities = [a.city, b.city];
  const signals: MatchSignal[] = [];
  if (a.name && b.name) {
    const s = r3(textSimilarity(a.name, b.name, cities));
    signals.push({ signal: 'name', score: s, weight: WEIGHTS.name, agrees: s >= 0.5, detail: `names ${Math.round(s * 100)} % alike ("${a.name}" / "${b.name}")` });
  } else signals.push({ signal: 'name', score: null, weight: WEIGHTS.name, agrees: null, detail: 'name not stated by both' });
  if (a.description && b.description) {
    const s = r3(textSimilarity(a.description, b.description, cities));
    signals.push({ signal: 'description', score: s, weight: WEIGHTS.description, agrees: s >= 0.5, detail: `descriptions ${Math.round(s * 100)} % alike` });
  } else signals.push({ signal: 'description', score: null, weight: WEIGHTS.description, agrees: null, detail: 'no description from both' });
  let metres: number | null = null;
  if (a.lat !== null && a.lng !== null && b.lat !== null && b.lng !== null) {
    metres = Math.round(distanceMeters(a.lat, a.lng, b.lat, b.lng));
    const s = metres <= NO_PENALTY_M ? 1 : metres >= ZERO_AT_M ? 0 : r3(1 - (metres - NO_PENALTY_M) / (ZERO_AT_M - NO_PENALTY_M));
    const detail = metres <= NO_PENALTY_M ? `${metres} m apart: within the ${NO_PENALTY_M} m map pins may be moved` : `${metres} m apart: more than pin jitter explains`;
    signals.push({ signal: 'distance', score: s, weight: WEIGHTS.distance, agrees: s >= 0.5, detail });
  } else signals.push({ signal: 'distance', score: null, weight: WEIGHTS.distance, agrees: null, detail: 'coordinates not stated by both' });
  signals.push(count('bedrooms', a.bedrooms, b.bedrooms));
  signals.push(count('guests', a.maxOccupancy, b.maxOccupancy));
  signals.push(count('bathrooms', a.bathrooms, b.bathrooms));
  let shared: number | null = null;
  let fewest = 0;
  if (a.photoHashes && b.photoHashes && a.photoHashes.length > 0 && b.photoHashes.length > 0) {
    shared = sharedPhotos(a.photoHashes, b.photoHashes);
    fewest = Math.min(a.photoHashes.length, b.photoHashes.length);
    const s = shared >= 2 || (shared === 1 && fewest === 1) ? 1 : shared === 1 ? 0.3 : 0;
    signals.push({
      signal: 'photos',
      score: s,
      weight: WEIGHTS.photos,
      agrees: s >= 0.5,
      detail: `${shared} of ${a.photoHashes.length} photos also in the other's ${b.photoHashes.length} (perceptual hashes within ${PHOTO_BITS} bits)`,
    });
  } else signals.push({ signal: 'photos', score: null, weight: WEIGHTS.photos, agrees: null, detail: 'photo hashes not available for both' });
  signals.push(hostSignal(a.host, b.host));

  let num = 0;
  let den = 0;
  for (const s of signals) {
    if (s.score === null) continue;
    num += s.score * s.weight;
    den += s.weight;
  }
  const score = den === 0 ? 0 : r3(num / den);
  let veto: string | null = null;
  if (metres !== null && metres > ZERO_AT_M) veto = `${metres} m apart (more than ${ZERO_AT_M} m)`;
  else if (a.bedrooms !== null && b.bedrooms !== null && Math.abs(a.bedrooms - b.bedrooms) >= 2) veto = `bedrooms ${a.bedrooms} and ${b.bedrooms}`;
  else if (shared !== null && fewest >= 3 && shared <= 1) veto = `${shared === 0 ? 'no' : 'only one'} photo in common (of ${fewest}): another unit, not this one`;
  else if (!signals.some((s) => (s.signal === 'distance' || s.signal === 'photos') && s.agrees === true)) veto = 'the place is not confirmed: neither the distance nor the photos agree';
  return { score, match: veto === null && score >= threshold, veto, signals };
}

/** The signals of a verdict that disagreed, in words: what made a candidate not a match. */
export function disagreements(v: MatchVerdict): string[] {
  const out = v.signals.filter((s) => s.agrees === false).map((s) => s.detail);
  if (v.veto) out.unshift(v.veto);
  return out;
}

/** The facts of a listing (a Property's fields) the method compares. */
export function matchFacts(
  p: {
    platform: string;
    platformListingId: string;
    name: string;
    location: { lat: number | null; lng: number | null; city: string | null };
    bedrooms: number | null;
    bathrooms: number | null;
    maxOccupancy: number | null;
    host: { name: string | null } | null;
  },
  photoHashes: string[] | null,
): MatchFacts {
  return {
    platform: p.platform,
    listingId: p.platformListingId,
    name: p.name,
    description: null,
    lat: p.location.lat,
    lng: p.location.lng,
    city: p.location.city,
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    maxOccupancy: p.maxOccupancy,
    host: p.host?.name ?? null,
    photoHashes,
  };
}
