// A validated call, ready to run: its upstream legs (each cacheable on its own) and how to
// compose their outcomes into the answer. Every Family U data operation builds one; the
// executor (execute.ts) runs it for sandbox keys at once, for live keys through cache, holds,
// jobs and coalescing.
import type { ServiceError } from './errors.js';
import type { Platform } from './platforms.js';
import type { NewObservation } from './ports/store.js';
import type { Meta, Pagination, PlatformResult, Warning } from './schemas/resources.js';
import type { Need, Upstream } from './upstream.js';

export interface Leg {
  platform: Platform;
  /** Cache and coalescing key: identical keys are the same upstream question. */
  key: string;
  ttlMs: number;
  fetch(u: Upstream): Promise<unknown>;
  /** What the leg asks of its platform, for the upstream's capabilities (Upstream.unsupported). */
  need?: Need;
  /** Whether a fetched value may be cached (default: always). A composite leg holding a failure must not outlive it. */
  cacheable?(value: unknown): boolean;
  /** A listing's own data (not a price or a search): refreshing it in the cache is a stay.cached event. */
  stay?: { platform: Platform; id: string };
  /** What a fetched answer tells about listings, recorded as observations (issue 26, src/core/observe.ts). */
  observe?(value: unknown): NewObservation[];
  /** Sandbox only: the call becomes a long-running job (search location `pending`, issue 22). */
  sandboxPending?: boolean;
}

/** `source` names who served a fetched leg (the upstream's report, else its name); cached legs have none. */
export type LegOutcome = { ok: true; value: unknown; cached: boolean; source?: string } | { ok: false; error: ServiceError };

export interface Composed<T> {
  data: T;
  /** Per platform, with creditsCharged at the operation's tier (zeroed for sandbox keys). */
  platformResults: PlatformResult[];
  warnings: Omit<Warning, 'docUrl'>[];
  pagination?: Pagination | null;
  /** Search only: the platforms whose cap cut their answer (meta.truncated, issue 38). */
  truncated?: NonNullable<Meta['truncated']>;
}

export interface Plan<T> {
  operation: string;
  platforms: Platform[];
  currency: string;
  /** D5: the most this call can cost; held at admission. */
  worstCase: number;
  legs: Leg[];
  /** Builds the answer from the legs' outcomes (same order); throws a ServiceError on total failure. */
  compose(outcomes: LegOutcome[]): Composed<T>;
}

/** Cache lifetimes (spec Limits, D20); search is our choice (docs/decisions.md). */
export const TTL = {
  price: 3_600_000,
  compare: 3_600_000,
  availability: 6 * 3_600_000,
  listing: 24 * 3_600_000,
  search: 15 * 60_000,
  reviews: 6 * 3_600_000,
} as const;
