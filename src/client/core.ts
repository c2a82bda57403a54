// The typed client over a transport it is given: requests, retries at the edge, waiting on 202
// jobs, pagination, error envelopes as typed errors. index.ts picks the transport (in-process or
// remote); the MCP tools give theirs (the app they are mounted on), so they never load the
// in-process service.
import type { Account, Availability, Price, PriceCompare, Property, Review } from '../core/schemas/resources.js';
import type { Stay } from '../core/schemas/stays.js';
import type { AvailabilityHistory, BookingInferenceView, ObservationView, PriceObservation, SeenListingView } from '../core/schemas/history.js';

import type { WatchEventView, WatchView } from '../core/schemas/watches.js';
import type { WatchRunView } from '../core/schemas/watch-runs.js';
import type { MatchDecisionView, MatchesView } from '../core/schemas/matches.js';
import { StaysApiError, StaysPaginationError } from './errors.js';
import { type ApiCall, createSender, parseJson, retryAfterMs, toApiError } from './http.js';
import { nextPageOf } from './meta.js';
import {
  type AvailabilityParams,
  type CompareParams,
  type HistoryAvailabilityParams,
  type HistoryListingsParams,
  type HistoryObservationsParams,
  type HistoryBookingsParams,
  type HistoryPriceParams,
  type ListingParams,
  type MatchDecisionParams,
  type MatchesParams,
  type PriceParams,
  type ReviewsParams,
  type SearchParams,
  type StayBatchEntry,
  type StayPreset,
  type StaySearchBody,
  type WatchCreateBody,
  type WatchListParams,
  operations,
} from './operations.js';
import type { Transport } from './transport.js';
import type { BareEnvelope, Envelope, JobEnvelope, RawResponse, RequestEvent, RetryEvent, StayEnvelope, WaitEvent } from './types.js';
import { abortableSleep, isJobEnvelope, settleJob, waitForJob } from './wait.js';

/** How a client behaves, whatever its transport. */
export interface ClientCoreOptions {
  apiKey?: string;
  /** Upper bound for waiting on a job (and for retry pauses), in ms. Default 5 minutes. */
  timeoutMs?: number;
  /** Retries of 429 and retryable 5xx answers (and of a POST's lost answer: each POST carries an Idempotency-Key). Default 2. */
  maxRetries?: number;
  userAgent?: string;
  onRequest?: (e: RequestEvent) => void;
  onWait?: (e: WaitEvent) => void;
  /** Called before each pause to retry (429, retryable 5xx, connection failure). */
  onRetry?: (e: RetryEvent) => void;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface CallOptions {
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What `submit` gives: either the final envelope, or the 202 job (not waited on). */
export type Submitted<T> = { accepted: false; body: Envelope<T> } | { accepted: true; body: JobEnvelope; retryAfterMs: number | null };

export function clientOver(transport: Transport, opts: ClientCoreOptions = {}) {
  const sleep = opts.sleep ?? abortableSleep;
  const defaultTimeout = opts.timeoutMs ?? 300_000;
  const send = createSender({ transport, apiKey: opts.apiKey, userAgent: opts.userAgent ?? 'stays-client', maxRetries: opts.maxRetries ?? 2, onRequest: opts.onRequest, onRetry: opts.onRetry, sleep });
  const where = transport.kind === 'remote' ? transport.base : 'The in-process service';

  const control = (o: CallOptions) => {
    const timeoutMs = o.timeoutMs ?? defaultTimeout;
    return { timeoutMs, deadline: Date.now() + timeoutMs, signal: o.signal };
  };

  /** Sends a call once (with retries); a 202 is returned as an accepted job, not waited on. */
  async function submit<T>(call: ApiCall, o: CallOptions = {}): Promise<Submitted<T>> {
    const ctl = control(o);
    const res = await send(call, ctl);
    if (res.status >= 400) throw toApiError(res, where);
    const body = parseJson(res, where);
    if (res.status === 202 && isJobEnvelope(body)) return { accepted: true, body, retryAfterMs: retryAfterMs(res.headers) };
    return { accepted: false, body: body as Envelope<T> };
  }

  /** Sends a call and, on 202, waits for its job: always the synchronous call's envelope. */
  async function run<T>(call: ApiCall, o: CallOptions = {}): Promise<Envelope<T>> {
    const ctl = control(o);
    const res = await send(call, ctl);
    if (res.status >= 400) throw toApiError(res, where);
    if (res.status === 202) return waitForJob<T>(res, { send, sleep, onWait: opts.onWait, ...ctl });
    return parseJson(res, where) as Envelope<T>;
  }

  /**
   * Every page of a cursor-paginated call, following meta.pagination.nextCursor (a page that ran
   * as a job is waited on). A page without pagination throws StaysPaginationError after it is
   * yielded: the walk never ends short without saying so.
   */
  async function* pages<T>(call: ApiCall, o: CallOptions = {}): AsyncGenerator<Envelope<T[]>> {
    // Family S (a POST body): the same body again with nextPageToken; Family U: the query's cursor.
    const body = call.method === 'POST' && call.body !== null && typeof call.body === 'object' ? (call.body as Record<string, unknown>) : null;
    const start = body ? body.nextPageToken : call.query?.cursor;
    let cursor = typeof start === 'string' ? start : null;
    let n = 0;
    for (;;) {
      const asked = cursor;
      const next: ApiCall = asked === null ? call : body ? { ...call, body: { ...body, nextPageToken: asked } } : { ...call, query: { ...call.query, cursor: asked } };
      const page: Envelope<T[]> = await run<T[]>(next, o);
      n++;
      yield page;
      const p = nextPageOf(page.meta);
      if (!p) throw new StaysPaginationError(n, asked);
      if (!p.hasMore) return;
      if (!p.next) throw new StaysPaginationError(n, asked);
      cursor = p.next;
    }
  }

  return {
    transport,
    submit,
    run,
    pages,
    /** One raw exchange (retries included, no waiting): what `stays api` prints. */
    raw: (call: ApiCall, o: CallOptions = {}): Promise<RawResponse> => send(call, control(o)),
    search: (p: SearchParams, o?: CallOptions) => run<Property[]>(operations.search(p), o),
    searchPages: (p: SearchParams, o?: CallOptions) => pages<Property>(operations.search(p), o),
    listing: (platform: string, id: string, p?: ListingParams, o?: CallOptions) => run<Property>(operations.listing(platform, id, p), o),
    price: (p: PriceParams, o?: CallOptions) => run<Price>(operations.price(p), o),
    compare: (p: CompareParams, o?: CallOptions) => run<PriceCompare>(operations.compare(p), o),
    availability: (p: AvailabilityParams, o?: CallOptions) => run<Availability[]>(operations.availability(p), o),
    reviews: (p: ReviewsParams, o?: CallOptions) => run<Review[]>(operations.reviews(p), o),
    reviewsPages: (p: ReviewsParams, o?: CallOptions) => pages<Review>(operations.reviews(p), o),
    // History (issue 26): free reads of what the deployment observed, cursor-paged.
    historyPrice: (p: HistoryPriceParams, o?: CallOptions) => run<PriceObservation[]>(operations.historyPrice(p), o),
    historyPricePages: (p: HistoryPriceParams, o?: CallOptions) => pages<PriceObservation>(operations.historyPrice(p), o),
    /** One page of a calendar's changes, with the latest snapshot (the same on every page). */
    historyAvailability: (p: HistoryAvailabilityParams, o?: CallOptions) => run<AvailabilityHistory>(operations.historyAvailability(p), o),
    historyListings: (p: HistoryListingsParams, o?: CallOptions) => run<SeenListingView[]>(operations.historyListings(p), o),
    historyListingsPages: (p: HistoryListingsParams, o?: CallOptions) => pages<SeenListingView>(operations.historyListings(p), o),
    /** Every observation since an instant, page by page: an export that never holds the whole store. */
    historyObservationsPages: (p: HistoryObservationsParams, o?: CallOptions) => pages<ObservationView>(operations.historyObservations(p), o),
    /** A listing's nights classified and its bookings inferred (method calendar-diff/1), from the observed calendar. */
    historyBookings: (p: HistoryBookingsParams, o?: CallOptions) => run<BookingInferenceView>(operations.historyBookings(p), o),
    // Stays (Family S): snake_case data, `{ data, meta, request_id }`.
    stay: (idOrUrl: string, o?: CallOptions) => run<Stay>(operations.stay(idOrUrl), o) as unknown as Promise<StayEnvelope<Stay>>,
    stayPart: <P = Record<string, unknown>>(idOrUrl: string, part: string, o?: CallOptions) => run<P>(operations.stay(idOrUrl, part), o) as unknown as Promise<StayEnvelope<P>>,
    stayBatch: (entries: StayBatchEntry[], o?: CallOptions) => run<Stay[]>(operations.stayBatch(entries), o) as unknown as Promise<StayEnvelope<Stay[]>>,
    staySearch: (body: StaySearchBody, o?: CallOptions) => run<Stay[]>(operations.staySearch(body), o) as unknown as Promise<StayEnvelope<Stay[]>>,
    staySearchPages: (body: StaySearchBody, o?: CallOptions) => pages<Stay>(operations.staySearch(body), o) as unknown as AsyncGenerator<StayEnvelope<Stay[]>>,
    staySearchWithDetails: (body: StaySearchBody, o?: CallOptions) => run<Stay[]>(operations.staySearchWithDetails(body), o) as unknown as Promise<StayEnvelope<Stay[]>>,
    stayListings: (preset: StayPreset, body: StaySearchBody, o?: CallOptions) => run<Stay[]>(operations.stayListings(preset, body), o) as unknown as Promise<StayEnvelope<Stay[]>>,
    // Watches (issue 26): free calls; the runs the server makes are billed.
    createWatch: (body: WatchCreateBody, o?: CallOptions) => run<WatchView>(operations.watchCreate(body), o),
    watches: (p?: WatchListParams, o?: CallOptions) => run<WatchView[]>(operations.watches(p), o),
    watchesPages: (p?: WatchListParams, o?: CallOptions) => pages<WatchView>(operations.watches(p), o),
    watch: (id: string, o?: CallOptions) => run<WatchView>(operations.watch(id), o),
    deleteWatch: (id: string, o?: CallOptions) => run<WatchView>(operations.watchDelete(id), o),
    watchEvents: (id: string, p?: WatchListParams, o?: CallOptions) => run<WatchEventView[]>(operations.watchEvents(id, p), o),
    watchEventsPages: (id: string, p?: WatchListParams, o?: CallOptions) => pages<WatchEventView>(operations.watchEvents(id, p), o),
    /** Runs the key's due watches once, now (POST /v1/watches/run): each run's outcome, charge and events. */
    runDueWatches: (o?: CallOptions) => run<WatchRunView[]>(operations.watchRun(), o),
    // Matches (issue 27): free; pins and rejections per account.
    matches: (p: MatchesParams, o?: CallOptions) => run<MatchesView>(operations.matches(p), o),
    pinMatch: (p: MatchDecisionParams, o?: CallOptions) => run<MatchDecisionView>(operations.matchDecide({ ...p, decision: 'pinned' }), o),
    rejectMatch: (p: MatchDecisionParams, o?: CallOptions) => run<MatchDecisionView>(operations.matchDecide({ ...p, decision: 'rejected' }), o),
    forgetMatch: (p: MatchDecisionParams, o?: CallOptions) => run<MatchDecisionView>(operations.matchForget(p), o),
    account: async (o?: CallOptions) => (await run<Account>(operations.account(), o)) as unknown as BareEnvelope<Account>,
    /** One poll of a job: its current envelope (a failed job is returned, not thrown). */
    job: async (jobId: string, o?: CallOptions): Promise<JobEnvelope> => {
      const r = await submit<unknown>(operations.job(jobId), o);
      return r.body as JobEnvelope;
    },
    /** Waits for an existing job: the synchronous call's envelope, or its error. */
    waitJob: async <T = unknown>(jobId: string, o: CallOptions = {}): Promise<Envelope<T>> => {
      const ctl = control(o);
      const res = await send(operations.job(jobId), ctl);
      if (res.status >= 400) throw toApiError(res, where);
      const body = parseJson(res, where);
      if (!isJobEnvelope(body)) throw new StaysApiError({ type: 'internal_error', code: 'internal_error', message: `Unexpected job answer for ${jobId}.` }, res.status, jobId);
      return settleJob<T>(body) ?? waitForJob<T>(res, { send, sleep, onWait: opts.onWait, ...ctl });
    },
    close: () => transport.close(),
  };
}

export type StaysClient = ReturnType<typeof clientOver>;
