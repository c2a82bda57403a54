// Our parameters → each actor's INPUT (research §2: the inputs seen in the Store pages and in
// callers). Keyed by platform and need; the defaults' conventions apply to any actor configured
// for that platform and need (`stays doctor` checks an actor's input schema accepts them).
// Airbnb ids go out as strings or room URLs, never as numbers beyond 2^53 (19-digit ids).
import { listingUrl } from '../../core/listing-ref.js';
import type { EnabledPlatform } from '../../core/platforms.js';
import type { GoogleCompareQuery, Need, SearchArea, StayQuery } from '../../core/upstream.js';

export type Ask =
  | { need: 'search'; location: string; currency: string; rooms: number; stay?: StayQuery | undefined; area?: SearchArea | undefined }
  | { need: 'listing'; id: string; currency: string }
  | { need: 'price'; id: string; stay: StayQuery }
  | { need: 'availability'; id: string; startDate: string; endDate: string }
  | { need: 'reviews'; id: string }
  | { need: 'compare'; query: GoogleCompareQuery; stay: StayQuery };

/** How many rows a search asks for (the executor filters and pages them). */
const SEARCH_ROWS = 50;
const REVIEW_ROWS = 100;

const url = (p: EnabledPlatform, id: string) => [{ url: listingUrl(p, id) }];

function months(startDate: string, endDate: string): number {
  const a = new Date(`${startDate}T00:00:00Z`);
  const b = new Date(`${endDate}T00:00:00Z`);
  return Math.max(1, (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1);
}

/**
 * An airbnb search-results URL for a map area: the bounds airbnb's own map search puts in its
 * URL (ne_lat, ne_lng, sw_lat, sw_lng with search_by_map), its price filter and the stay.
 */
export function airbnbMapUrl(area: SearchArea, stay: StayQuery | undefined, currency: string): string {
  const b = area.bbox;
  const q = new URLSearchParams({ search_by_map: 'true', ne_lat: String(b.north), ne_lng: String(b.east), sw_lat: String(b.south), sw_lng: String(b.west), currency });
  if (area.priceMin !== undefined) q.set('price_min', String(Math.floor(area.priceMin)));
  if (area.priceMax !== undefined) q.set('price_max', String(Math.ceil(area.priceMax)));
  if (stay) {
    q.set('checkin', stay.checkIn);
    q.set('checkout', stay.checkOut);
    q.set('adults', String(stay.adults));
  }
  return `https://www.airbnb.com/s/homes?${q.toString()}`;
}

function airbnb(a: Ask): Record<string, unknown> {
  const dated = (s: StayQuery | undefined) => (s ? { checkIn: s.checkIn, checkOut: s.checkOut, adults: s.adults, children: s.children, currency: s.currency } : {});
  switch (a.need) {
    case 'search':
      // A map search is a search URL with the map's bounds (issue 38): startUrls, and never
      // locationQueries beside it, as both at once fail the run (research 2.1 #9).
      if (a.area) return { startUrls: [{ url: airbnbMapUrl(a.area, a.stay, a.currency) }], locale: 'en-US', currency: a.currency, maxItems: SEARCH_ROWS, ...dated(a.stay) };
      return { locationQueries: [a.location], locale: 'en-US', currency: a.currency, maxItems: SEARCH_ROWS, ...dated(a.stay) };
    case 'listing':
      return { startUrls: url('airbnb', a.id), locale: 'en-US', currency: a.currency };
    case 'price':
      return { startUrls: url('airbnb', a.id), locale: 'en-US', ...dated(a.stay) };
    case 'availability': {
      // rigelbytes takes a number; beyond 2^53 it would lose digits, so the id stays a string.
      const n = Number(a.id);
      return { listingId: Number.isSafeInteger(n) ? n : a.id, calendarMonths: months(a.startDate, a.endDate), startUrls: url('airbnb', a.id) };
    }
    case 'reviews':
      return { startUrls: url('airbnb', a.id), maxReviews: REVIEW_ROWS, sortBy: 'most-recent' };
    case 'compare':
      return {};
  }
}

function booking(a: Ask): Record<string, unknown> {
  const dated = (s: StayQuery | undefined) => (s ? { checkIn: s.checkIn, checkOut: s.checkOut, adults: s.adults, children: s.children, currency: s.currency } : {});
  switch (a.need) {
    case 'search':
      return { search: a.location, maxItems: SEARCH_ROWS, currency: a.currency, language: 'en-gb', rooms: a.rooms, ...dated(a.stay) };
    case 'listing':
      return { startUrls: url('booking', a.id), currency: a.currency, language: 'en-gb' };
    case 'price':
      return { startUrls: url('booking', a.id), language: 'en-gb', rooms: 1, ...dated(a.stay) };
    case 'availability':
      return { startUrls: url('booking', a.id), startDate: a.startDate, endDate: a.endDate };
    case 'reviews':
      return { startUrls: url('booking', a.id), maxReviewsPerHotel: REVIEW_ROWS };
    case 'compare':
      return {};
  }
}

function vrbo(a: Ask): Record<string, unknown> {
  const detail = { 'includes:description': true, 'includes:amenities': true, 'includes:gallery': '2', 'includes:location': true, 'includes:review': true };
  const dated = (s: StayQuery | undefined) => (s ? { check_in: s.checkIn, check_out: s.checkOut, 'adults:0': s.adults, currency: s.currency } : {});
  switch (a.need) {
    case 'search':
      return { location: [a.location], limit: SEARCH_ROWS, currency: a.currency, ...dated(a.stay) };
    case 'listing':
      return { location: [a.id], limit: 1, currency: a.currency, ...detail };
    case 'price':
      return { location: [a.id], limit: 1, ...dated(a.stay) };
    case 'availability':
      // The author's spelling of the flag (research 2.6 #1).
      return { location: [a.id], limit: 1, 'includes:availabily': true, check_in: a.startDate, check_out: a.endDate };
    case 'reviews':
      return { searchUrl: listingUrl('vrbo', a.id) };
    case 'compare':
      return {};
  }
}

function google(a: Ask): Record<string, unknown> {
  const dated = (s: StayQuery) => ({ checkInDate: s.checkIn, checkOutDate: s.checkOut, numberOfAdults: s.adults, numberOfChildren: s.children, currencyCode: s.currency });
  switch (a.need) {
    case 'search':
      return { searchQuery: a.location, maxResults: SEARCH_ROWS, ...(a.stay ? dated(a.stay) : { currencyCode: a.currency }) };
    case 'listing':
      return { startUrls: url('google', a.id), maxResults: 1, currencyCode: a.currency };
    case 'price':
      return { startUrls: url('google', a.id), maxResults: 1, ...dated(a.stay) };
    case 'availability':
      return { startUrls: url('google', a.id), startDate: a.startDate, endDate: a.endDate };
    case 'reviews':
      return {};
    case 'compare': {
      const q = a.query;
      const text = [q.name, q.location].filter(Boolean).join(', ');
      return { ...(q.googleHotelId ? { startUrls: url('google', q.googleHotelId) } : { searchQuery: text }), maxResults: 1, ...dated(a.stay) };
    }
  }
}

const BY_PLATFORM: Record<EnabledPlatform, (a: Ask) => Record<string, unknown>> = { airbnb, booking, vrbo, google };

export function inputFor(platform: EnabledPlatform, ask: Ask): Record<string, unknown> {
  return BY_PLATFORM[platform](ask);
}

/** A representative ask per need, for `stays doctor` to check an actor's input schema against. */
export function sampleAsk(need: Need): Ask {
  const stay: StayQuery = { checkIn: '2027-01-10', checkOut: '2027-01-12', adults: 2, children: 0, childAges: [], currency: 'USD' };
  switch (need) {
    case 'search':
      return { need, location: 'Lisbon', currency: 'USD', rooms: 1, stay };
    case 'listing':
      return { need, id: '1', currency: 'USD' };
    case 'price':
      return { need, id: '1', stay };
    case 'availability':
      return { need, id: '1', startDate: '2027-01-01', endDate: '2027-02-01' };
    case 'reviews':
      return { need, id: '1' };
    case 'compare':
      return { need, query: { name: 'Hotel', location: 'Lisbon' }, stay };
  }
}
