// The one place where user-supplied listing identifiers (native ids, stays_ ids, pasted URLs) become
// platform-native canonical ids. Caching, billing and the identity echo all key on that id, so every
// form of the same listing must reduce to the same string, and anything we cannot read with
// certainty is refused rather than guessed: a wrong guess would answer for a different property.
import { ServiceError } from './errors.js';
import { type Platform, isPlatform } from './platforms.js';
import { regionName } from './intl.js';

export interface ListingRef {
  platform: Platform;
  /** Platform-native canonical id. */
  id: string;
}

type UrlCode = 'invalid_parameter' | 'invalid_listing_url';

interface Rule {
  /** Matched against URL.hostname, which the URL parser lower-cases. */
  host: RegExp;
  /** What a listingId / a url may be, for messages. */
  idHelp: string;
  urlHelp: string;
  /** A non-URL id; throws invalid_parameter (or needs_country) itself. */
  native(raw: string, opts: { country?: string | undefined; param: string }): string;
  /** The id, or why a URL on the platform's own host names no listing. */
  fromUrl(url: URL): string | { why?: string };
}

const MAX_INPUT = 2048;
// Ids of zero or with leading zeros name no real listing; taking "0123" as 123 would be a guess.
const NUMERIC = /^[1-9][0-9]{0,19}$/;
const BOOKING_SLUG = /^[a-z0-9][a-z0-9-_.]*$/i;
const GOOGLE_TOKEN = /^[A-Za-z0-9_\-:.]{1,200}$/;
// Codes Intl names that are groupings, reserved or private-use rather than countries; booking
// uses gb, never uk.
const NOT_A_COUNTRY = /^(?:AA|OO|Q[M-Z]|X[A-JL-Z]|ZZ|EU|EZ|UN|UK)$/;

/** Any subdomain of <name>.<tld>, where the tld is com, a ccTLD or co./com.<cc> (airbnb.co.uk, google.com.au). */
function hostOf(name: string): RegExp {
  return new RegExp(`^(?:[a-z0-9-]+\\.)*${name}\\.(?:com|[a-z]{2}|(?:co|com)\\.[a-z]{2})$`);
}

function show(input: string): string {
  return JSON.stringify(input.length > 80 ? `${input.slice(0, 80)}…` : input);
}

function invalid(code: UrlCode, param: string, platform: Platform, help: string, input: string, why?: string): never {
  throw new ServiceError(code, `${param} for ${platform} must be ${help}; got ${show(input)}${why ? ` (${why})` : ''}.`, { param });
}

function decoded(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function isCountry(cc: string): boolean {
  const up = cc.toUpperCase();
  return /^[A-Z]{2}$/.test(up) && !NOT_A_COUNTRY.test(up) && regionName(up) !== undefined;
}

function numericId(platform: Platform, help: string, what: string) {
  return (raw: string, opts: { param: string }): string => {
    if (NUMERIC.test(raw)) return raw;
    // Vrbo listing codes (4193579ha, 321.123.456) name a listing in another id space; mapping them to
    // a property id needs a provider lookup this service does not make.
    const code = platform === 'vrbo' && /^(?:\d+ha|\d+(?:\.\d+)+)$/i.test(raw);
    const why = code ? 'a vrbo listing code, not a property id' : /^0\d*$/.test(raw) ? `a ${what} has no leading zeros` : undefined;
    return invalid('invalid_parameter', opts.param, platform, help, raw, why);
  };
}

/** The booking canonical id, checked; null when cc or slug is malformed. */
function bookingId(cc: string, slug: string): string | null {
  return isCountry(cc) && BOOKING_SLUG.test(slug) ? `${cc.toLowerCase()}/${slug}` : null;
}

const AIRBNB_ID_HELP = 'a numeric room id or an airbnb.com/rooms/<id> URL';
const VRBO_ID_HELP = 'a numeric property id (as in search platformListingId) or a vrbo.com URL carrying it, such as https://www.vrbo.com/<id>';
const BOOKING_ID_HELP = 'a {country}/{slug} id such as fr/hotel-le-marais, a bare slug with a country, or a booking.com/hotel/<cc>/<slug>.html URL';
const GOOGLE_ID_HELP = 'a Google Hotels entity id (1 to 200 of A-Z a-z 0-9 _ - : .) or a google.com/travel/hotels/entity/<id> URL';

const RULES = {
  airbnb: {
    host: hostOf('airbnb'),
    idHelp: AIRBNB_ID_HELP,
    urlHelp: 'an airbnb room URL such as https://www.airbnb.com/rooms/<id>',
    native: numericId('airbnb', AIRBNB_ID_HELP, 'room id'),
    fromUrl(url) {
      const m = /^\/rooms\/(?:plus\/)?(\d+)\/?$/.exec(url.pathname);
      return m && NUMERIC.test(m[1]!) ? m[1]! : {};
    },
  },
  vrbo: {
    host: hostOf('vrbo'),
    idHelp: VRBO_ID_HELP,
    urlHelp: 'a vrbo property URL carrying the numeric property id, such as https://www.vrbo.com/<id> or https://www.vrbo.com/en-gb/p<id>',
    native: numericId('vrbo', VRBO_ID_HELP, 'property id'),
    fromUrl(url) {
      // The property id is the last path segment (/4886746, /en-gb/p4886746); earlier segments are
      // locales or categories. A second id-like segment would make the URL ambiguous.
      const segs = url.pathname.split('/').filter((s) => s !== '');
      if (segs.some((s) => /^\d+ha$/i.test(s))) return { why: 'a vrbo listing code, not a property id' };
      const ids = segs.filter((s) => /^p?\d+$/i.test(s));
      const last = segs.at(-1);
      if (last === undefined || ids.length !== 1 || ids[0] !== last) return { why: 'no property id in the path' };
      const id = last.replace(/^p/i, '');
      return NUMERIC.test(id) ? id : {};
    },
  },
  booking: {
    host: /^(?:[a-z0-9-]+\.)*booking\.com$/,
    idHelp: BOOKING_ID_HELP,
    urlHelp: 'a booking.com hotel URL such as https://www.booking.com/hotel/<cc>/<slug>.html',
    native(raw, opts) {
      // A %2F-encoded {cc}/{slug} can arrive undecoded from a path segment.
      const s = raw.replace(/^([a-z]{2})%2f/i, '$1/');
      const cut = s.indexOf('/');
      if (cut >= 0) return bookingId(s.slice(0, cut), s.slice(cut + 1)) ?? invalid('invalid_parameter', opts.param, 'booking', BOOKING_ID_HELP, raw);
      if (!BOOKING_SLUG.test(s)) invalid('invalid_parameter', opts.param, 'booking', BOOKING_ID_HELP, raw);
      const country = opts.country?.trim();
      // Slugs are unique only within a country, so a bare one is refused rather than resolved.
      if (!country)
        throw new ServiceError('needs_country', `The booking slug ${show(s)} is not unique across countries: pass country (ISO-3166 alpha-2) or use a {country}/{slug} id such as fr/${s}.`, {
          param: 'country',
        });
      return bookingId(country, s) ?? invalid('invalid_parameter', 'country', 'booking', 'an ISO-3166 alpha-2 country code such as fr', country);
    },
    fromUrl(url) {
      const m = /^\/hotel\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (!m) return {};
      // slug[.lang].html: the language suffix (.fr, .en-gb) picks a translation, not a property.
      let file = m[2]!;
      if (/\.html$/i.test(file)) file = file.slice(0, -5).replace(/\.[a-z]{2}(?:-[a-z]{2,4})?$/i, '');
      return bookingId(m[1]!, file) ?? {};
    },
  },
  google: {
    host: hostOf('google'),
    idHelp: GOOGLE_ID_HELP,
    urlHelp: 'a Google Hotels URL such as https://www.google.com/travel/hotels/entity/<id>',
    native(raw, opts) {
      return GOOGLE_TOKEN.test(raw) ? raw : invalid('invalid_parameter', opts.param, 'google', GOOGLE_ID_HELP, raw);
    },
    fromUrl(url) {
      // Google also serves /travel/hotels/<place>/entity/<id> and tabs such as /entity/<id>/prices.
      const m = /^\/travel\/hotels\/(?:[^/]+\/)?entity\/([^/]+)(?:\/.*)?$/.exec(url.pathname);
      const token = m && decoded(m[1]!);
      return token && GOOGLE_TOKEN.test(token) ? token : {};
    },
  },
} satisfies Record<string, Rule>;

function ruleFor(platform: Platform): Rule {
  if (platform === 'airbnb' || platform === 'vrbo' || platform === 'booking' || platform === 'google') return RULES[platform];
  throw new ServiceError('platform_not_enabled', `Listing ids are not supported on ${platform}; use airbnb, vrbo, booking or google.`, { param: 'platform' });
}

/** Trimmed input, refusing absent, blank and oversized values. */
function clean(input: unknown, param: string): string {
  if (input === undefined || input === null) throw new ServiceError('missing_parameter', `${param} is required.`, { param });
  if (typeof input !== 'string') throw new ServiceError('invalid_parameter', `${param} must be a string.`, { param });
  const s = input.trim();
  if (s === '') throw new ServiceError('missing_parameter', `${param} is required.`, { param });
  if (s.length > MAX_INPUT) throw new ServiceError('invalid_parameter', `${param} is longer than ${MAX_INPUT} characters.`, { param });
  return s;
}

/**
 * The URL the input denotes, or null when it is not URL-shaped. A scheme-less URL counts only when it
 * starts with one of the platform's own hosts, so that dotted native ids (google tokens) stay ids.
 */
function asUrl(s: string, rule: Rule): URL | 'bad' | null {
  // A URL pasted into a path segment may arrive still percent-encoded.
  let text: string | null = /^https?%3a/i.test(s) ? decoded(s) : s;
  if (text === null) return 'bad';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (!rule.host.test(text.split(/[/?#]/, 1)[0]!.toLowerCase())) return null;
    text = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'bad';
  }
  const plain = (url.protocol === 'https:' || url.protocol === 'http:') && url.port === '' && url.username === '' && url.password === '';
  return plain && rule.host.test(url.hostname) ? url : 'bad';
}

function fromUrl(platform: Platform, rule: Rule, url: URL | 'bad', raw: string, code: UrlCode, param: string): string {
  const help = code === 'invalid_listing_url' ? rule.urlHelp : rule.idHelp;
  if (url === 'bad') return invalid(code, param, platform, help, raw, `not an http(s) URL on a ${platform} site`);
  const got = rule.fromUrl(url);
  return typeof got === 'string' ? got : invalid(code, param, platform, help, raw, got.why);
}

/** On booking, a country given next to an id that already carries one must agree with it. */
function agreeCountry(platform: Platform, id: string, country: string | undefined): string {
  const given = country?.trim();
  if (platform !== 'booking' || !given) return id;
  if (!isCountry(given)) invalid('invalid_parameter', 'country', 'booking', 'an ISO-3166 alpha-2 country code such as fr', given);
  const cc = id.slice(0, 2);
  if (cc !== given.toLowerCase()) {
    throw new ServiceError('invalid_parameter', `country ${show(given)} contradicts the booking id ${show(id)}, which is in ${show(cc)}; drop country or make them agree.`, { param: 'country' });
  }
  return id;
}

/** 'stays_<platform>_<id>' → { platform, id } (id as embedded, unparsed), or null for any other string. */
export function splitStaysId(input: string): ListingRef | null {
  if (typeof input !== 'string') return null;
  const m = /^stays_([a-z]+)_([\s\S]+)$/.exec(input.trim());
  return m && isPlatform(m[1]) ? { platform: m[1], id: m[2]! } : null;
}

/**
 * A listingId (or path id) as the user gave it: native id, stays_<platform>_<id>, or a pasted URL.
 * Returns the canonical native id; throws ServiceError naming opts.param (country/platform where those are at fault).
 */
export function parseListingId(platform: Platform, input: string, opts: { country?: string | undefined; param: string }): string {
  const rule = ruleFor(platform);
  const s = clean(input, opts.param);
  const country = platform === 'booking' ? opts.country : undefined;
  if (s.startsWith('stays_')) {
    const ref = splitStaysId(s);
    if (!ref) throw new ServiceError('invalid_parameter', `${opts.param} ${show(s)} is not a valid stays id: expected stays_<platform>_<id> with a known platform.`, { param: opts.param });
    if (ref.platform !== platform) {
      throw new ServiceError('invalid_parameter', `${opts.param} ${show(s)} is a ${ref.platform} id but platform is ${platform}.`, { param: opts.param });
    }
    // Our own ids always embed the canonical native id, never a URL or another stays id.
    if (ref.id.startsWith('stays_')) invalid('invalid_parameter', opts.param, platform, rule.idHelp, s, 'nested stays id');
    return agreeCountry(platform, rule.native(ref.id, { country, param: opts.param }), country);
  }
  const url = asUrl(s, rule);
  const id = url === null ? rule.native(s, { country, param: opts.param }) : fromUrl(platform, rule, url, s, 'invalid_parameter', opts.param);
  return agreeCountry(platform, id, country);
}

/**
 * The platform a listing reference names by itself: a listing URL (with or without its scheme) by
 * its host, a stays_<platform>_<id> id by its prefix. Null for anything else, such as a bare native
 * id, which needs its platform said. Only which platform: the id is still read by parseListingId
 * (or parseListingUrl) for that platform, so a URL on the platform's site that names no listing is
 * refused there, with the platform's own help.
 */
export function platformOf(input: unknown): Platform | null {
  if (typeof input !== 'string') return null;
  const s = input.trim();
  if (s === '' || s.length > MAX_INPUT) return null;
  const ref = splitStaysId(s);
  if (ref) return ref.platform;
  for (const platform of ['airbnb', 'vrbo', 'booking', 'google'] as const) {
    const url = asUrl(s, RULES[platform]);
    if (url !== null && url !== 'bad') return platform;
  }
  return null;
}

/**
 * A listing named without its platform (`stays listing https://www.airbnb.com/rooms/1`): the
 * platform from platformOf and the canonical id for it; null when the input names no platform.
 */
export function inferListingRef(input: string, opts: { country?: string | undefined; param: string }): ListingRef | null {
  const platform = platformOf(input);
  return platform === null ? null : { platform, id: parseListingId(platform, input, opts) };
}

/** A `url` parameter: must be a recognisable listing URL of the platform, else invalid_listing_url. */
export function parseListingUrl(platform: Platform, url: string, opts: { param: string }): string {
  const rule = ruleFor(platform);
  const s = clean(url, opts.param);
  return fromUrl(platform, rule, asUrl(s, rule) ?? 'bad', s, 'invalid_listing_url', opts.param);
}

const PUBLIC_URL: Record<Platform, (seg: string) => string> = {
  airbnb: (s) => `https://www.airbnb.com/rooms/${s}`,
  vrbo: (s) => `https://www.vrbo.com/${s}`,
  booking: (s) => `https://www.booking.com/hotel/${s}.html`,
  google: (s) => `https://www.google.com/travel/hotels/entity/${s}`,
  expedia: (s) => `https://www.expedia.com/h${s}.Hotel-Information`,
  hotels: (s) => `https://www.hotels.com/ho${s}`,
  tripadvisor: (s) => `https://www.tripadvisor.com/Hotel_Review-d${s}`,
};

/** Canonical public URL of a listing for a native id (sandbox data and the identity echo). */
export function listingUrl(platform: Platform, id: string): string {
  // ':' is legal in a path segment and common in google ids; '/' separates booking's cc and slug.
  return PUBLIC_URL[platform](encodeURIComponent(id).replace(/%3A/gi, ':').replace(/%2F/gi, '/'));
}

export function staysId(platform: Platform, id: string): string {
  return `stays_${platform}_${id}`;
}
