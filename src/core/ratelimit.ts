// Per-key token buckets (spec Limits: per-plan requests per minute, per key for REST).
// Buckets live in the process: one server owns its keys' buckets. A shared limiter for several
// instances belongs with the PostgreSQL store.
import type { Clock } from './clock.js';

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

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly clock: Clock, private readonly maxBuckets = 100_000) {}

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
    const msToFull = (capacity - b.tokens) / ratePerMs;
    return {
      allowed,
      limit: capacity,
      remaining: Math.floor(b.tokens),
      resetAt: Math.ceil((now + msToFull) / 1000),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / ratePerMs / 1000)),
    };
  }

  /** Buckets that have refilled carry no state worth keeping. */
  private evictFull(now: number): void {
    for (const [id, b] of this.buckets) {
      if (b.tokens + (now - b.updated) * (b.capacity / 60_000) >= b.capacity) this.buckets.delete(id);
    }
  }
}
