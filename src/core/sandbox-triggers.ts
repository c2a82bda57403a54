// Sandbox triggers (D21): magic search locations and magic listing ids that reproduce every error a
// live call can give, so CI smoke tests can exercise error paths with a sandbox key.
// The table is documented for users in docs/sandbox.md; sandboxTriggers() below describes it from
// these very tables for `stays help sandbox`.
import type { EnabledPlatform } from './platforms.js';
import { type ErrorCode, ServiceError, errorInfo } from './errors.js';

export type MagicId = '402' | '404' | '409' | '410' | '411' | '429' | '502' | '503' | '504';

const MAGIC_IDS: Record<MagicId, { code: ErrorCode; what: string; priceOnly: boolean }> = {
  // Admission errors (issue 22): the whole call is refused, as a live one with too few credits or
  // too many requests is, before any platform is asked (execute.ts promotes them from the leg).
  '402': { code: 'credit_balance_too_low', what: 'costs more credits than the account has: the call is refused', priceOnly: false },
  '429': { code: 'rate_limit_exceeded', what: 'is rate limited: the call is refused', priceOnly: false },
  '404': { code: 'listing_not_found', what: 'does not exist', priceOnly: false },
  '409': { code: 'identity_mismatch', what: 'resolves to a different listing', priceOnly: false },
  '410': { code: 'no_availability', what: 'has no availability for any stay', priceOnly: true },
  '411': { code: 'price_not_found', what: 'is never quoted for any stay', priceOnly: true },
  '502': { code: 'actor_blocked', what: 'is blocked upstream', priceOnly: false },
  '503': { code: 'all_actors_failed', what: 'fails on every upstream source', priceOnly: false },
  '504': { code: 'actor_timeout', what: 'times out upstream', priceOnly: false },
};

/** The magic value of a listing id: its last path segment (booking `us/404` and airbnb `404` alike). */
export function magicOf(id: string): MagicId | null {
  const last = id.split('/').pop() ?? '';
  return Object.hasOwn(MAGIC_IDS, last) ? (last as MagicId) : null;
}

/**
 * Throws the ServiceError a magic id stands for. scope 'listing' covers listing detail,
 * availability and reviews; 'price' also throws the quote-only codes (410, 411).
 */
export function assertListing(id: string, scope: 'listing' | 'price'): void {
  const magic = magicOf(id);
  if (magic === null) return;
  const m = MAGIC_IDS[magic];
  if (m.priceOnly && scope !== 'price') return;
  throw new ServiceError(m.code, `Sandbox trigger: listing ${magic} ${m.what} (${m.code}).`, m.code === 'rate_limit_exceeded' ? { retryAfter: 1 } : {});
}

/** Leg errors that refuse the whole call in the sandbox, as admission refuses a live call (issue 22). */
export const isAdmissionTrigger = (e: ServiceError) => e.type === 'insufficient_credits' || e.type === 'rate_limited';

/**
 * Search location `pending` (issue 22): the call becomes a job (202) that runs this long, then
 * completes (free), so a client's wait on a job, and its timeout (CLI exit 8), can be tested.
 */
const PENDING = 'pending';
export const SANDBOX_PENDING_MS = 10 * 60_000;
export const isPendingLocation = (location: string) => locationTrigger(location) === PENDING;

/** The pending job's run time; the timer does not keep a process alive (an exiting CLI stops the job). */
export function sandboxPendingDelay(ms = SANDBOX_PENDING_MS): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

/** A quote-only magic id (410, 411): the listing exists, but no price can be given. */
export function isUnpriceable(id: string): boolean {
  const magic = magicOf(id);
  return magic !== null && MAGIC_IDS[magic].priceOnly;
}

/** The platform whose leg fails on location `partial`: the last of the default search order. */
const PARTIAL_FAILING_PLATFORM: EnabledPlatform = 'google';

const LOCATION_FAILURES: Record<string, { code: ErrorCode; what: string }> = {
  fail: { code: 'all_actors_failed', what: 'fails on every platform' },
  timeout: { code: 'actor_timeout', what: 'times out on every platform' },
  blocked: { code: 'actor_blocked', what: 'is blocked on every platform' },
};

function locationTrigger(location: string): string {
  return location.trim().toLowerCase();
}

/**
 * Throws for a failing search location; returns true when the location is `empty` (no rows).
 * `partial` fails only the google leg, so a default four-platform search has exactly one failed leg.
 */
const EMPTY = 'empty';
const PARTIAL = 'partial';
const SINGLE = 'single';

export function assertSearch(platform: EnabledPlatform, location: string): boolean {
  const key = locationTrigger(location);
  if (key === EMPTY) return true;
  if (key === PARTIAL && platform === PARTIAL_FAILING_PLATFORM) {
    throw new ServiceError('all_actors_failed', `Sandbox trigger: location "partial" fails the ${platform} leg (all_actors_failed).`);
  }
  const f = Object.hasOwn(LOCATION_FAILURES, key) ? LOCATION_FAILURES[key] : undefined;
  if (f) throw new ServiceError(f.code, `Sandbox trigger: location "${key}" ${f.what} (${f.code}).`);
  return false;
}

/** Location and name triggers of google-mode price comparison: fail, timeout, blocked throw; empty has no offers. */
export function assertCompare(text: string | undefined): 'empty' | 'single' | null {
  if (text === undefined) return null;
  const key = locationTrigger(text);
  const f = Object.hasOwn(LOCATION_FAILURES, key) ? LOCATION_FAILURES[key] : undefined;
  if (f) throw new ServiceError(f.code, `Sandbox trigger: "${key}" ${f.what} (${f.code}).`);
  return key === EMPTY || key === SINGLE ? key : null;
}

/** One documented trigger: what to send, where, and what comes back. */
export interface SandboxTrigger {
  /** The parameter that carries it. */
  input: 'location' | 'listingId' | 'name or location';
  value: string;
  /** The operations it works on. */
  operations: string;
  /** What the call answers. */
  effect: string;
  /** The error code it gives (of the call, or of one platform leg when the call still answers 200), or null. */
  code: ErrorCode | null;
  /** The HTTP status of the answer. */
  status: number;
}

/**
 * Every trigger, described from the tables above (so `stays help sandbox` cannot drift from what
 * the sandbox does). Search locations and comparison names match case-insensitively after trimming;
 * a listing id matches by its last path segment (booking `us/404` as airbnb `404`).
 */
export function sandboxTriggers(): SandboxTrigger[] {
  const status = (code: ErrorCode) => errorInfo(code).status;
  const listingOps = 'listing, price, price-compare, availability, reviews';
  return [
    { input: 'location', value: EMPTY, operations: 'search', effect: 'every platform returns no rows (data [])', code: null, status: 200 },
    {
      input: 'location',
      value: PENDING,
      operations: 'search',
      effect: `a job (202) that runs ${SANDBOX_PENDING_MS / 60_000} minutes, then completes: waiting on it times out (stays search pending --timeout 3s exits 8)`,
      code: null,
      status: 202,
    },
    {
      input: 'location',
      value: PARTIAL,
      operations: 'search',
      effect: `the ${PARTIAL_FAILING_PLATFORM} leg fails, the others answer (meta.partial true)`,
      code: 'all_actors_failed',
      status: 200,
    },
    ...Object.entries(LOCATION_FAILURES).map(([value, f]) => ({
      input: 'location' as const,
      value,
      operations: 'search',
      effect: `every platform leg ${f.what.replace(/ on every platform$/, '')} (${f.code}), so the search fails`,
      code: 'upstream_degraded' as const,
      status: status('upstream_degraded'),
    })),
    ...(Object.entries(MAGIC_IDS) as [MagicId, (typeof MAGIC_IDS)[MagicId]][]).map(([value, m]) => ({
      input: 'listingId' as const,
      value,
      operations: m.priceOnly ? 'price, price-compare' : listingOps,
      effect: `the listing ${m.what}`,
      code: m.code,
      status: status(m.code),
    })),
    { input: 'name or location', value: SINGLE, operations: 'price-compare', effect: 'exactly one offer: the lowest', code: null, status: 200 },
    { input: 'name or location', value: EMPTY, operations: 'price-compare', effect: 'no offers (min and median null)', code: null, status: 200 },
    ...Object.entries(LOCATION_FAILURES).map(([value, f]) => ({
      input: 'name or location' as const,
      value,
      operations: 'price-compare',
      effect: `the comparison ${f.what.replace(/ on every platform$/, '')}`,
      code: f.code,
      status: status(f.code),
    })),
  ];
}
