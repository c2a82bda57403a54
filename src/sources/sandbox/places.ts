// Where sandbox properties are: a built-in table of well-known cities (real centres, ISO-3166
// alpha-2 countries), the parsing of a search location into a place, and coordinate scatter.
// Unknown places get a deterministic anchor from the hash; a "lat,lng" pair is used as given.
import { type Rng, hash32, rng } from './prng.js';

/** The language a city's names, streets and many reviews are in ('xx': English patterns, district addresses). */
export type Lang = 'en' | 'pt' | 'es' | 'fr' | 'it' | 'de' | 'nl' | 'xx';

export interface City {
  name: string;
  local: string;
  region: string | null;
  country: string;
  countryName: string;
  lat: number;
  lng: number;
  lang: Lang;
  hoods: readonly string[];
}

type Row = [name: string, local: string | null, region: string | null, cc: string, countryName: string, lat: number, lng: number, lang: Lang, hoods: string];
const ROWS: readonly Row[] = [
  ['Lisbon', 'Lisboa', 'Lisbon', 'PT', 'Portugal', 38.7223, -9.1393, 'pt', 'Alfama|Baixa|Chiado|Bairro Alto|Príncipe Real'],
  ['Porto', null, 'Porto', 'PT', 'Portugal', 41.1579, -8.6291, 'pt', 'Ribeira|Cedofeita|Bonfim|Foz do Douro'],
  ['Paris', null, 'Île-de-France', 'FR', 'France', 48.8566, 2.3522, 'fr', 'Le Marais|Montmartre|Saint-Germain|the Latin Quarter|Canal Saint-Martin'],
  ['London', null, 'England', 'GB', 'United Kingdom', 51.5074, -0.1278, 'en', 'Shoreditch|Covent Garden|Notting Hill|Southwark|Camden'],
  ['New York', null, 'New York', 'US', 'United States', 40.7128, -74.006, 'en', 'SoHo|Williamsburg|Chelsea|the East Village|Harlem'],
  ['Tokyo', null, 'Tokyo', 'JP', 'Japan', 35.6762, 139.6503, 'xx', 'Shinjuku|Shibuya|Asakusa|Ginza'],
  ['Barcelona', null, 'Catalonia', 'ES', 'Spain', 41.3874, 2.1686, 'es', 'El Born|Gràcia|the Gothic Quarter|Eixample|Barceloneta'],
  ['Rome', 'Roma', 'Lazio', 'IT', 'Italy', 41.9028, 12.4964, 'it', 'Trastevere|Monti|Testaccio|Prati'],
  ['Florence', 'Firenze', 'Tuscany', 'IT', 'Italy', 43.7696, 11.2558, 'it', 'Oltrarno|Santa Croce|San Niccolò|San Lorenzo'],
  ['Berlin', null, 'Berlin', 'DE', 'Germany', 52.52, 13.405, 'de', 'Kreuzberg|Mitte|Prenzlauer Berg|Friedrichshain'],
  ['Amsterdam', null, 'North Holland', 'NL', 'Netherlands', 52.3676, 4.9041, 'nl', 'Jordaan|De Pijp|the Canal Ring|Oud-West'],
  ['Madrid', null, 'Community of Madrid', 'ES', 'Spain', 40.4168, -3.7038, 'es', 'Malasaña|La Latina|Salamanca|Chueca'],
  ['Vienna', 'Wien', 'Vienna', 'AT', 'Austria', 48.2082, 16.3738, 'de', 'Innere Stadt|Neubau|Leopoldstadt|Wieden'],
  ['Prague', 'Praha', 'Prague', 'CZ', 'Czechia', 50.0755, 14.4378, 'xx', 'Old Town|Malá Strana|Vinohrady|Žižkov'],
  ['Dubai', null, 'Dubai', 'AE', 'United Arab Emirates', 25.2048, 55.2708, 'xx', 'Dubai Marina|Downtown|Jumeirah|Deira'],
  ['Sydney', null, 'New South Wales', 'AU', 'Australia', -33.8688, 151.2093, 'en', 'Bondi|Surry Hills|The Rocks|Manly'],
  ['Los Angeles', null, 'California', 'US', 'United States', 34.0522, -118.2437, 'en', 'Venice Beach|Silver Lake|Hollywood|Santa Monica'],
  ['San Francisco', null, 'California', 'US', 'United States', 37.7749, -122.4194, 'en', 'the Mission|North Beach|Nob Hill|Hayes Valley'],
  ['Miami', null, 'Florida', 'US', 'United States', 25.7617, -80.1918, 'en', 'South Beach|Brickell|Wynwood|Little Havana'],
  ['Toronto', null, 'Ontario', 'CA', 'Canada', 43.6532, -79.3832, 'en', 'Kensington Market|Yorkville|Queen West|the Distillery District'],
  ['Rio de Janeiro', null, 'Rio de Janeiro', 'BR', 'Brazil', -22.9068, -43.1729, 'pt', 'Copacabana|Ipanema|Leblon|Santa Teresa'],
  ['Mexico City', 'Ciudad de México', 'Mexico City', 'MX', 'Mexico', 19.4326, -99.1332, 'es', 'Roma Norte|Condesa|Coyoacán|Polanco'],
  ['Cartagena', null, 'Bolívar', 'CO', 'Colombia', 10.391, -75.4794, 'es', 'Getsemaní|the Walled City|Bocagrande'],
  ['Istanbul', null, 'Istanbul', 'TR', 'Türkiye', 41.0082, 28.9784, 'xx', 'Beyoğlu|Sultanahmet|Karaköy|Kadıköy'],
  ['Bangkok', null, 'Bangkok', 'TH', 'Thailand', 13.7563, 100.5018, 'xx', 'Sukhumvit|Silom|Ari|Rattanakosin'],
  ['Singapore', null, null, 'SG', 'Singapore', 1.3521, 103.8198, 'en', 'Marina Bay|Chinatown|Tiong Bahru|Kampong Glam'],
  ['Cape Town', null, 'Western Cape', 'ZA', 'South Africa', -33.9249, 18.4241, 'en', 'Camps Bay|Bo-Kaap|Sea Point|De Waterkant'],
  ['Dublin', null, 'Leinster', 'IE', 'Ireland', 53.3498, -6.2603, 'en', 'Temple Bar|Portobello|Smithfield|Ballsbridge'],
  ['Edinburgh', null, 'Scotland', 'GB', 'United Kingdom', 55.9533, -3.1883, 'en', 'Old Town|New Town|Leith|Stockbridge'],
  ['Copenhagen', 'København', 'Capital Region', 'DK', 'Denmark', 55.6761, 12.5683, 'xx', 'Nyhavn|Vesterbro|Nørrebro|Christianshavn'],
  ['Athens', null, 'Attica', 'GR', 'Greece', 37.9838, 23.7275, 'xx', 'Plaka|Koukaki|Monastiraki|Kolonaki'],
  ['Reykjavik', 'Reykjavík', 'Capital Region', 'IS', 'Iceland', 64.1466, -21.9426, 'xx', 'Miðborg|Vesturbær|Laugardalur'],
];

export const CITIES: readonly City[] = ROWS.map(([name, local, region, country, countryName, lat, lng, lang, hoods]) => ({
  name,
  local: local ?? name,
  region,
  country,
  countryName,
  lat,
  lng,
  lang,
  hoods: hoods.split('|'),
}));

const GENERIC_HOODS = ['the old town', 'the centre', 'the waterfront', 'the market district'] as const;

/** Lower case, accents stripped, whitespace collapsed: the key place names are matched on. */
export function placeKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const CITY_ALIASES = new Map<string, City>();
for (const c of CITIES) {
  CITY_ALIASES.set(placeKey(c.name), c);
  CITY_ALIASES.set(placeKey(c.local), c);
}
const EXTRA_CITY_ALIASES: Record<string, string> = {
  nyc: 'New York',
  'new york city': 'New York',
  manhattan: 'New York',
  la: 'Los Angeles',
  sf: 'San Francisco',
  cdmx: 'Mexico City',
  rio: 'Rio de Janeiro',
  oporto: 'Porto',
  roma: 'Rome',
};
for (const [alias, name] of Object.entries(EXTRA_CITY_ALIASES)) {
  const c = CITIES.find((x) => x.name === name);
  if (c) CITY_ALIASES.set(alias, c);
}

const COUNTRY_ALIASES = new Map<string, string>();
for (const c of CITIES) {
  COUNTRY_ALIASES.set(placeKey(c.countryName), c.country);
  COUNTRY_ALIASES.set(c.country.toLowerCase(), c.country);
}
for (const [alias, cc] of Object.entries({
  usa: 'US',
  'united states of america': 'US',
  uk: 'GB',
  england: 'GB',
  scotland: 'GB',
  'great britain': 'GB',
  uae: 'AE',
  'czech republic': 'CZ',
  turkey: 'TR',
  holland: 'NL',
  'the netherlands': 'NL',
})) {
  COUNTRY_ALIASES.set(alias, cc);
}

/** A resolved search location. */
export interface Place {
  city: string;
  /** The name used inside local-style property names ("Lisboa" for Lisbon). */
  local: string;
  region: string | null;
  country: string | null;
  lat: number;
  lng: number;
  lang: Lang;
  hoods: readonly string[];
  /** Scatter radius around (lat, lng) for search rows, in km. */
  radiusKm: number;
  /** The town street addresses name, or null when the place is too vague for an address. */
  addressCity: string | null;
  /** The built-in city this place is (its index in CITIES), or null for any other place. */
  cityIndex: number | null;
}

export function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s\-'])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase());
}

/** cos of an angle in degrees by its Taylor series: pure arithmetic, identical on every machine. */
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

const KM_PER_DEG = 111.32;

/**
 * How far a typed "lat,lng" is from a built-in city, by the world's own arithmetic (cosDeg, 111.32
 * km a degree): not core/analytics/geometry.ts's distanceMeters, whose sphere and formula would
 * name another city or country for about 1 in 1,300 coordinates near a city, and the sandbox world
 * answers the same for the same string.
 */
function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dy = lat1 - lat2;
  const dx = (lng1 - lng2) * cosDeg((lat1 + lat2) / 2);
  return KM_PER_DEG * Math.sqrt(dx * dx + dy * dy);
}

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

/** A point uniformly inside a disk of radius km (rejection sampling: no trigonometry). */
export function scatter(r: Rng, lat: number, lng: number, km: number, minKm = 0): { lat: number; lng: number } {
  for (let i = 0; i < 64; i++) {
    const dx = r.range(-1, 1);
    const dy = r.range(-1, 1);
    const d2 = dx * dx + dy * dy;
    if (d2 > 1 || d2 * km * km < minKm * minKm) continue;
    const la = lat + (dy * km) / KM_PER_DEG;
    const lo = lng + (dx * km) / (KM_PER_DEG * Math.max(0.05, cosDeg(lat)));
    return { lat: round5(Math.max(-89.9, Math.min(89.9, la))), lng: round5(((lo + 540) % 360) - 180) };
  }
  return { lat: round5(lat), lng: round5(lng) };
}

function fromCity(c: City): Place {
  return { city: c.name, local: c.local, region: c.region, country: c.country, lat: c.lat, lng: c.lng, lang: c.lang, hoods: c.hoods, radiusKm: 5, addressCity: c.name, cityIndex: CITIES.indexOf(c) };
}

/** A coordinate to two decimals, without a "-0.00". */
const coord = (x: number) => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);

const COORDS = /^(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/;

const US_STATES = new Set('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(' '));

/** Parses a free-text search location into a place. Pure: same string, same place. */
export function resolvePlace(location: string): Place {
  const text = location.trim().replace(/\s+/g, ' ');
  const m = COORDS.exec(text);
  if (m) {
    const lat = Number(m[1]);
    const lng = Number(m[2]);
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
      let near: City | null = null;
      let best = Infinity;
      for (const c of CITIES) {
        const d = distanceKm(lat, lng, c.lat, c.lng);
        if (d < best) [near, best] = [c, d];
      }
      // Hotels near a point are named after the nearest big city; addresses only within its reach.
      const inCountry = near !== null && best < 250;
      const close = near !== null && best < 60;
      // The place reads like one: the city within its reach, else the point itself in words.
      return {
        city: close ? near!.name : `near ${coord(lat)}, ${coord(lng)}`,
        local: inCountry ? near!.local : 'Grand',
        region: close ? near!.region : null,
        country: inCountry ? near!.country : null,
        lat,
        lng,
        lang: inCountry ? near!.lang : 'en',
        hoods: near !== null && best < 15 ? near.hoods : GENERIC_HOODS,
        radiusKm: 3,
        addressCity: close ? near!.name : null,
        cityIndex: null,
      };
    }
  }
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const head = parts[0] ?? 'Somewhere';
  const known = CITY_ALIASES.get(placeKey(head));
  if (known) return fromCity(known);
  const headCountry = COUNTRY_ALIASES.get(placeKey(head));
  if (headCountry && parts.length === 1) {
    const inCountry = CITIES.filter((c) => c.country === headCountry);
    return fromCity(inCountry[hash32('country-city', placeKey(text)) % inCountry.length]!);
  }
  // An unknown place: a country from the text when it names one, else from the hash; coordinates
  // 20–150 km from an anchor city of that country.
  let country: string | null = null;
  let region: string | null = null;
  for (const p of parts.slice(1)) {
    const cc = COUNTRY_ALIASES.get(placeKey(p));
    if (cc) country = cc;
    else {
      if (US_STATES.has(p.toUpperCase())) country ??= 'US';
      region ??= p.length <= 3 ? p.toUpperCase() : titleCase(p);
    }
  }
  const pool = country ? CITIES.filter((c) => c.country === country) : CITIES;
  const r = rng('unknown-place', placeKey(text));
  const anchor = r.pick(pool);
  const at = scatter(r, anchor.lat, anchor.lng, 150, 20);
  const city = titleCase(head);
  return { city, local: city, region, country: anchor.country, lat: at.lat, lng: at.lng, lang: anchor.lang, hoods: GENERIC_HOODS, radiusKm: 5, addressCity: city, cityIndex: null };
}

/**
 * The place code of an airbnb, vrbo or google id: a built-in city's index, or NOWHERE. A search at
 * a built-in city lists only ids of its code, so the id alone says where the listing is (issue 22,
 * item 6: one id is one property wherever it is read). Any other id decodes too, to a city or to
 * nowhere, so every valid id keeps a listing.
 */
export const NOWHERE = CITIES.length;

/** The alphabet of google ids' characters (core.ts nativeId); the last one's index carries the code. */
export const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The code is written into the id, so a search draws its ids straight away (a hash would have to
 * be drawn until it matched, ~33 tries an id: most of a cold search's time). A numeric id (airbnb,
 * vrbo) is its code modulo CITIES.length + 1; a google id's last character is ID_ALPHABET[code].
 * An id written another way (a user's) still decodes, by hash.
 */
function placeCode(platform: string, id: string): number {
  const k = CITIES.length + 1;
  if ((platform === 'airbnb' || platform === 'vrbo') && /^\d{1,15}$/.test(id)) return Number(id) % k;
  if (platform === 'google') {
    const last = ID_ALPHABET.indexOf(id.slice(-1));
    if (last >= 0 && last < k) return last;
  }
  return hash32('listing-place', platform, id) % k;
}

/**
 * Where a listing is when all we know is its id: a booking id's slug names its city (within the
 * id's country; a slug naming none has one of the country's by hash, or none), other ids carry a
 * place code. null: the id says nowhere (a listing found at a
 * place outside the built-in table, whose detail then states no city).
 */
export function placeForListing(platform: string, id: string): Place | null {
  if (platform === 'booking') {
    const at = id.lastIndexOf('/');
    const cc = at > 0 ? id.slice(0, at).split('/').pop()!.toUpperCase() : null;
    const slug = `-${id.slice(at + 1).toLowerCase()}-`;
    const inCountry = cc ? CITIES.filter((c) => c.country === cc) : CITIES;
    const named = inCountry.find((c) => citySlugParts(c).some((part) => slug.includes(part)));
    if (named) return fromCity(named);
    // A slug that names no city: one of its country's, or nowhere, by the id's hash.
    const code = hash32('listing-place', platform, id) % (inCountry.length + 1);
    return code < inCountry.length ? fromCity(inCountry[code]!) : null;
  }
  const code = placeCode(platform, id);
  return code === NOWHERE ? null : fromCity(CITIES[code]!);
}

/** The place a title is written for when the id says nowhere: generic areas, no town. */
export const PLACELESS: Place = {
  city: '',
  local: '',
  region: null,
  country: null,
  lat: 0,
  lng: 0,
  lang: 'en',
  hoods: GENERIC_HOODS,
  radiusKm: 5,
  addressCity: null,
  cityIndex: null,
};

const CITY_SLUG_PARTS = new Map<City, [string, string]>();
/** `-name-` and `-local-` of a built-in city as a booking slug spells them, computed once. */
function citySlugParts(c: City): [string, string] {
  let parts = CITY_SLUG_PARTS.get(c);
  if (parts === undefined) CITY_SLUG_PARTS.set(c, (parts = [`-${slugPart(c.name)}-`, `-${slugPart(c.local)}-`]));
  return parts;
}

function slugPart(s: string): string {
  return placeKey(s)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const STREETS: Partial<Record<Lang, readonly string[]>> = {
  pt: ['Rua Augusta', 'Rua das Flores', 'Avenida da Liberdade', 'Rua do Almada', 'Travessa do Carmo', 'Rua da Rosa'],
  es: ['Calle Mayor', 'Calle de Alcalá', 'Calle del Carmen', 'Paseo del Prado', 'Calle de Atocha', 'Calle Real'],
  fr: ['Rue de Rivoli', 'Rue du Bac', 'Boulevard Voltaire', 'Rue Oberkampf', "Avenue de l'Opéra", 'Rue des Martyrs'],
  it: ['Via del Corso', 'Via Garibaldi', 'Via dei Coronari', 'Via Nazionale', 'Via Cavour', 'Via della Scala'],
  de: ['Hauptstraße', 'Friedrichstraße', 'Bergmannstraße', 'Kastanienallee', 'Lindenstraße', 'Mariahilfer Straße'],
  nl: ['Prinsengracht', 'Herengracht', 'Utrechtsestraat', 'Haarlemmerstraat', 'Keizersgracht', 'Overtoom'],
  en: ['King Street', 'Market Street', 'Church Street', 'Station Road', 'Victoria Street', 'Bridge Road', 'Park Avenue'],
};

/** A street address in the local style, a district-level one where the table has no streets, or null. */
export function addressFor(r: Rng, place: Place): string | null {
  const streets = STREETS[place.lang];
  const n = r.int(1, 240);
  const town = place.addressCity;
  if (town === null) return null;
  if (!streets) return `${titleCase(r.pick(place.hoods))}, ${town}`;
  const street = r.pick(streets);
  const line = place.lang === 'en' || place.lang === 'fr' ? `${n} ${street}` : `${street} ${n}`;
  return `${line}, ${town}`;
}
