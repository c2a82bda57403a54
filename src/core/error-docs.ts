// What each error and warning code means for the person who meets it: the cause and the fix, and
// a request that reproduces it where one exists. Beside the catalogue (errors.ts) so a new code
// cannot ship undocumented: ERROR_DOCS is typed over every ErrorCode, and test/docs checks it.
// The /docs pages, the shipped docs/errors.md and `stays help errors` are all rendered from here.
import { type ErrorCode, ALL_ERROR_CODES, errorInfo, isErrorCode } from './errors.js';
import { DATE_MAX, DATE_MIN } from './schemas/fields.js';

export interface CodeDoc {
  /** What makes the service answer with this code. */
  cause: string;
  /** What the caller does about it. */
  fix: string;
  /** A request that produces it (sandbox keys unless it says otherwise), where one exists. */
  reproduce?: string;
}

const SANDBOX = 'with a stay_test_ key';

export const ERROR_DOCS: { readonly [C in ErrorCode]: CodeDoc } = {
  missing_parameter: {
    cause: 'A parameter the endpoint requires was not sent (param names it), or a form of the request needs one more (dates for a price).',
    fix: 'Send the parameter named in param; GET /v1/openapi.json and /docs list what each endpoint requires.',
    reproduce: `GET /v1/search without location, ${SANDBOX}`,
  },
  invalid_parameter: {
    cause: `A parameter is present but malformed: not a number, a date that is not YYYY-MM-DD or lies outside ${DATE_MIN} to ${DATE_MAX} (the one range every date parameter takes), an unknown platform, a listing id of the wrong shape, a body that is not the expected JSON.`,
    fix: 'Correct the parameter named in param; the message says what was expected.',
    reproduce: `GET /v1/search?location=Lisbon&adults=many ${SANDBOX}`,
  },
  invalid_date_range: {
    cause: 'The end date (checkOut, endDate) is on or before the start date.',
    fix: 'Send an end date strictly after the start date.',
    reproduce: `GET /v1/price?platform=airbnb&listingId=12345678&checkIn=2030-01-05&checkOut=2030-01-05 ${SANDBOX}`,
  },
  date_in_past: {
    cause: 'A date is before today in UTC.',
    fix: 'Send today (UTC) or a later date.',
    reproduce: `GET /v1/price?platform=airbnb&listingId=12345678&checkIn=2001-01-01&checkOut=2001-01-03 ${SANDBOX}`,
  },
  child_ages_mismatch: {
    cause: 'childAges does not have exactly one age per child.',
    fix: 'Send as many ages in childAges as the children count.',
    reproduce: `GET /v1/search?location=Lisbon&children=2&childAges=5 ${SANDBOX}`,
  },
  stay_too_long: {
    cause: 'checkIn to checkOut spans more than 90 nights.',
    fix: 'Split the stay into requests of at most 90 nights.',
    reproduce: `GET /v1/price?platform=airbnb&listingId=12345678&checkIn=2030-01-01&checkOut=2030-06-01 ${SANDBOX}`,
  },
  window_too_long: {
    cause: 'An availability window (startDate to endDate) spans more than 365 days.',
    fix: 'Ask for at most 365 days per request.',
    reproduce: `GET /v1/availability?platform=airbnb&listingId=12345678&startDate=2030-01-01&endDate=2031-06-01 ${SANDBOX}`,
  },
  invalid_listing_url: {
    cause: 'The url parameter is not a listing URL of the given platform (a search page, another site, a URL without an id).',
    fix: 'Send the URL of one listing as the platform shows it, or the listing id instead.',
    reproduce: `GET /v1/stays/by-url?url=https://example.com/rooms/1 ${SANDBOX}`,
  },
  invalid_property_type: {
    cause: 'A property type filter names a type the service does not know.',
    fix: 'Use one of the types listed for the parameter in the API reference.',
    reproduce: `GET /v1/search?location=Lisbon&propertyType=castle ${SANDBOX}`,
  },
  invalid_amenity: {
    cause: 'An amenity filter names an amenity token the service does not know.',
    fix: 'Use the amenity tokens listed for the parameter in the API reference.',
    reproduce: `GET /v1/search?location=Lisbon&amenities=moat ${SANDBOX}`,
  },
  invalid_price_range: {
    cause: 'priceMin or priceMax is negative, or priceMax is below priceMin.',
    fix: 'Send non-negative prices with priceMax at least priceMin.',
    reproduce: `GET /v1/search?location=Lisbon&priceMin=200&priceMax=100 ${SANDBOX}`,
  },
  invalid_language: {
    cause: 'language is not a two-letter ISO-639-1 code.',
    fix: 'Send a code such as en, pt or fr.',
    reproduce: `GET /v1/reviews?platform=airbnb&listingId=12345678&language=english ${SANDBOX}`,
  },
  invalid_sort: {
    cause: 'sort names an order the endpoint does not offer.',
    fix: 'Use one of the sort values listed for the endpoint in the API reference.',
    reproduce: `GET /v1/search?location=Lisbon&sort=cheapest ${SANDBOX}`,
  },
  invalid_cursor: {
    cause: 'The cursor (or page token) was altered, belongs to another query, or has expired.',
    fix: 'Pass meta.pagination.nextCursor (next_page_token in Family S) from the previous page unchanged, with the same other parameters.',
    reproduce: `GET /v1/search?location=Lisbon&cursor=nope ${SANDBOX}`,
  },
  limit_out_of_range: {
    cause: "limit (or maxItems) is below 1 or above the endpoint's maximum.",
    fix: 'Send a limit within the range the message gives, and page with the cursor for more.',
    reproduce: `GET /v1/search?location=Lisbon&limit=99 ${SANDBOX}`,
  },
  mutually_exclusive_params: {
    cause: 'Two parameters that select different forms of the request were both sent (listingId and url, listingId and listingIds, a hotel id and a name).',
    fix: 'Send only one of the conflicting parameters the message names.',
    reproduce: `GET /v1/search?location=Lisbon&platform=airbnb&platforms=vrbo ${SANDBOX}`,
  },
  platform_not_enabled: {
    cause:
      "The platform is not served by this endpoint (reviews on some platforms), not by this server's upstream (booking and google calendars when live data comes from the scraping platform: its actors return no calendar days), or not enabled on this service at all (expedia, hotels, tripadvisor).",
    fix: 'Use one of the platforms the message lists.',
    reproduce: `GET /v1/listing/expedia/123 ${SANDBOX}`,
  },
  no_enabled_platform: {
    cause: 'The platforms parameter named only platforms that are not enabled, so nothing is left to search.',
    fix: 'Include at least one enabled platform (airbnb, booking, vrbo, google), or leave platforms out for all of them.',
    reproduce: `GET /v1/search?location=Lisbon&platforms=expedia ${SANDBOX}`,
  },
  needs_country: {
    cause: 'A booking listing was given as a bare slug that exists in several countries.',
    fix: 'Send country (ISO-3166 alpha-2), or the id in its {country}/{slug} form such as pt/casa-azul.',
  },
  payload_too_large: {
    cause: 'The request body is larger than 1 MiB; it was not read.',
    fix: 'Send a smaller body: split a batch into several requests.',
    reproduce: 'POST /v1/stays/batch with a 2 MiB JSON body',
  },
  request_headers_too_large: {
    cause: "The request line and headers together pass the server's limit; the request never reached the API.",
    fix: 'Send shorter headers and URL: move long lists into a POST body where the endpoint takes one.',
  },
  request_timeout: {
    cause: 'The client did not finish sending its request in time; the server closed the connection.',
    fix: 'Retry; if it recurs, check the network between the client and the server.',
  },
  idempotency_key_reused: {
    cause:
      'A POST carried an Idempotency-Key that this account (in this environment) already used in the last 24 hours for a different request: another body, path or method. Nothing was executed or charged.',
    fix: 'Use a new key for every distinct request (a UUID is usual); reuse a key only to retry the very same request, byte for byte.',
    reproduce: `POST /v1/stays/batch twice with Idempotency-Key: k1 and two different bodies ${SANDBOX}`,
  },
  idempotency_key_in_use: {
    cause: 'A POST carried an Idempotency-Key whose first request is still executing (on this or another instance). Nothing was executed or charged.',
    fix: 'Retry after Retry-After seconds with the same key and body: once the first request ends, the retry gets its answer again (Idempotent-Replayed: true).',
  },
  unsupported_media_type: {
    cause: 'A POST body was sent with a Content-Type other than application/json.',
    fix: 'Send JSON with Content-Type: application/json.',
    reproduce: `POST /v1/stays/batch with Content-Type: application/x-www-form-urlencoded ${SANDBOX}`,
  },
  job_not_cancelable: {
    cause: 'DELETE /v1/jobs/{jobId} (stays jobs cancel) named a job that already ended: completed (and charged) or failed (free). Nothing changed.',
    fix: "Nothing to cancel: read the job (GET /v1/jobs/{jobId}) for its result or error. A completed job's charge stands.",
  },
  job_canceled: {
    cause:
      'The job was canceled (DELETE /v1/jobs/{jobId}, stays jobs cancel) while it was pending or running: it ended failed with this code, its credit hold was released and nothing was charged, even if the platform answered later.',
    fix: 'Nothing to fix: repeat the original request if you want its data after all (a new job, charged as usual).',
  },
  route_not_found: {
    cause: 'No endpoint has this path (a typo, a missing /v1 prefix, a resource that does not exist).',
    fix: 'Check the path against GET /v1/openapi.json or /docs.',
    reproduce: 'GET /v1/nope',
  },
  method_not_allowed: {
    cause: 'The path exists but not with this HTTP method (the Allow header lists the ones it takes); HEAD on a billed GET is refused too.',
    fix: 'Use a method from the Allow header.',
    reproduce: 'DELETE /v1/health',
  },
  not_implemented: {
    cause: 'The endpoint is declared but this server does not implement it yet.',
    fix: 'Use another endpoint, or a newer server.',
  },
  public_url_required: {
    cause:
      'The server listens on a non-loopback address (reachable from other hosts) and STAYS_PUBLIC_URL is not set, so it cannot say where it is: its OAuth endpoints and metadata are off rather than trusting the Host header or naming one of its many addresses.',
    fix: 'The operator sets STAYS_PUBLIC_URL to the URL clients reach the server at (https://stays.example.com) and restarts it. Until then an MCP client can send an API key as the bearer.',
    reproduce: 'GET /.well-known/oauth-authorization-server on `stays serve --host 0.0.0.0` without STAYS_PUBLIC_URL',
  },
  missing_api_key: {
    cause: 'The request carries no API key.',
    fix: 'Send Authorization: Bearer <key>. `stays admin key create` issues keys on a self-hosted server.',
    reproduce: 'GET /v1/account without an Authorization header',
  },
  invalid_api_key: {
    cause: 'The key is malformed or unknown to this server (a typo, a key of another server, a stay_test_ key mistaken for a live one).',
    fix: 'Send a key issued by this server, whole and without spaces.',
    reproduce: 'GET /v1/account with Authorization: Bearer stay_test_nope',
  },
  revoked_api_key: {
    cause: 'The key was revoked by its owner or the operator; it no longer authenticates.',
    fix: 'Use another key of the account, or ask for a new one.',
  },
  scope_insufficient: {
    cause:
      'The key (or OAuth token) does not carry the scope this endpoint needs: billing.write for a top-up, webhooks.write to create or delete a webhook, stays.read for data and for reading webhooks. OAuth access tokens carry stays.read only (read-only).',
    fix: "Use a key with that scope, or create one with `stays admin key create --scopes`; GET /v1/openapi.json lists each operation's scopes under security.",
  },
  email_unverified: {
    cause: "A live key was used before the account's email address was confirmed; sandbox keys still work.",
    fix: 'Confirm the email address, or use a stay_test_ key meanwhile.',
  },
  subscription_required: {
    cause: 'A credit top-up was asked for by an account without an active paid plan.',
    fix: 'Move to a paid plan first, or ask the operator for credits (`stays admin credits grant`).',
  },
  free_tier_budget_exhausted: {
    cause: "The call could take the free plan's total spend past its budget.",
    fix: 'Move to a paid plan, or ask the operator to raise the budget; sandbox keys stay free.',
  },
  topups_disabled: {
    cause: 'Top-ups are off on this server (STAYS_TOPUP_MAX_PER_DAY is 0, the default).',
    fix: 'Ask the operator for credits (`stays admin credits grant`), or to set STAYS_TOPUP_MAX_PER_DAY.',
  },
  topup_limit_exceeded: {
    cause: "The top-up would pass the account's daily top-up cap (STAYS_TOPUP_MAX_PER_DAY).",
    fix: 'Top up less, wait for the next UTC day, or ask the operator for credits.',
  },
  account_disabled: {
    cause: 'The account behind the key is disabled.',
    fix: 'Ask the operator of the service to enable it.',
  },
  webhook_limit_exceeded: {
    cause: 'The account already has the maximum number of active webhooks.',
    fix: 'Delete a webhook you no longer need (DELETE /v1/webhooks/{id}), then create the new one.',
  },
  sandbox_key_required: {
    cause: 'A sandbox-only route (POST /v1/webhooks/trigger, stays webhooks trigger) was called with a live key: it makes test jobs and events, which a live webhook must never receive.',
    fix: "Call it with a stay_test_ key (in-process, the CLI's local key is one); create the webhook under test with that key too.",
    reproduce: 'POST /v1/webhooks/trigger {"event":"job.succeeded"} with a stay_live_ key',
  },
  watch_limit_exceeded: {
    cause: 'The account already keeps the maximum number of watches (100, active and ended, sandbox and live together; a deleted watch is gone at once and does not count).',
    fix: 'Delete a watch you no longer need, an ended one too (DELETE /v1/watches/{id}, stays watch rm), then create the new one.',
  },
  listing_not_found: {
    cause: 'The platform has no listing with this id (it was removed, or the id is wrong).',
    fix: 'Check the id (search again for a current one); do not retry the same id.',
    reproduce: `GET /v1/listing/airbnb/404 ${SANDBOX}`,
  },
  job_not_found: {
    cause: "No job of this account has this id: a typo, another account's job, or one past its 24 hours of retention.",
    fix: "Use the jobId from the 202 answer within 24 hours; GET /v1/jobs lists the account's jobs.",
    reproduce: `GET /v1/jobs/job_nope ${SANDBOX}`,
  },
  webhook_not_found: {
    cause: 'No webhook of this account has this id (a typo, or it was deleted).',
    fix: "List the account's webhooks (GET /v1/webhooks) for their ids.",
    reproduce: `DELETE /v1/webhooks/wh_nope ${SANDBOX}`,
  },
  watch_not_found: {
    cause: "No watch of this account and key environment has this id (a typo, another account's, or deleted).",
    fix: "List the account's watches (GET /v1/watches, stays watch list) for their ids.",
    reproduce: `GET /v1/watches/wat_nope/events ${SANDBOX}`,
  },
  compset_not_found: {
    cause: "No comp set of this account and key environment has this id or name (a typo, another account's, or deleted).",
    fix: "List the account's comp sets (GET /v1/compsets, stays compset list) for their ids and names.",
    reproduce: `GET /v1/compsets/cs_nope ${SANDBOX}`,
  },
  compset_limit_exceeded: {
    cause: 'The account already keeps the most comp sets it may have in this environment (100).',
    fix: 'Delete comp sets it no longer needs (DELETE /v1/compsets/{id}, stays compset rm).',
  },
  compset_name_taken: {
    cause: 'The account already has a comp set of this name in this environment; names pick comp sets out (stays market --compset NAME).',
    fix: 'Choose another name, or delete the old comp set first.',
  },
  collection_not_found: {
    cause: "No collection of this account and key environment has this id or name (a typo, another account's, or deleted).",
    fix: "List the account's collections (GET /v1/collections, stays collect list) for their ids and names.",
    reproduce: `GET /v1/collections/col_nope ${SANDBOX}`,
  },
  collection_limit_exceeded: {
    cause: 'The account already keeps the most collections it may have in this environment (20).',
    fix: 'Delete collections it no longer needs (DELETE /v1/collections/{id}, stays collect rm).',
  },
  collection_name_taken: {
    cause: 'The account already has a collection of this name in this environment; names pick collections out (stays collect show NAME).',
    fix: 'Choose another name, or delete the old collection first.',
  },
  match_decision_limit_exceeded: {
    cause: 'The account already keeps the most match decisions (pins and rejections) it may have in this key environment (5,000): a new pair is refused; changing a kept one is not.',
    fix: 'Remove decisions it no longer needs (DELETE /v1/matches/decisions, stays match unpin).',
  },
  match_decision_not_found: {
    cause: 'DELETE /v1/matches/decisions (stays match unpin) names a pair this account (in this key environment) never pinned or rejected, or whose decision was already removed.',
    fix: 'GET /v1/matches for the listing (stays match PLATFORM:ID) shows the pairs the account decided (decision pinned or rejected); remove one of those.',
    reproduce: `DELETE /v1/matches/decisions?listing=airbnb:62959578&match=vrbo:90629595781 ${SANDBOX}`,
  },
  delivery_not_found: {
    cause:
      "POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend (stays webhooks resend) named an event id this webhook has no delivery of: a typo, another webhook's event, or one older than the 30 days deliveries are kept.",
    fix: "Take the event_id from the webhook's attempt log: GET /v1/webhooks/{id}/deliveries (stays webhooks deliveries ID).",
  },
  identity_mismatch: {
    cause: 'The platform answered with a different listing than the one asked for (a redirect to a merged or moved listing), so the answer was refused rather than mislabelled.',
    fix: "Search again for the property's current id.",
    reproduce: `GET /v1/listing/airbnb/409 ${SANDBOX}`,
  },
  no_availability: {
    cause: 'At least one night of the requested stay is already taken, so the platform gives no price.',
    fix: 'Check /v1/availability and pick free dates.',
    reproduce: `GET /v1/price?platform=airbnb&listingId=410&checkIn=2030-03-01&checkOut=2030-03-04 ${SANDBOX}`,
  },
  price_not_found: {
    cause: 'The platform did not quote this listing for these dates and party (a minimum stay, too many guests, a rate plan not offered).',
    fix: 'Try other dates or another party size.',
    reproduce: `GET /v1/price?platform=airbnb&listingId=411&checkIn=2030-03-01&checkOut=2030-03-04 ${SANDBOX}`,
  },
  analysis_too_large: {
    cause:
      'An analytic read (GET /v1/market) computed for longer than its time budget (STAYS_ANALYTICS_BUDGET_MS, 60 s by default) over the listings in scope. The read yields to other requests throughout, so the server kept answering; it stopped rather than hold a connection and memory longer. What it classified is kept, so the same read asked again goes on from there. Nothing was charged.',
    fix: 'Narrow the scope: a smaller bbox or comp set radius, fewer platforms, a bedrooms filter, or a shorter window. An operator may raise STAYS_ANALYTICS_BUDGET_MS.',
    reproduce: 'GET /v1/market?location=lisbon&from=2026-06-01&to=2026-09-01 on a server started with STAYS_ANALYTICS_BUDGET_MS=1',
  },
  no_observations: {
    cause:
      "An analysis that reads this deployment's own observations (inferred bookings, market metrics) found none for the listing or location in the window: no live call observed it there, or the history is off (STAYS_HISTORY). Nothing was charged; a figure computed from nothing would be a zero passed off as a measurement.",
    fix: 'Observe it first (stays calendar, price or search with a live key while history is on), widen the window, or check the listing id and location; sandbox keys read a synthetic history of every listing.',
    reproduce: 'GET /v1/history/bookings?platform=airbnb&listingId=99999999&from=2030-01-01&to=2030-02-01 with a stay_live_ key on a store that never observed it',
  },
  credit_balance_too_low: {
    cause: "The account's available credits (balance minus what running calls hold) are below the worst-case cost of the call; nothing was charged.",
    fix: 'Top up or ask for credits, or make a cheaper call (fewer platforms, a shorter window).',
  },
  rate_limit_exceeded: {
    cause: 'The key (or, without a valid key, the client address) sent more requests in the last minute than its limit.',
    fix: 'Wait the seconds in Retry-After, then retry; X-RateLimit-Remaining tells how many are left.',
  },
  all_actors_failed: {
    cause: 'Every source that can fetch this data from the platform failed.',
    fix: 'Retry later, with back-off; nothing was charged.',
    reproduce: `GET /v1/listing/airbnb/503 ${SANDBOX}`,
  },
  actor_blocked: {
    cause: 'The platform blocked the request and no source returned usable rows.',
    fix: 'Retry later, with back-off; nothing was charged.',
    reproduce: `GET /v1/listing/airbnb/502 ${SANDBOX}`,
  },
  upstream_degraded: {
    cause: 'Every platform leg of a search failed or was blocked, so there are no rows to return.',
    fix: 'Retry later, or search fewer platforms; nothing was charged.',
    reproduce: `GET /v1/search?location=fail ${SANDBOX}`,
  },
  upstream_unavailable: {
    cause: 'A live key called a server started without an upstream (STAYS_UPSTREAM unset), so no live data can be fetched.',
    fix: 'Start the server with an upstream (STAYS_UPSTREAM=simulated), or use a stay_test_ key for the sandbox.',
    reproduce: 'any data call with a stay_live_ key on a server without STAYS_UPSTREAM',
  },
  actor_timeout: {
    cause: 'The upstream work ran out of time without returning data.',
    fix: 'Retry later, with back-off; nothing was charged.',
    reproduce: `GET /v1/listing/airbnb/504 ${SANDBOX}`,
  },
  database_unavailable: {
    cause:
      'The server could not use its database (PostgreSQL restarting, a dropped connection, a network fault between them). Nothing about the request was wrong, and nothing was charged for this answer.',
    fix: 'Retry after the Retry-After header (the stays CLI and client do for GET and DELETE); the server reconnects by itself once the database is back. Operators: check the database and the network to it.',
  },
  service_overloaded: {
    cause:
      'Every database connection of the instance was busy and as many requests as it queues (STAYS_DATABASE_QUEUE_MAX) were already waiting, or one waited longer than STAYS_DATABASE_QUEUE_TIMEOUT_MS. Nothing was charged for this answer.',
    fix: 'Retry after the Retry-After header, with back-off; spread bursts out. Operators: more instances, a larger pool (STAYS_DATABASE_POOL_MAX) or a larger queue (docs/deploy.md, throughput).',
  },
  internal_error: {
    cause: 'An unexpected failure inside the service (a bug); it was logged with the requestId.',
    fix: 'Retry once; if it persists, report it quoting the requestId.',
  },
};

/** Warnings the service puts in meta.warnings: the call succeeded, with something to know. */
export const WARNING_DOCS = {
  platform_not_enabled: {
    cause: 'A search named a platform that is not enabled on this service; it was skipped and the others were searched.',
    fix: 'Leave the platform out of platforms, or ignore the warning.',
    reproduce: `GET /v1/search?location=Lisbon&platforms=airbnb,expedia ${SANDBOX}`,
  },
  price_filter_needs_dates: {
    cause: 'priceMin or priceMax was sent on a search without checkIn and checkOut; prices exist only for dated stays, so the filter was ignored.',
    fix: 'Add checkIn and checkOut to filter by price, or drop the price filter.',
    reproduce: `GET /v1/search?location=Lisbon&priceMin=50 ${SANDBOX}`,
  },
  rating_out_of_scale: {
    cause:
      "A rating filter (minGuestRating, minRating) is above a platform's rating scale: ratings keep each platform's own scale (5 for airbnb, vrbo and google, 10 for booking), so nothing on that platform can match.",
    fix: "Give the minimum on that platform's scale (ratingScale in each row), or search that platform alone with its own minimum.",
    reproduce: `GET /v1/search?location=Lisbon&platforms=airbnb,booking&minGuestRating=8 ${SANDBOX}`,
  },
  results_truncated: {
    cause:
      "A platform cut a search's answer at its result cap (airbnb about 280 a search, vrbo 500, booking 1,000, google 200): the search pages over the rows it returned, and more exist. meta.truncated names the platform, its cap, what it returned and, when it says, how many results it has.",
    fix: 'Search smaller areas (bbox: split the box in four) or price bands (priceMin, priceMax with a bbox) until no answer is truncated; a collection does this for you (issue 38).',
    reproduce: `GET /v1/search?location=Metropolis&platforms=airbnb ${SANDBOX}`,
  },
  price_unavailable: {
    cause: 'A listing was asked for with dates, but no price could be quoted for them; the listing is returned with price null.',
    fix: 'Call /v1/price for the reason (the error code in the message), or try other dates.',
    reproduce: `GET /v1/listing/airbnb/410?checkIn=2030-03-01&checkOut=2030-03-04 ${SANDBOX}`,
  },
  max_items_clamped: {
    cause: "maxItems was above the cap of the search or preset; a page of the cap's size was returned.",
    fix: 'Page on with next_page_token for more rows.',
  },
  filter_ignored: {
    cause: 'A filter the sources cannot apply (minBeds: they state no bed count) was ignored.',
    fix: 'Use a filter the message suggests instead (minBedrooms).',
  },
  simulated_upstream: {
    cause: 'The server runs with STAYS_UPSTREAM=simulated: live data comes from the simulated upstream, not from a booking platform.',
    fix: 'Nothing, in development; in production configure a real upstream.',
  },
  availability_unavailable: {
    cause: "A stay lookup could not fetch the stay's calendar; the stay is returned with empty availability.",
    fix: 'Retry later, or ask for the availability part alone.',
  },
  price_inclusions_differ: {
    cause:
      "A price comparison's offers do not include the same things in their totals (cleaning, service fee, taxes: included, not included, or unknown because the source does not say), so their totals are not comparable. The offers that agree with the best-known inclusions are ranked first, cheapest first, and `comparable` gives min and median over them (min and median stay over every offer in the currency); the others are still listed, after them. The message names each offer listed apart and what differs.",
    fix: "Compare the offers listed apart by their includes and lineItems (or the includes_* CSV columns), not by rank; price them on the seller's site for the full amount.",
    reproduce: `GET /v1/price-compare?listings=airbnb:12345678,booking:pt/casa-azul,vrbo:4886746&checkIn=2027-03-01&checkOut=2027-03-04 ${SANDBOX}`,
  },
  reviews_unavailable: {
    cause: "A stay lookup could not fetch the stay's reviews; the stay is returned with no reviews.",
    fix: 'Retry later, or ask for the reviews part alone.',
  },
} as const satisfies Record<string, CodeDoc>;

export type WarningCode = keyof typeof WARNING_DOCS;
export const ALL_WARNING_CODES = Object.keys(WARNING_DOCS) as WarningCode[];
export const isWarningCode = (c: string): c is WarningCode => Object.hasOwn(WARNING_DOCS, c);

/**
 * A warning may carry an error code: one leg of a batch, comparison or multi-platform search
 * failed and the call answered with the rest (the message names the leg).
 */
const LEG_WARNING: CodeDoc = {
  cause: 'One platform, listing or entry of a multi-part call failed with this error; the call answered with the other parts, and the failed one is named in the message and left out (not billed).',
  fix: "Read the error's own page for the cause; retry the failed part alone if it is retryable.",
};

/** The documentation of a warning code (its own, or the failed-leg text for an error code); null when unknown. */
export function warningDoc(code: string): CodeDoc | null {
  if (isWarningCode(code)) return WARNING_DOCS[code];
  if (isErrorCode(code)) return LEG_WARNING;
  return null;
}

/** Close codes for an unknown one (a typo): same prefix or small edit distance. */
export function suggestCodes(code: string, known: readonly string[]): string[] {
  const d = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const cur = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
    }
    return row[b.length]!;
  };
  const c = code.toLowerCase().replace(/-/g, '_');
  return known
    .map((k) => ({ k, s: k.includes(c) || c.includes(k) ? 0 : d(c, k) }))
    .filter((x) => x.s <= Math.max(2, Math.floor(c.length / 4)))
    .sort((a, b) => a.s - b.s)
    .slice(0, 3)
    .map((x) => x.k);
}

/** One error code's facts and text, for every renderer (HTML, Markdown, terminal). */
export function errorEntry(code: ErrorCode) {
  const info = errorInfo(code);
  return { code, ...info, ...ERROR_DOCS[code] };
}

/** `stays help errors CODE`: the same facts as the page, as text. */
export function errorText(code: ErrorCode): string {
  const e = errorEntry(code);
  const lines = [
    `${e.code}`,
    '',
    `  type       ${e.type}`,
    `  HTTP       ${e.status}`,
    `  retryable  ${e.retryable ? 'yes' : 'no'}`,
    `  message    ${e.message}`,
    '',
    `Cause: ${e.cause}`,
    `Fix: ${e.fix}`,
  ];
  if (e.reproduce) lines.push(`Reproduce: ${e.reproduce}`);
  return `${lines.join('\n')}\n`;
}

/** `stays help errors`: the catalogue, one line a code. */
export function errorsListText(): string {
  const w = Math.max(...ALL_ERROR_CODES.map((c) => c.length));
  const tw = Math.max(...ALL_ERROR_CODES.map((c) => errorInfo(c).type.length));
  const rows = ALL_ERROR_CODES.map((c) => {
    const e = errorEntry(c);
    return `  ${c.padEnd(w)}  ${e.type.padEnd(tw)}  ${e.status}  ${e.message}`;
  });
  return `The error codes of the service (code, type, HTTP status, what it means); stays help errors CODE for one:\n\n${rows.join('\n')}\n`;
}

const md = (s: string) => s.replace(/([<>])/g, '\\$1');

/** docs/errors.md: the reference shipped with the package (in-process docUrls point into it). */
export function errorsMarkdown(): string {
  const out = [
    '# Error codes',
    '',
    '<!-- Generated from src/core/error-docs.ts and src/core/errors.ts (npx vitest run test/docs/error-docs.test.ts -u); test/docs checks it. Do not edit. -->',
    '',
    'Every error answer carries `error.code` (below), `error.type`, the HTTP status and `error.retryable`.',
    'A running server serves the same pages at `/docs/errors/<code>`.',
  ];
  for (const c of ALL_ERROR_CODES) {
    const e = errorEntry(c);
    out.push(
      '',
      `## ${c}`,
      '',
      `- type: \`${e.type}\``,
      `- HTTP status: ${e.status}`,
      `- retryable: ${e.retryable ? 'yes' : 'no'}`,
      `- default message: ${md(e.message)}`,
      '',
      `**Cause.** ${md(e.cause)}`,
      '',
      `**Fix.** ${md(e.fix)}`,
    );
    if (e.reproduce) out.push('', `**Reproduce.** \`${e.reproduce}\``);
  }
  return `${out.join('\n')}\n`;
}

/** docs/warnings.md. */
export function warningsMarkdown(): string {
  const out = [
    '# Warning codes',
    '',
    '<!-- Generated from src/core/error-docs.ts (npx vitest run test/docs/error-docs.test.ts -u); test/docs checks it. Do not edit. -->',
    '',
    'A successful answer may carry `meta.warnings[]`, each with a `code` (below), a `message` and a `docUrl`.',
    'A warning whose code is an error code (see errors.md) means one part of a multi-part call failed with that error; the call answered with the rest.',
  ];
  for (const c of ALL_WARNING_CODES) {
    const w: CodeDoc = WARNING_DOCS[c];
    out.push('', `## ${c}`, '', `**Cause.** ${md(w.cause)}`, '', `**Fix.** ${md(w.fix)}`);
    if (w.reproduce) out.push('', `**Reproduce.** \`${w.reproduce}\``);
  }
  return `${out.join('\n')}\n`;
}
