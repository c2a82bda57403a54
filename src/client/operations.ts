// Each API operation as a call descriptor: method, path and query, named as the API names them.
// The typed client methods and the CLI commands build their requests here, so the two never drift.
import type { AvailabilityInput, ListingInput, PriceCompareInput, PriceInput, ReviewsInput, SearchInput } from '../core/schemas/params.js';
import type { JobsListInput } from '../core/schemas/jobs.js';
import type { ApiCall } from './http.js';
import type { QueryValue } from './types.js';

/** An operation's parameters as the caller writes them: every field optional (the service validates). */
export type Params<T> = { [K in keyof T]?: T[K] | QueryValue };

export type SearchParams = Params<SearchInput>;
export type ReviewsParams = Params<ReviewsInput>;
export type PriceParams = Params<PriceInput>;
export type CompareParams = Params<PriceCompareInput>;
export type AvailabilityParams = Params<AvailabilityInput>;
export type ListingParams = Params<Omit<ListingInput, 'platform' | 'id'>>;
export type JobsListParams = Params<JobsListInput>;
export interface WebhookCreateParams {
  url: string;
  events: string[] | string;
  description?: string | null;
}

const get = (path: string, query: object = {}): ApiCall => ({ method: 'GET', path, query: query as ApiCall['query'] });
const seg = (s: string) => encodeURIComponent(s);

export const operations = {
  search: (p: SearchParams) => get('/v1/search', p),
  reviews: (p: ReviewsParams) => get('/v1/reviews', p),
  price: (p: PriceParams) => get('/v1/price', p),
  compare: (p: CompareParams) => get('/v1/price-compare', p),
  availability: (p: AvailabilityParams) => get('/v1/availability', p),
  listing: (platform: string, id: string, p: ListingParams = {}) => get(`/v1/listing/${seg(platform)}/${seg(id)}`, p),
  account: () => get('/v1/account'),
  job: (jobId: string) => get(`/v1/jobs/${seg(jobId)}`),
  jobs: (p: JobsListParams = {}) => get('/v1/jobs', p),
  // Webhooks (Family S): `{ data, request_id }` bodies.
  webhookCreate: (body: WebhookCreateParams): ApiCall => ({ method: 'POST', path: '/v1/webhooks', body }),
  webhooks: () => get('/v1/webhooks'),
  webhook: (id: string) => get(`/v1/webhooks/${seg(id)}`),
  webhookDelete: (id: string): ApiCall => ({ method: 'DELETE', path: `/v1/webhooks/${seg(id)}` }),
  webhookDeliveries: (id: string) => get(`/v1/webhooks/${seg(id)}/deliveries`),
};
