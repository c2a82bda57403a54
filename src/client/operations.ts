// Each API operation as a call descriptor: method, path and query, named as the API names them.
// The typed client methods and the CLI commands build their requests here, so the two never drift.
import type { AvailabilityInput, ListingInput, PriceCompareInput, PriceInput, ReviewsInput, SearchInput } from '../core/schemas/params.js';
import type { JobsListInput } from '../core/schemas/jobs.js';
import type { HistoryAvailabilityInput, HistoryBookingsInput, HistoryListingsInput, HistoryObservationsInput, HistoryPriceInput } from '../core/schemas/history.js';
import type { MarketInput } from '../core/schemas/market.js';
import type { SSearchInput, StayPart } from '../core/schemas/stays.js';
import type { ApiCall } from './http.js';
import type { QueryValue } from './types.js';

/** An operation's parameters as the caller writes them: every field optional (the service validates). */
type Params<T> = { [K in keyof T]?: T[K] | QueryValue };

export type SearchParams = Params<SearchInput>;
export type ReviewsParams = Params<ReviewsInput>;
export type PriceParams = Params<PriceInput>;
export type CompareParams = Params<PriceCompareInput>;
export type AvailabilityParams = Params<AvailabilityInput>;
export type ListingParams = Params<Omit<ListingInput, 'platform' | 'id'>>;
export type JobsListParams = Params<JobsListInput>;
export type HistoryPriceParams = Params<HistoryPriceInput>;
export type HistoryAvailabilityParams = Params<HistoryAvailabilityInput>;
export type HistoryListingsParams = Params<HistoryListingsInput>;
export type HistoryObservationsParams = Params<HistoryObservationsInput>;
export type HistoryBookingsParams = Params<HistoryBookingsInput>;

/** POST /v1/watches: the call (its endpoint's query parameters), the rules, the interval (src/core/schemas/watches.ts). */
export interface WatchCreateBody {
  name?: string;
  call: { type: 'price' | 'availability' | 'search' | string; params: Record<string, unknown> };
  rules: { type: string; amount?: number | string; percent?: number | string; field?: string }[];
  intervalMinutes?: number | string;
  maxCreditsPerDay?: number | string | null;
}
/** GET /v1/matches (issue 27): the listing whose property is looked for on other platforms. */
export interface MatchesParams {
  platform?: string;
  listingId?: string;
  country?: string;
  platforms?: string | string[];
  threshold?: number | string;
}
/** POST /v1/matches/decisions: two platform:listingId refs on different platforms, pinned or rejected. */
export interface MatchDecisionParams {
  listing: string;
  match: string;
}
export interface WatchListParams {
  limit?: number | string;
  cursor?: string;
}
export interface WebhookCreateParams {
  url: string;
  events: string[] | string;
  description?: string | null;
}

/** Family S search body (POST /v1/search and its forms): camelCase keys, every field optional. */
export type StaySearchBody = Params<Omit<SSearchInput, 'locationQueries' | 'searchUrls'>> & { locationQueries?: string[]; searchUrls?: string[] };
/** One entry of POST /v1/stays/batch: an airbnb id or a room URL. */
export type StayBatchEntry = { id: string } | { url: string };
/** The presets of /v1/listings/{preset}. */
const STAY_PRESETS = ['superhost', 'luxury', 'instant-book'] as const;
export type StayPreset = (typeof STAY_PRESETS)[number];

/** A room URL (not an id): http(s)://… */
export const isStayUrl = (s: string) => /^https?:\/\//i.test(s.trim());

const get = (path: string, query: object = {}): ApiCall => ({ method: 'GET', path, query: query as ApiCall['query'] });
const seg = (s: string) => encodeURIComponent(s);
const post = (path: string, body: unknown): ApiCall => ({ method: 'POST', path, body });

/** The optional stay of a Family S lookup: with both dates, pricing is quoted. */
export interface StayDates {
  checkIn?: string;
  checkOut?: string;
  adults?: number | string;
  children?: number | string;
  childAges?: string | number[];
  currency?: string;
}

export const operations = {
  search: (p: SearchParams) => get('/v1/search', p),
  reviews: (p: ReviewsParams) => get('/v1/reviews', p),
  price: (p: PriceParams) => get('/v1/price', p),
  compare: (p: CompareParams) => get('/v1/price-compare', p),
  availability: (p: AvailabilityParams) => get('/v1/availability', p),
  listing: (platform: string, id: string, p: ListingParams = {}) => get(`/v1/listing/${seg(platform)}/${seg(id)}`, p),
  account: () => get('/v1/account'),
  // History (issue 26): what the deployment observed; free, cursor-paged.
  historyPrice: (p: HistoryPriceParams) => get('/v1/history/price', p),
  historyAvailability: (p: HistoryAvailabilityParams) => get('/v1/history/availability', p),
  historyListings: (p: HistoryListingsParams) => get('/v1/history/listings', p),
  historyObservations: (p: HistoryObservationsParams) => get('/v1/history/observations', p),
  // Booking inference (issue 27): free, one answer.
  historyBookings: (p: HistoryBookingsParams) => get('/v1/history/bookings', p),
  // Market metrics and comp sets (issue 27): free reads of the deployment's observations.
  market: (p: MarketInput) => get('/v1/market', p),
  compSetCreate: (body: Record<string, unknown>) => post('/v1/compsets', body),
  compSets: () => get('/v1/compsets'),
  compSet: (id: string) => get(`/v1/compsets/${seg(id)}`),
  compSetDelete: (id: string): ApiCall => ({ method: 'DELETE', path: `/v1/compsets/${seg(id)}` }),
  collectionCreate: (body: Record<string, unknown>) => post('/v1/collections', body),
  collections: () => get('/v1/collections'),
  collection: (id: string) => get(`/v1/collections/${seg(id)}`),
  collectionUpdate: (id: string, body: Record<string, unknown>): ApiCall => ({ method: 'PATCH', path: `/v1/collections/${seg(id)}`, body }),
  collectionDelete: (id: string): ApiCall => ({ method: 'DELETE', path: `/v1/collections/${seg(id)}` }),
  collectionRun: (body: Record<string, unknown>) => post('/v1/collections/run', body),
  job: (jobId: string) => get(`/v1/jobs/${seg(jobId)}`),
  jobs: (p: JobsListParams = {}) => get('/v1/jobs', p),
  /** DELETE /v1/jobs/{jobId}: a pending or running job ends failed (job_canceled), nothing charged. */
  jobCancel: (jobId: string): ApiCall => ({ method: 'DELETE', path: `/v1/jobs/${seg(jobId)}` }),
  // Webhooks (Family S): `{ data, request_id }` bodies.
  webhookCreate: (body: WebhookCreateParams): ApiCall => ({ method: 'POST', path: '/v1/webhooks', body }),
  webhooks: () => get('/v1/webhooks'),
  webhook: (id: string) => get(`/v1/webhooks/${seg(id)}`),
  webhookDelete: (id: string): ApiCall => ({ method: 'DELETE', path: `/v1/webhooks/${seg(id)}` }),
  webhookDeliveries: (id: string) => get(`/v1/webhooks/${seg(id)}/deliveries`),
  /** POST /v1/webhooks/trigger (sandbox keys): a test job and its events, or a stay.cached. */
  webhookTrigger: (event: string) => post('/v1/webhooks/trigger', { event }),
  webhookResend: (id: string, deliveryId: string): ApiCall => ({ method: 'POST', path: `/v1/webhooks/${seg(id)}/deliveries/${seg(deliveryId)}/resend`, body: {} }),
  // Watches (Family U, issue 26): a call the server makes again on an interval, and its rules.
  watchCreate: (body: WatchCreateBody | Record<string, unknown>) => post('/v1/watches', body),
  watches: (p: WatchListParams = {}) => get('/v1/watches', p),
  watch: (id: string) => get(`/v1/watches/${seg(id)}`),
  watchDelete: (id: string): ApiCall => ({ method: 'DELETE', path: `/v1/watches/${seg(id)}` }),
  watchEvents: (id: string, p: WatchListParams = {}) => get(`/v1/watches/${seg(id)}/events`, p),
  watchRun: () => post('/v1/watches/run', {}),
  // Matches (Family U, issue 27): the same property on other platforms; free.
  matches: (p: MatchesParams) => get('/v1/matches', p),
  matchDecide: (p: MatchDecisionParams & { decision: 'pinned' | 'rejected' }) => post('/v1/matches/decisions', p),
  matchForget: (p: MatchDecisionParams): ApiCall => ({ method: 'DELETE', path: '/v1/matches/decisions', query: { ...p } }),
  // Stays (Family S): `{ data, meta, request_id }` bodies, snake_case data.
  /** GET /v1/stays/{id}, or /v1/stays/by-url for a room URL; with a part, /v1/stays/{id|url}/{part}. */
  stay: (idOrUrl: string, part?: StayPart | string, stay: StayDates = {}): ApiCall =>
    part !== undefined ? get(`/v1/stays/${seg(idOrUrl)}/${seg(part)}`, stay) : isStayUrl(idOrUrl) ? get('/v1/stays/by-url', { url: idOrUrl, ...stay }) : get(`/v1/stays/${seg(idOrUrl)}`, stay),
  stayBatch: (entries: StayBatchEntry[]) => post('/v1/stays/batch', { entries }),
  /** POST /v1/search with a Family S body (D8); page by resending it with nextPageToken. */
  staySearch: (body: StaySearchBody) => post('/v1/search', body),
  staySearchWithDetails: (body: StaySearchBody) => post('/v1/search/with-details', body),
  stayListings: (preset: StayPreset | string, body: StaySearchBody) => post(`/v1/listings/${seg(preset)}`, body),
};
