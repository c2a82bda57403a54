// Property and host names in each platform's style: hotel names on booking and google
// ("Hotel Aurora Lisboa", "Casa do Rio Suites"), listing titles on airbnb ("Sunny 2BR loft near
// Alfama") and vrbo ("Spacious 3-Bedroom Villa with Private Pool"). Booking slugs come from these
// names, and a slug's keywords give the property type back (inferTypeFromSlug).
import type { Amenity, PropertyType } from '../../core/schemas/resources.js';
import type { Lang, Place } from './places.js';
import { titleCase } from './places.js';
import { type Rng, hash32 } from './prng.js';

export function slugify(s: string, max = 60): string {
  const slug = s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = slug.slice(0, max).replace(/-+$/, '');
  return cut.length > 0 ? cut : `property-${hash32('slug', s).toString(36)}`;
}

const WORDS = [
  'Aurora',
  'Meridian',
  'Belvedere',
  'Harbour',
  'Lumen',
  'Solstice',
  'Riverside',
  'Marquis',
  'Lighthouse',
  'Orchard',
  'Parkview',
  'Bellevue',
  'Azure',
  'Sterling',
  'Regent',
  'Alma',
  'Vista',
  'Terrace',
  'Cloister',
  'Crown',
  'Monarch',
  'Pearl',
  'Ivy',
  'Cobalt',
  'Amber',
  'Linden',
  'Saffron',
  'Juniper',
  'Beacon',
  'Halcyon',
  'Oriel',
  'Sable',
] as const;
const BRANDS = ['Novara', 'Stayford', 'Meridia', 'Quintal', 'Hollis', 'Avena', 'Corvin', 'Lisle'] as const;

const LOCAL_PHRASES: Partial<Record<Lang, readonly string[]>> = {
  pt: ['Casa do Rio', 'Solar das Laranjeiras', 'Pátio das Artes', 'Casa da Ribeira', 'Largo do Carmo', 'Quinta das Flores'],
  es: ['Casa del Mar', 'Palacio de la Luz', 'Jardín del Sol', 'Casa Alegría', 'Plaza Mayor', 'Los Naranjos'],
  fr: ['Maison Lumière', 'Le Petit Jardin', 'Les Tilleuls', 'Le Clos Doré', 'Maison des Arts', 'Le Relais Saint-Paul'],
  it: ['Palazzo Verde', 'Casa Serena', 'Corte dei Fiori', 'Palazzo Lumina', 'Il Chiostro', 'Casa Mia'],
  de: ['Haus am See', 'Zum Goldenen Hirsch', 'Lindenhof', 'Altstadt Haus', 'Am Stadtpark', 'Sonnenhof'],
  nl: ['Het Grachtenhuis', 'De Gouden Leeuw', 'Het Pakhuis', 'De Zwaan', 'Het Koetshuis', 'De Lindeboom'],
};

/**
 * Slug keywords of each type, checked in this order. Generated names always carry exactly one
 * keyword of their type, and no other name part may contain any keyword.
 */
const TYPE_KEYWORDS: readonly (readonly [PropertyType, readonly string[]])[] = [
  ['apartment', ['apartments', 'apartment', 'residence', 'studios', 'lofts']],
  ['villa', ['villa', 'villas']],
  ['cottage', ['cottage', 'cottages', 'cabin']],
  ['other', ['guesthouse', 'hostel', 'b']],
  ['house', ['home', 'house', 'townhouse']],
  ['hotel', ['hotel', 'suites', 'inn', 'palace', 'resort']],
];

export function inferTypeFromSlug(slug: string): PropertyType | null {
  const tokens = new Set(slug.toLowerCase().split(/[^a-z0-9]+/));
  for (const [type, words] of TYPE_KEYWORDS) if (words.some((w) => tokens.has(w))) return type;
  return null;
}

/** A hotel-style name (booking, google): the type's keyword is always present. */
export function hotelStyleName(r: Rng, type: PropertyType, place: Place | null): string {
  const word = r.pick(WORDS);
  const city = place?.local ?? r.pick(BRANDS);
  const hood = place ? titleCase(r.pick(place.hoods)).replace(/^The /, '') : word;
  const local = place ? LOCAL_PHRASES[place.lang] : undefined;
  const phrase = local ? r.pick(local) : `The ${word}`;
  switch (type) {
    case 'hotel':
      return r.weighted<() => string>([
        [() => `Hotel ${word} ${city}`, 3],
        [() => `${phrase} ${r.pick(['Suites', 'Boutique Hotel', 'Hotel'])}`, 3],
        [() => `The ${word} ${r.pick(['Hotel', 'Inn'])}`, 2],
        [() => `${word} ${city} Hotel & Spa`, 1],
        [() => `${r.pick(BRANDS)} Hotel ${city} ${hood}`, 2],
      ])();
    case 'apartment':
      return r.weighted<() => string>([
        [() => `${word} ${r.pick(['Apartments', 'Residence', 'Studios'])}`, 2],
        [() => `${hood} ${r.pick(['Apartments', 'Lofts'])}`, 2],
        [() => `${phrase} Apartments`, 1],
      ])();
    case 'villa':
      return r.weighted<() => string>([
        [() => `Villa ${word}`, 2],
        [() => `Villa ${word} ${city}`, 1],
      ])();
    case 'cottage':
      return `${word} Cottage`;
    case 'house':
      return `${word} Holiday Home`;
    default:
      return r.weighted<() => string>([
        [() => `${word} Guesthouse`, 2],
        [() => `${hood} Hostel`, 1],
        [() => `${phrase} B&B`, 1],
      ])();
  }
}

const ADJ = ['Sunny', 'Bright', 'Cosy', 'Charming', 'Stylish', 'Spacious', 'Quiet', 'Modern', 'Lovely', 'Airy', 'Renovated', 'Peaceful'] as const;
const NOUNS: Record<PropertyType, readonly string[]> = {
  apartment: ['apartment', 'flat', 'loft'],
  house: ['house', 'townhouse', 'family home'],
  villa: ['villa'],
  cottage: ['cottage', 'cabin'],
  hotel: ['room'],
  other: ['guesthouse room', 'tiny house', 'houseboat'],
};
const FEATURES: readonly (readonly [Amenity, string])[] = [
  ['pool', 'private pool'],
  ['hot_tub', 'hot tub'],
  ['sea_view', 'sea view'],
  ['beachfront', 'beach access'],
  ['balcony', 'balcony'],
  ['garden', 'garden'],
  ['fireplace', 'fireplace'],
  ['bbq', 'BBQ terrace'],
  ['workspace', 'fast Wi-Fi & workspace'],
  ['parking_free', 'free parking'],
];

export interface HomeFacts {
  type: PropertyType;
  bedrooms: number | null;
  amenities: readonly Amenity[];
}

function feature(r: Rng, amenities: readonly Amenity[]): string | null {
  const have = FEATURES.filter(([a]) => amenities.includes(a));
  return have.length > 0 ? r.pick(have)[1] : null;
}

/** An airbnb-style title: sentence case, casual, bedroom shorthand. */
export function airbnbTitle(r: Rng, home: HomeFacts, place: Place): string {
  const adj = r.pick(ADJ);
  const hood = r.pick(place.hoods);
  const beds = home.bedrooms ?? 1;
  const feat = feature(r, home.amenities);
  if (home.type === 'apartment' && beds === 0) return `${adj} studio ${r.pick(['near', 'in'])} ${hood}`;
  const noun = r.pick(NOUNS[home.type]);
  return r.weighted<() => string>([
    [() => `${adj} ${beds}BR ${noun} near ${hood}`, 3],
    [() => `${adj} ${noun} in ${hood}`, 2],
    [() => (feat ? `${adj} ${noun} with ${feat}` : `${adj} ${noun} close to ${hood}`), 2],
    [() => `${titleCase(noun)} in the heart of ${hood === place.city ? place.city : hood}`, 1],
  ])();
}

/** A vrbo-style headline: Title Case, bedrooms spelled out, a feature or a place. */
export function vrboTitle(r: Rng, home: HomeFacts, place: Place): string {
  const adj = r.pick(ADJ);
  const noun = titleCase(r.pick(NOUNS[home.type]));
  const beds = home.bedrooms ?? 1;
  const feat = feature(r, home.amenities);
  const size = beds === 0 ? 'Studio' : `${beds}-Bedroom`;
  return r.weighted<() => string>([
    [() => `${adj} ${size} ${noun}${feat ? ` with ${titleCase(feat)}` : ''}`, 3],
    [() => `${r.pick(WORDS)} ${noun} | ${feat ? titleCase(feat) : `${size}`} | Near ${titleCase(r.pick(place.hoods))}`, 2],
    // A point far from every city has no town to be in (addressCity null): its area, then.
    [() => `${adj} ${noun} in ${place.addressCity ?? r.pick(place.hoods)}`, 1],
  ])();
}

const FIRST_NAMES = [
  'Ana',
  'Marta',
  'João',
  'Sophie',
  'Luca',
  'Elena',
  'James',
  'Emily',
  'Daniel',
  'Sara',
  'Miguel',
  'Hannah',
  'Pierre',
  'Claire',
  'Jonas',
  'Lena',
  'Carlos',
  'Lucía',
  'Tom',
  'Olivia',
  'Kenji',
  'Yuki',
  'Omar',
  'Nadia',
] as const;
const MANAGERS = [
  'Sunset Stays Co.',
  'Harbor Lane Rentals',
  'Blue Door Holiday Homes',
  'Oak & Ivy Property Management',
  'Seaside Vacation Rentals',
  'Old Town Hosting',
  'Keystone Holiday Lets',
  'Northlight Rentals',
] as const;
const INITIALS = 'ABCDEFGHJKLMNPRSTVW';

export function hostName(r: Rng, platform: 'airbnb' | 'vrbo'): string {
  if (platform === 'vrbo') {
    if (r.chance(0.4)) return r.pick(MANAGERS);
    return `${r.pick(FIRST_NAMES)} ${INITIALS.charAt(r.int(0, INITIALS.length - 1))}.`;
  }
  return r.chance(0.12) ? `${r.pick(FIRST_NAMES)} & ${r.pick(FIRST_NAMES)}` : r.pick(FIRST_NAMES);
}

const PARTICLES = new Set(['do', 'da', 'das', 'dos', 'de', 'del', 'la', 'le', 'les', 'des', 'di', 'dei', 'am', 'zum']);

/** A booking slug's words, title-cased: the listing name when only the id is known. */
export function nameFromSlug(slug: string): string | null {
  if (!/[a-z]{3}/i.test(slug)) return null;
  const words = slug
    .split(/[-_]+/)
    .filter((w) => w.length > 0)
    .map((w) => (w === 'b' ? 'B' : w));
  const name = titleCase(words.join(' '))
    .replace(/\bB B\b/, 'B&B')
    .split(' ')
    .map((w, i) => (i > 0 && PARTICLES.has(w.toLowerCase()) ? w.toLowerCase() : w))
    .join(' ');
  return name.length > 0 ? name : null;
}
