// The same place across platforms (issue 27, item 4): the sandbox world's properties listed on
// several platforms, with known truth. About half of the airbnb listings of the built-in cities
// are multi-listed: the property the airbnb listing is (its anchor) is also listed on vrbo,
// booking and google under NEW ids that no search or earlier id ever drew (so every existing
// listing answers as before), each sharing the property's facts with realistic noise (name
// variants and translations, the airbnb pin up to 150 m off the address, a room or a guest
// counted differently now and then, host name variants, the same photos recompressed a few bits
// apart). Beside them stand hard negatives: neighbours in the same building or street, same
// bedrooms, similar names, sometimes the same managing host, that are other properties.
//
// Ids (never drawn by a search: nativeId draws airbnb 8–9 digit, vrbo ≤ 8 digit ids):
//   vrbo     9<anchor, 9 digits><1 listing | 2, 3 neighbour>       e.g. 9123456789 1
//   booking  <cc>/<slug>-a<anchor> (listing), <cc>/<slug>-n<anchor> (neighbour)
//   google   ChIJsa<anchor> (listing), ChIJsn<anchor> (neighbour)
import type { EnabledPlatform } from '../../core/platforms.js';
import type { PropertyType } from '../../core/schemas/enums.js';
import type { Property } from '../../core/schemas/resources.js';
import { listingUrl, staysId } from '../../core/listing-ref.js';
import { type Core, coreFor, imageUrls } from './core.js';
import { slugify } from './names.js';
import { type Place, addressFor, placeForListing, titleCase } from './places.js';
import { type Rng, hash32, rng } from './prng.js';

/** A listing's detail (rows.ts Row). */
interface Row {
  id: string;
  core: Core;
  property: Property;
}
/** The detail of an id as if the truth did not exist (rows.ts baseRow): the anchors' own. */
export type BaseRow = (platform: EnabledPlatform, id: string) => Row;

export type TwinRole = 'anchor' | 'listing' | 'neighbour';

export interface TruthListing {
  platform: EnabledPlatform;
  id: string;
  /** anchor: the airbnb listing the property was found by; listing: the same property elsewhere; neighbour: another property beside it. */
  role: TwinRole;
}

interface Member extends TruthListing {
  name: string;
  location: { lat: number; lng: number; address: string | null };
  type: PropertyType;
  bedrooms: number | null;
  bathrooms: number | null;
  maxOccupancy: number;
  host: string | null;
  /** Perceptual hashes (64-bit, 16 hex digits) of the listing's photos, in its order. */
  photos: string[];
  baseFactor: number;
}

interface Group {
  anchor: string;
  place: Place;
  members: Member[];
}

const ANCHOR = /^[1-9]\d{7,8}$/;
const M_PER_DEG = 111_320;

/** Whether an airbnb id is a multi-listed property's airbnb listing. */
function isAnchor(id: string): boolean {
  if (!ANCHOR.test(id)) return false;
  const n = Number(id);
  if (n < 10_000_000 || n > 999_999_999) return false;
  if (placeForListing('airbnb', id) === null) return false;
  return hash32('twin-group', id) % 100 < 50;
}

/** The anchor of a listing the truth knows, and its role, from the id alone; null for any other id. */
function decode(platform: EnabledPlatform, id: string): { anchor: string; role: TwinRole; slot: number } | null {
  let m: RegExpExecArray | null;
  if (platform === 'airbnb') return isAnchor(id) ? { anchor: id, role: 'anchor', slot: 0 } : null;
  if (platform === 'vrbo' && (m = /^9(\d{9})([123])$/.exec(id))) {
    const anchor = String(Number(m[1]));
    return isAnchor(anchor) ? { anchor, role: m[2] === '1' ? 'listing' : 'neighbour', slot: Number(m[2]) } : null;
  }
  if (platform === 'booking' && (m = /^[a-z]{2}\/[a-z0-9-]+-([an])([1-9]\d{7,8})$/.exec(id))) {
    return isAnchor(m[2]!) ? { anchor: m[2]!, role: m[1] === 'a' ? 'listing' : 'neighbour', slot: m[1] === 'a' ? 1 : 2 } : null;
  }
  if (platform === 'google' && (m = /^ChIJs([an])([1-9]\d{7,8})$/.exec(id))) {
    return isAnchor(m[2]!) ? { anchor: m[2]!, role: m[1] === 'a' ? 'listing' : 'neighbour', slot: m[1] === 'a' ? 1 : 2 } : null;
  }
  return null;
}

/** cos of an angle in degrees by its Taylor series: pure arithmetic, identical on every machine (as places.ts). */
function cosDeg(deg: number): number {
  const x = (deg * Math.PI) / 180;
  const x2 = x * x;
  let term = 1;
  let sum = 1;
  for (let n = 1; n <= 12; n++) {
    term *= -x2 / ((2 * n - 1) * (2 * n));
    sum += term;
  }
  return sum;
}

const hex32 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
function photoHash(...seed: (string | number)[]): string {
  return hex32(hash32('phash-hi', ...seed)) + hex32(hash32('phash-lo', ...seed));
}
/** The hash with `bits` of its 64 bits flipped (recompression, resizing). */
function flip(h: string, r: Rng, bits: number): string {
  let hi = Number.parseInt(h.slice(0, 8), 16);
  let lo = Number.parseInt(h.slice(8), 16);
  for (let i = 0; i < bits; i++) {
    const b = r.int(0, 63);
    if (b < 32) hi ^= 1 << b;
    else lo ^= 1 << (b - 32);
  }
  return hex32(hi) + hex32(lo);
}

/** A point `minM`–`maxM` metres from (lat, lng), in a direction drawn from r. */
function moved(r: Rng, lat: number, lng: number, minM: number, maxM: number): { lat: number; lng: number } {
  for (let i = 0; i < 64; i++) {
    const dx = r.range(-1, 1);
    const dy = r.range(-1, 1);
    const d2 = dx * dx + dy * dy;
    if (d2 > 1 || d2 * maxM * maxM < minM * minM) continue;
    const cos = Math.max(0.05, cosDeg(lat));
    return { lat: Math.round((lat + (dy * maxM) / M_PER_DEG) * 1e5) / 1e5, lng: Math.round((lng + (dx * maxM) / (M_PER_DEG * cos)) * 1e5) / 1e5 };
  }
  return { lat, lng };
}

const TRANSLATE: Record<string, Record<string, string>> = {
  pt: {
    apartment: 'Apartamento',
    flat: 'Apartamento',
    loft: 'Loft',
    studio: 'Estúdio',
    house: 'Casa',
    home: 'Casa',
    townhouse: 'Moradia',
    villa: 'Vivenda',
    cottage: 'Casa de Campo',
    cabin: 'Cabana',
    near: 'perto de',
    in: 'em',
    with: 'com',
  },
  es: {
    apartment: 'Apartamento',
    flat: 'Piso',
    loft: 'Loft',
    studio: 'Estudio',
    house: 'Casa',
    home: 'Casa',
    townhouse: 'Casa Adosada',
    villa: 'Villa',
    cottage: 'Casita',
    cabin: 'Cabaña',
    near: 'cerca de',
    in: 'en',
    with: 'con',
  },
  fr: {
    apartment: 'Appartement',
    flat: 'Appartement',
    loft: 'Loft',
    studio: 'Studio',
    house: 'Maison',
    home: 'Maison',
    townhouse: 'Maison de Ville',
    villa: 'Villa',
    cottage: 'Chalet',
    cabin: 'Cabane',
    near: 'près de',
    in: 'à',
    with: 'avec',
  },
  it: {
    apartment: 'Appartamento',
    flat: 'Appartamento',
    loft: 'Loft',
    studio: 'Monolocale',
    house: 'Casa',
    home: 'Casa',
    townhouse: 'Villetta',
    villa: 'Villa',
    cottage: 'Casale',
    cabin: 'Baita',
    near: 'vicino a',
    in: 'a',
    with: 'con',
  },
  de: {
    apartment: 'Wohnung',
    flat: 'Wohnung',
    loft: 'Loft',
    studio: 'Studio',
    house: 'Haus',
    home: 'Haus',
    townhouse: 'Stadthaus',
    villa: 'Villa',
    cottage: 'Ferienhaus',
    cabin: 'Hütte',
    near: 'nahe',
    in: 'in',
    with: 'mit',
  },
  nl: {
    apartment: 'Appartement',
    flat: 'Appartement',
    loft: 'Loft',
    studio: 'Studio',
    house: 'Huis',
    home: 'Huis',
    townhouse: 'Herenhuis',
    villa: 'Villa',
    cottage: 'Huisje',
    cabin: 'Hut',
    near: 'bij',
    in: 'in',
    with: 'met',
  },
};
const OTHER_ADJ = ['Bright', 'Charming', 'Modern', 'Quiet', 'Elegant', 'Stylish', 'Spacious', 'Lovely', 'Sunny', 'Cozy', 'Renovated', 'Central'];
const MANAGERS = ['Sunset Stays Co.', 'Harbor Lane Rentals', 'Blue Door Holiday Homes', 'Old Town Hosting', 'Keystone Holiday Lets', 'Northlight Rentals'];
const INITIALS = 'ABCDEFGHJKLMNPRSTVW';
const FIRST = ['Ana', 'Marta', 'Sophie', 'Luca', 'Elena', 'James', 'Daniel', 'Sara', 'Miguel', 'Hannah', 'Pierre', 'Claire', 'Jonas', 'Lena', 'Tom', 'Olivia'];

const withoutAdjective = (t: string) => t.split(' ').slice(1).join(' ');
const bedroomWords = (t: string) => t.replace(/\b(\d+)BR\b/g, '$1-Bedroom');

/** A name of the same property in another platform's style: reworded, translated, with a suffix. */
function twinName(r: Rng, platform: EnabledPlatform, title: string, place: Place, guests: number): string {
  const words = (t: string) => {
    const table = TRANSLATE[place.lang];
    if (!table) return t;
    return t
      .split(' ')
      .map((w) => table[w.toLowerCase()] ?? w)
      .join(' ');
  };
  const base = withoutAdjective(title) || title;
  const options: (() => string)[] =
    platform === 'vrbo'
      ? [() => titleCase(bedroomWords(title)), () => `${titleCase(bedroomWords(base))} | Sleeps ${guests}`, () => `${words(titleCase(bedroomWords(base)))} - ${place.city}`]
      : [() => `${titleCase(bedroomWords(base))} - ${place.city}`, () => words(titleCase(bedroomWords(base))), () => `${place.city} ${titleCase(bedroomWords(base))}`];
  return r.pick(options)();
}

/** A neighbour's name: the same template with another adjective, a unit number, or the street. */
function neighbourName(r: Rng, title: string, place: Place): string {
  const first = title.split(' ')[0] ?? '';
  const adj = r.pick(OTHER_ADJ.filter((a) => a.toLowerCase() !== first.toLowerCase()));
  return r.pick<() => string>([() => `${adj} ${withoutAdjective(title)}`, () => `${title} II`, () => `${titleCase(withoutAdjective(title))} - ${place.city}`])();
}

const GROUPS = new Map<string, Group>();

function groupOf(anchor: string, baseRow: BaseRow): Group {
  const hit = GROUPS.get(anchor);
  if (hit) return hit;
  const row = baseRow('airbnb', anchor);
  const place = placeForListing('airbnb', anchor)!;
  const core = row.core;
  const pin = row.property.location;
  const r = rng('twin-group', anchor);
  // The address: the airbnb pin is up to 150 m from it.
  const truth = moved(r, pin.lat ?? place.lat, pin.lng ?? place.lng, 0, 150);
  const photos = Array.from({ length: core.photos }, (_v, i) => photoHash('airbnb', anchor, i));
  const hostFirst = (core.host?.name ?? 'Ana').split(' ')[0]!;
  const anchorMember: Member = {
    platform: 'airbnb',
    id: anchor,
    role: 'anchor',
    name: row.property.name,
    location: { lat: pin.lat ?? truth.lat, lng: pin.lng ?? truth.lng, address: null },
    type: core.type,
    bedrooms: core.bedrooms,
    bathrooms: core.bathrooms,
    maxOccupancy: core.maxOccupancy,
    host: core.host?.name ?? null,
    photos,
    baseFactor: 1,
  };
  const members: Member[] = [anchorMember];
  const cc = (place.country ?? 'us').toLowerCase();
  const idFor = (platform: EnabledPlatform, role: 'listing' | 'neighbour', name: string, slot: number): string => {
    const a9 = anchor.padStart(9, '0');
    if (platform === 'vrbo') return `9${a9}${slot}`;
    if (platform === 'booking') return `${cc}/${slugify(name, 48)}-${role === 'listing' ? 'a' : 'n'}${anchor}`;
    return `ChIJs${role === 'listing' ? 'a' : 'n'}${anchor}`;
  };
  const hotel = (p: EnabledPlatform) => p === 'booking' || p === 'google';
  // The same property on the other platforms.
  const on = { vrbo: r.chance(0.7), booking: r.chance(0.4), google: r.chance(0.25) };
  if (!on.vrbo && !on.booking && !on.google) on.vrbo = true;
  for (const platform of ['vrbo', 'booking', 'google'] as const) {
    if (!on[platform]) continue;
    const name = twinName(r, platform, row.property.name, place, core.maxOccupancy);
    const loc = platform === 'vrbo' ? moved(r, truth.lat, truth.lng, 0, 25) : truth;
    const beds = core.bedrooms === null ? null : r.chance(0.9) ? core.bedrooms : Math.max(0, core.bedrooms + (r.chance(0.5) ? 1 : -1));
    const baths = core.bathrooms === null ? null : r.chance(0.85) ? core.bathrooms : Math.max(1, core.bathrooms + (r.chance(0.5) ? 0.5 : -0.5));
    const guests = r.chance(0.7) ? core.maxOccupancy : Math.max(1, core.maxOccupancy + r.pick([-2, -1, 1, 2]));
    const host =
      platform !== 'vrbo'
        ? null
        : r.weighted<string>([
            [`${hostFirst} ${INITIALS.charAt(r.int(0, INITIALS.length - 1))}.`, 50],
            [r.pick(MANAGERS), 35],
            [hostFirst, 15],
          ]);
    const keep = platform === 'vrbo' ? photos.length : Math.min(photos.length, r.int(2, 4));
    const shots = r
      .sample(
        photos.map((h, i) => ({ h, i })),
        keep,
      )
      .map(({ h }) => flip(h, r, r.int(0, 3)));
    if (r.chance(0.2)) shots.push(photoHash(platform, anchor, 'extra'));
    members.push({
      platform,
      id: idFor(platform, 'listing', name, 1),
      role: 'listing',
      name,
      location: { ...loc, address: hotel(platform) ? addressFor(rng('twin-address', anchor), place) : null },
      type: core.type,
      bedrooms: platform === 'google' ? null : beds,
      bathrooms: platform === 'google' ? null : baths,
      maxOccupancy: guests,
      host,
      photos: shots,
      baseFactor: r.range(0.95, 1.12),
    });
  }
  // Other properties beside it: the same building (same bedrooms, the building's photo), or the street.
  const neighbours: [EnabledPlatform, number, boolean][] = [];
  if (r.chance(0.6)) neighbours.push(['vrbo', 2, true]);
  if (r.chance(0.35)) neighbours.push(['vrbo', 3, false]);
  if (r.chance(0.4)) neighbours.push(['booking', 2, r.chance(0.6)]);
  if (r.chance(0.15)) neighbours.push(['google', 2, true]);
  for (const [platform, slot, sameBuilding] of neighbours) {
    const name = neighbourName(r, row.property.name, place);
    const loc = sameBuilding ? moved(r, truth.lat, truth.lng, 0, 30) : moved(r, truth.lat, truth.lng, 60, 300);
    const beds = core.bedrooms === null ? null : sameBuilding || r.chance(0.5) ? core.bedrooms : Math.max(0, core.bedrooms + (r.chance(0.5) ? 1 : -1));
    const host = platform !== 'vrbo' ? null : r.chance(0.3) ? r.pick(MANAGERS) : `${r.pick(FIRST.filter((f) => f !== hostFirst))} ${INITIALS.charAt(r.int(0, INITIALS.length - 1))}.`;
    const count = r.int(3, 7);
    const shots = Array.from({ length: count }, (_v, i) => photoHash(platform, idFor(platform, 'neighbour', name, slot), i));
    // The building's front, the pool: a photo the neighbour shares with the property.
    if (sameBuilding && photos.length > 0) shots[0] = flip(photos[0]!, r, r.int(0, 2));
    members.push({
      platform,
      id: idFor(platform, 'neighbour', name, slot),
      role: 'neighbour',
      name,
      location: { ...loc, address: hotel(platform) ? addressFor(rng('twin-address', anchor, slot), place) : null },
      type: core.type,
      bedrooms: platform === 'google' ? null : beds,
      bathrooms: platform === 'google' ? null : core.bathrooms,
      maxOccupancy: sameBuilding ? core.maxOccupancy : Math.max(1, core.maxOccupancy + r.int(-1, 1)),
      host,
      photos: shots,
      baseFactor: r.range(0.8, 1.2),
    });
  }
  const group = { anchor, place, members };
  if (GROUPS.size > 4096) GROUPS.clear();
  GROUPS.set(anchor, group);
  return group;
}

function memberOf(platform: EnabledPlatform, id: string, baseRow: BaseRow): { group: Group; member: Member } | null {
  const d = decode(platform, id);
  if (d === null) return null;
  const group = groupOf(d.anchor, baseRow);
  const member = group.members.find((m) => m.platform === platform && m.id === id);
  return member ? { group, member } : null;
}

/**
 * The detail of a listing the truth made (rows.ts detailRow asks this first), or null for every
 * other id (whose answer is then exactly what it was before the truth existed). The anchor itself
 * is its own airbnb listing, unchanged: null.
 */
export function twinRow(platform: EnabledPlatform, id: string, images: number | undefined, baseRow: BaseRow): Row | null {
  if (platform === 'airbnb') return null;
  const found = memberOf(platform, id, baseRow);
  if (found === null) return null;
  const { group, member } = found;
  const base = coreFor(platform, id);
  const anchorCore = coreFor('airbnb', group.anchor);
  const core: Core = {
    ...base,
    type: member.type,
    starRating: null,
    maxOccupancy: member.maxOccupancy,
    bedrooms: member.bedrooms,
    bathrooms: member.bathrooms,
    host: platform === 'vrbo' ? { name: member.host, isSuperhost: base.host?.isSuperhost ?? null } : null,
    basis: { ...anchorCore.basis, baseUsd: anchorCore.basis.baseUsd * member.baseFactor },
    photos: member.photos.length,
  };
  const place = group.place;
  const property: Property = {
    id: staysId(platform, id),
    platform,
    platformListingId: id,
    url: listingUrl(platform, id),
    name: member.name,
    propertyType: core.type,
    location: { lat: member.location.lat, lng: member.location.lng, city: place.city, region: place.region, country: place.country, address: member.location.address },
    starRating: null,
    guestRating: core.guestRating,
    ratingScale: core.ratingScale,
    reviewCount: core.reviewCount,
    maxOccupancy: core.maxOccupancy,
    bedrooms: core.bedrooms,
    bathrooms: core.bathrooms,
    amenities: [...anchorCore.amenities],
    images: imageUrls(platform, id, images ?? core.photos),
    host: core.host ? { ...core.host } : null,
    price: null,
  };
  return { id, core, property };
}

/** Two listings and whether they are the same property. */
export interface LabelledPair {
  a: { platform: EnabledPlatform; id: string };
  b: { platform: EnabledPlatform; id: string };
  same: boolean;
  /** listing: both list the property; neighbour: b is a property beside a's. */
  kind: 'same' | 'neighbour';
}

/**
 * The perceptual hash of a sandbox photo url (images.stays.example/<platform>/<id>/<n>.jpg): the
 * truth's hash for its listings' photos, a hash of the url for any other photo; null for a url
 * that is not a sandbox photo.
 */
function photoHashOf(url: string, baseRow: BaseRow): string | null {
  const m = /^https:\/\/images\.stays\.example\/(airbnb|vrbo|booking|google)\/(.+)\/(\d+)\.jpg$/.exec(url);
  if (!m) return null;
  const platform = m[1] as EnabledPlatform;
  const id = m[2]!.split('/').map(decodeURIComponent).join('/');
  const n = Number(m[3]) - 1;
  if (platform === 'airbnb') return photoHash('airbnb', id, n);
  const found = memberOf(platform, id, baseRow);
  return found?.member.photos[n] ?? photoHash(platform, id, n);
}

/** The listings the truth knows around a listing (its property's and the neighbours'), or [] for one it does not know. */
function groupAround(platform: EnabledPlatform, id: string, baseRow: BaseRow): TruthListing[] {
  const d = decode(platform, id);
  if (d === null) return [];
  const g = groupOf(d.anchor, baseRow);
  if (!g.members.some((m) => m.platform === platform && m.id === id)) return [];
  return g.members.map(({ platform: p, id: i, role }) => ({ platform: p, id: i, role }));
}

/**
 * The truth of the sandbox world's multi-listed properties, for tests and the bench: which
 * listings are the same property, which are neighbours that are not.
 */
export function twinTruth(baseRow: BaseRow) {
  return {
    /** Whether an airbnb id is the airbnb listing of a property listed on other platforms too. */
    isMultiListed: (airbnbId: string): boolean => isAnchor(airbnbId),
    /** The other listings of the same property (any platform), [] when the truth knows none. */
    twins(platform: EnabledPlatform, id: string): { platform: EnabledPlatform; id: string }[] {
      const around = groupAround(platform, id, baseRow);
      const me = around.find((m) => m.platform === platform && m.id === id);
      if (!me || me.role === 'neighbour') return [];
      return around.filter((m) => m.role !== 'neighbour' && !(m.platform === platform && m.id === id)).map(({ platform: p, id: i }) => ({ platform: p, id: i }));
    },
    /** Every listing the truth knows around a listing: the property's (anchor, listing) and its neighbours. */
    around: (platform: EnabledPlatform, id: string): TruthListing[] => groupAround(platform, id, baseRow),
    /** The perceptual hash of a sandbox photo url (photoHashOf). */
    photoHash: (url: string): string | null => photoHashOf(url, baseRow),
    /**
     * The labelled pairs of the properties anchored at these airbnb ids (the multi-listed ones):
     * every pair of the property's listings on different platforms (same), and every listing of the
     * property with every neighbour on another platform (not the same).
     */
    pairs(airbnbIds: readonly string[]): LabelledPair[] {
      const out: LabelledPair[] = [];
      for (const anchor of airbnbIds) {
        if (!isAnchor(anchor)) continue;
        const ms = groupOf(anchor, baseRow).members;
        const own = ms.filter((m) => m.role !== 'neighbour');
        for (let i = 0; i < own.length; i++) {
          for (let j = i + 1; j < own.length; j++) {
            out.push({ a: { platform: own[i]!.platform, id: own[i]!.id }, b: { platform: own[j]!.platform, id: own[j]!.id }, same: true, kind: 'same' });
          }
        }
        for (const o of own) {
          for (const n of ms.filter((m) => m.role === 'neighbour' && m.platform !== o.platform)) {
            out.push({ a: { platform: o.platform, id: o.id }, b: { platform: n.platform, id: n.id }, same: false, kind: 'neighbour' });
          }
        }
      }
      return out;
    },
  };
}
