// The closed error catalogue: every code the service can answer with, its type, HTTP status and
// retryable flag, in one place. Handlers throw ServiceError; the HTTP layer renders it.

export const ERROR_TYPES = {
  invalid_request: { status: 400, retryable: false },
  authentication_error: { status: 401, retryable: false },
  insufficient_credits: { status: 402, retryable: false },
  permission_denied: { status: 403, retryable: false },
  not_found: { status: 404, retryable: false },
  rate_limited: { status: 429, retryable: true },
  internal_error: { status: 500, retryable: false },
  not_implemented: { status: 501, retryable: false },
  upstream_unavailable: { status: 503, retryable: true },
  upstream_timeout: { status: 504, retryable: true },
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

interface CodeSpec {
  type: ErrorType;
  /** Overrides the type's HTTP status (413 for an oversized body). */
  status?: number;
  /** Overrides the type's retryable flag. */
  retryable?: boolean;
  /** Seconds for Retry-After when the thrower gives none: the service's own 503s always say when to come back. */
  retryAfter?: number;
  /** Default message when the thrower gives none. */
  message: string;
}

export const ERROR_CODES = {
  missing_parameter: { type: 'invalid_request', message: 'A required parameter is missing.' },
  invalid_parameter: { type: 'invalid_request', message: 'A parameter is malformed.' },
  invalid_date_range: { type: 'invalid_request', message: 'The end date must be strictly after the start date.' },
  date_in_past: { type: 'invalid_request', message: 'The date is in the past (UTC).' },
  child_ages_mismatch: { type: 'invalid_request', message: 'childAges must have one age per child.' },
  stay_too_long: { type: 'invalid_request', message: 'The stay is longer than the maximum of 90 nights.' },
  window_too_long: { type: 'invalid_request', message: 'The date window is longer than 365 days.' },
  analysis_too_large: {
    type: 'invalid_request',
    status: 422,
    message: 'The analysis did not finish within its time budget (STAYS_ANALYTICS_BUDGET_MS): narrow the scope (fewer listings, fewer platforms, a shorter window).',
  },
  invalid_listing_url: { type: 'invalid_request', message: 'The url is not a recognisable listing URL for the platform.' },
  invalid_property_type: { type: 'invalid_request', message: 'Unknown property type.' },
  invalid_amenity: { type: 'invalid_request', message: 'Unknown amenity token.' },
  invalid_price_range: { type: 'invalid_request', message: 'Prices must be >= 0 and priceMax >= priceMin.' },
  invalid_language: { type: 'invalid_request', message: 'language must be an ISO-639-1 code.' },
  invalid_sort: { type: 'invalid_request', message: 'Unknown sort value.' },
  invalid_cursor: { type: 'invalid_request', message: 'The cursor is malformed.' },
  limit_out_of_range: { type: 'invalid_request', message: 'limit is out of range.' },
  mutually_exclusive_params: { type: 'invalid_request', message: 'Conflicting parameters were given.' },
  platform_not_enabled: { type: 'invalid_request', message: 'The platform is not enabled for this endpoint.' },
  no_enabled_platform: { type: 'invalid_request', message: 'No enabled platform remains after resolving platforms.' },
  needs_country: { type: 'invalid_request', message: 'A bare booking slug needs a country.' },
  // Additive codes (the set grows additively; clients tolerate unknown ones).
  payload_too_large: { type: 'invalid_request', status: 413, message: 'The request body is larger than 1 MiB.' },
  request_headers_too_large: { type: 'invalid_request', status: 431, message: 'The request line and headers are too large.' },
  request_timeout: { type: 'invalid_request', status: 408, retryable: true, message: 'The request did not arrive in time.' },
  unsupported_media_type: { type: 'invalid_request', status: 415, message: 'The request body must be application/json.' },
  idempotency_key_reused: {
    type: 'invalid_request',
    message: 'This Idempotency-Key was already used with a different request (another body, path or method) in the last 24 hours; send a new key.',
  },
  idempotency_key_in_use: {
    type: 'invalid_request',
    status: 409,
    retryable: true,
    message: 'Another request with this Idempotency-Key is still being processed; retry after it finishes.',
  },
  job_not_cancelable: { type: 'invalid_request', status: 409, message: 'The job already finished (completed or failed); only a pending or running job can be canceled.' },
  job_canceled: { type: 'invalid_request', status: 409, message: 'The job was canceled (DELETE /v1/jobs/{jobId}) before it finished; nothing was charged.' },
  route_not_found: { type: 'not_found', message: 'No such route.' },
  method_not_allowed: { type: 'invalid_request', status: 405, message: 'Method not allowed on this route.' },
  not_implemented: { type: 'not_implemented', message: 'Not implemented yet.' },
  public_url_required: { type: 'not_implemented', message: 'OAuth on a server reachable from other hosts needs STAYS_PUBLIC_URL.' },

  missing_api_key: { type: 'authentication_error', message: 'No API key: send Authorization: Bearer <key>.' },
  invalid_api_key: { type: 'authentication_error', message: 'The API key is unknown or malformed.' },
  revoked_api_key: { type: 'authentication_error', message: 'The API key has been revoked.' },

  scope_insufficient: { type: 'permission_denied', message: 'The API key lacks a required scope.' },
  email_unverified: { type: 'permission_denied', message: 'Live credit is locked until the account email is confirmed.' },
  subscription_required: { type: 'permission_denied', message: 'A top-up needs an active paid subscription.' },
  free_tier_budget_exhausted: { type: 'permission_denied', message: 'The free-tier budget of this account is used up.' },
  topups_disabled: {
    type: 'permission_denied',
    message: 'Top-ups are disabled on this server (STAYS_TOPUP_MAX_PER_DAY is 0). Ask its operator for credits: stays admin credits grant.',
  },
  topup_limit_exceeded: {
    type: 'permission_denied',
    message: 'This top-up would pass the daily top-up cap of this account (STAYS_TOPUP_MAX_PER_DAY). Top up less, wait for the next UTC day, or ask the operator: stays admin credits grant.',
  },
  account_disabled: { type: 'permission_denied', message: 'The account is disabled.' },
  webhook_limit_exceeded: { type: 'permission_denied', message: 'This account has the maximum number of active webhooks; delete one first.' },
  compset_limit_exceeded: { type: 'permission_denied', message: 'This account has the maximum number of comp sets; delete one first.' },
  match_decision_limit_exceeded: { type: 'permission_denied', message: 'This account keeps the maximum number of match decisions; remove one first.' },
  compset_name_taken: { type: 'invalid_request', message: 'The account already has a comp set of this name.' },
  collection_limit_exceeded: { type: 'permission_denied', message: 'This account has the maximum number of collections; delete one first.' },
  collection_name_taken: { type: 'invalid_request', message: 'The account already has a collection of this name.' },
  watch_limit_exceeded: { type: 'permission_denied', message: 'This account keeps the maximum number of watches (active and ended); delete one first.' },

  sandbox_key_required: { type: 'permission_denied', message: 'This works with a sandbox (stay_test_) key only.' },

  listing_not_found: { type: 'not_found', message: 'The listing does not exist upstream.' },
  delivery_not_found: { type: 'not_found', message: 'No such delivery for this webhook.' },
  job_not_found: { type: 'not_found', message: 'No such job.' },
  webhook_not_found: { type: 'not_found', message: 'No such webhook.' },
  watch_not_found: { type: 'not_found', message: 'No such watch.' },
  compset_not_found: { type: 'not_found', message: 'No such comp set.' },
  collection_not_found: { type: 'not_found', message: 'No such collection.' },
  match_decision_not_found: { type: 'not_found', message: 'This account has no pin or rejection of this pair.' },
  identity_mismatch: { type: 'not_found', message: 'The resolved listing differs from the requested one.' },
  no_availability: { type: 'not_found', message: 'At least one night of the stay is taken.' },
  price_not_found: { type: 'not_found', message: 'The platform did not quote this listing for these dates and party.' },
  no_observations: { type: 'not_found', message: 'Nothing was observed for this listing or location in the window.' },

  credit_balance_too_low: { type: 'insufficient_credits', message: 'The available credit balance is below the cost of this call.' },
  rate_limit_exceeded: { type: 'rate_limited', message: 'Rate limit exceeded.' },

  all_actors_failed: { type: 'upstream_unavailable', message: 'Every upstream source failed.' },
  actor_blocked: { type: 'upstream_unavailable', message: 'The upstream blocked the request and returned no usable rows.' },
  upstream_degraded: { type: 'upstream_unavailable', message: 'Every upstream source failed or was blocked.' },
  upstream_unavailable: { type: 'upstream_unavailable', message: 'No upstream source is configured for live keys.' },
  actor_timeout: { type: 'upstream_timeout', message: 'The upstream work timed out without data.' },
  // The service's own database, not a booking platform; 503 like the upstream failures, so clients
  // that branch on type back off and retry (docs/decisions.md).
  database_unavailable: { type: 'upstream_unavailable', retryAfter: 2, message: 'The database cannot be reached right now; retry in a few seconds.' },
  service_overloaded: { type: 'upstream_unavailable', retryAfter: 1, message: 'The service is at capacity right now; retry in a few seconds.' },

  internal_error: { type: 'internal_error', message: 'An unexpected error occurred.' },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];
export const ALL_ERROR_TYPES = Object.keys(ERROR_TYPES) as ErrorType[];

export function isErrorCode(c: string): c is ErrorCode {
  return Object.hasOwn(ERROR_CODES, c);
}

export function errorInfo(code: ErrorCode): { type: ErrorType; status: number; retryable: boolean; message: string } {
  const spec: CodeSpec = ERROR_CODES[code];
  const t = ERROR_TYPES[spec.type];
  return {
    type: spec.type,
    status: spec.status ?? t.status,
    retryable: spec.retryable ?? t.retryable,
    message: spec.message,
  };
}

export interface ServiceErrorOptions {
  param?: string | null;
  /** Seconds, for the Retry-After header (429, 503). */
  retryAfter?: number;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly status: number;
  readonly retryable: boolean;
  readonly param: string | null;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message?: string, opts: ServiceErrorOptions = {}) {
    const info = errorInfo(code);
    super(message ?? info.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.type = info.type;
    this.status = info.status;
    this.retryable = info.retryable;
    this.param = opts.param ?? null;
    this.retryAfter = opts.retryAfter ?? (ERROR_CODES[code] as CodeSpec).retryAfter;
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

/** An upstream failure (503/504 types): a failed leg or source, as opposed to a definitive answer or a bug. */
export function isUpstreamFailure(e: unknown): e is ServiceError {
  return e instanceof ServiceError && (e.type === 'upstream_unavailable' || e.type === 'upstream_timeout');
}

/** The wire error object (without requestId and docUrl, which the face adds). */
export interface ErrorBody {
  type: ErrorType;
  code: ErrorCode;
  message: string;
  param: string | null;
  requestId: string;
  creditsCharged: 0;
  retryable: boolean;
  docUrl: string;
}

/**
 * The page documenting a code: `<base>/errors/<code>` under a docs site (a server's own /docs, or
 * STAYS_DOCS_URL); under the documentation shipped with the package (a file: URL, in-process)
 * one Markdown file per kind with an anchor per code, `<base>/errors.md#<code>`.
 */
export function docPageUrl(docsUrl: string, kind: 'errors' | 'warnings', code: string): string {
  const base = docsUrl.replace(/\/+$/, '');
  return base.startsWith('file:') ? `${base}/${kind}.md#${code}` : `${base}/${kind}/${code}`;
}

export function errorBody(err: ServiceError, requestId: string, docsUrl: string): ErrorBody {
  return {
    type: err.type,
    code: err.code,
    message: err.message,
    param: err.param,
    requestId,
    creditsCharged: 0,
    retryable: err.retryable,
    docUrl: docPageUrl(docsUrl, 'errors', err.code),
  };
}
