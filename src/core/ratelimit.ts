// Per-key token buckets (spec Limits: per-plan requests per minute, per key for REST).
// With the embedded store, buckets live in the process: one server owns its keys' buckets. On a
// shared store (PostgreSQL), a key's bucket lives in the database, so N requests per minute is N
// across every instance (`takeShared`).
import type { Clock } from './clock.js';
import { ServiceError } from './errors.js';
import type { SharedState } from './ports/store.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the bucket is full again. */
  resetAt: number;
  /** Whole seconds until a request would be allowed (0 when allowed). */
  retryAfter: number;
}

interface Bucket {
  tokens: number;
  updated: number;
  capacity: number;
}

/** The one rate-limit refusal: 429 rate_limit_exceeded with Retry-After, when `d` refused the request. */
export function refuseIfLimited(d: RateDecision, what: string): void {
  if (!d.allowed) throw new ServiceError('rate_limit_exceeded', `${what}; retry in ${d.retryAfter} s.`, { retryAfter: d.retryAfter });
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly clock: Clock,
    private readonly maxBuckets = 100_000,
  ) {}

  take(id: string, perMinute: number): RateDecision {
    const now = this.clock.now();
    const capacity = Math.max(1, Math.floor(perMinute));
    const ratePerMs = capacity / 60_000;
    let b = this.buckets.get(id);
    if (!b || b.capacity !== capacity) {
      b = { tokens: capacity, updated: now, capacity };
      if (this.buckets.size >= this.maxBuckets) this.evictFull(now);
      this.buckets.set(id, b);
    } else {
      b.tokens = Math.min(capacity, b.tokens + (now - b.updated) * ratePerMs);
      b.updated = now;
    }
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    return decide(allowed, b.tokens, capacity, now);
  }

  /** Where a bucket stands, taking nothing (the headers of an answer that is not the caller's to count). */
  peek(id: string, perMinute: number): RateDecision {
    const now = this.clock.now();
    const capacity = Math.max(1, Math.floor(perMinute));
    const b = this.buckets.get(id);
    const tokens = !b || b.capacity !== capacity ? capacity : Math.min(capacity, b.tokens + (now - b.updated) * (capacity / 60_000));
    return decide(tokens >= 1, tokens, capacity, now);
  }

  /** Buckets that have refilled carry no state worth keeping. */
  private evictFull(now: number): void {
    for (const [id, b] of this.buckets) {
      if (b.tokens + (now - b.updated) * (b.capacity / 60_000) >= b.capacity) this.buckets.delete(id);
    }
  }
}

/** The headers' figures for a bucket left with `tokens` of `capacity` after this request. */
function decide(allowed: boolean, tokens: number, capacity: number, now: number): RateDecision {
  const ratePerMs = capacity / 60_000;
  const msToFull = (capacity - tokens) / ratePerMs;
  return {
    allowed,
    limit: capacity,
    remaining: Math.max(0, Math.floor(tokens)),
    resetAt: Math.ceil((now + msToFull) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / ratePerMs / 1000)),
  };
}

/** Takes a token from a bucket every instance on the shared store sees. */
export async function takeShared(shared: SharedState, clock: Clock, id: string, perMinute: number): Promise<RateDecision> {
  const now = clock.now();
  const capacity = Math.max(1, Math.floor(perMinute));
  const t = await shared.takeToken(id, capacity, now);
  return decide(t.allowed, t.tokens, capacity, now);
}
