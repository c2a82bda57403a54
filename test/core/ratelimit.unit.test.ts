// Per-key token buckets (src/core/ratelimit.ts) on a manual clock: N requests per minute as a
// bucket of N refilled continuously, the header figures, Retry-After. The HTTP tests show the
// headers and the 429 end to end (test/http/auth.inprocess.test.ts).
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { RateLimiter, takeShared } from '../../src/core/ratelimit.js';
import type { SharedState } from '../../src/core/ports/store.js';

const T0 = Date.UTC(2026, 0, 1);

describe('RateLimiter', () => {
  it('a full bucket of N allows N requests at once, then refuses with Retry-After in whole seconds', () => {
    const clock = manualClock(T0);
    const rl = new RateLimiter(clock);
    const got = Array.from({ length: 4 }, () => rl.take('k', 3));
    expect(got.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(got.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(got.every((d) => d.limit === 3)).toBe(true);
    expect(got.slice(0, 3).every((d) => d.retryAfter === 0)).toBe(true);
    // 3 per minute: a token every 20 s.
    expect(got[3]!.retryAfter).toBe(20);
    // Full again 60 s after the third request emptied it.
    expect(got[2]!.resetAt).toBe(Math.ceil((T0 + 60_000) / 1000));
  });

  it('refills continuously: one token after 60/N seconds, never above N', () => {
    const clock = manualClock(T0);
    const rl = new RateLimiter(clock);
    for (let i = 0; i < 3; i++) rl.take('k', 3);
    clock.advance(19_999);
    const early = rl.take('k', 3);
    expect(early.allowed).toBe(false);
    expect(early.retryAfter).toBe(1);
    clock.advance(1);
    expect(rl.take('k', 3).allowed).toBe(true);
    // An hour idle fills it to 3, not more.
    clock.advance(3_600_000);
    expect(Array.from({ length: 4 }, () => rl.take('k', 3).allowed)).toEqual([true, true, true, false]);
  });

  it('buckets are per id; a changed limit starts a fresh bucket at the new size', () => {
    const clock = manualClock(T0);
    const rl = new RateLimiter(clock);
    expect(rl.take('a', 1).allowed).toBe(true);
    expect(rl.take('a', 1).allowed).toBe(false);
    expect(rl.take('b', 1).allowed).toBe(true);
    const raised = rl.take('a', 5);
    expect(raised).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
  });

  it('a limit below 1 or fractional is floored, to at least 1', () => {
    const rl = new RateLimiter(manualClock(T0));
    expect(rl.take('x', 0).limit).toBe(1);
    expect(rl.take('y', 2.9).limit).toBe(2);
  });

  it('past maxBuckets, buckets that have refilled are evicted; a partly used one is kept', () => {
    const clock = manualClock(T0);
    const rl = new RateLimiter(clock, 2);
    rl.take('used', 2);
    rl.take('used', 2);
    rl.take('idle', 60);
    clock.advance(2_000); // 'idle' (1/s) is full again; 'used' (1 per 30 s) is not
    rl.take('new', 60); // evicts 'idle' only
    // 'used' kept its state: still empty.
    expect(rl.take('used', 2).allowed).toBe(false);
  });
});

describe('takeShared', () => {
  it("turns the shared bucket's answer into the same figures as the in-process limiter", async () => {
    const clock = manualClock(T0);
    const calls: [string, number, number][] = [];
    const shared = {
      takeToken: async (id: string, capacity: number, now: number) => {
        calls.push([id, capacity, now]);
        return { allowed: false, tokens: 0.5 };
      },
    } as unknown as SharedState;
    const d = await takeShared(shared, clock, 'k', 6);
    expect(calls).toEqual([['k', 6, T0]]);
    // 6 per minute: a token every 10 s; half a token left, so 5 s to wait.
    expect(d).toEqual({ allowed: false, limit: 6, remaining: 0, resetAt: Math.ceil((T0 + 55_000) / 1000), retryAfter: 5 });
  });
});
