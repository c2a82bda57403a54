// Watches (issue 26, item 4): calls the server makes again on an interval, and the events their
// rules raised. Part of the store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

export type WatchStatus = 'active' | 'ended' | 'deleted';

/**
 * Events a watch keeps (issue 35, item 2): its newest WATCH_EVENTS_KEPT, each at most
 * WATCH_EVENT_RETENTION_MS old (the expiry sweep takes older ones).
 */
export const WATCH_EVENTS_KEPT = 1_000;
export const WATCH_EVENT_RETENTION_MS = 90 * 86_400_000;
export type WatchRunOutcome = 'ok' | 'failed' | 'skipped' | 'pending';

export interface WatchRow {
  id: string;
  accountId: string;
  /** The key that created it: every run is made as that key (revoked: the watch ends). */
  keyId: string;
  env: KeyEnv;
  name: string | null;
  /** { type, params }: the call, as the API took it. */
  call: { type: string; params: Record<string, unknown> };
  rules: Record<string, unknown>[];
  intervalMinutes: number;
  maxCreditsPerDay: number | null;
  status: WatchStatus;
  endedReason: string | null;
  createdAt: number;
  nextRunAt: number;
  lastRunAt: number | null;
  lastOutcome: WatchRunOutcome | null;
  lastCharged: number;
  lastError: { code: string; message: string } | null;
  /** What the last successful run saw, which the next one compares with (null before the first). */
  state: unknown;
  /** The UTC day creditsToday counts (YYYY-MM-DD). */
  creditsDay: string | null;
  creditsToday: number;
  runs: number;
  triggers: number;
}

export type NewWatch = Pick<WatchRow, 'id' | 'accountId' | 'keyId' | 'env' | 'name' | 'call' | 'rules' | 'intervalMinutes' | 'maxCreditsPerDay' | 'createdAt' | 'nextRunAt'>;

export interface NewWatchEvent {
  /** wev_…: also the watch.triggered webhook event's watch_event_id. */
  id: string;
  rule: Record<string, unknown>;
  before: unknown;
  after: unknown;
  changes: unknown[];
}

export interface WatchEventRow extends NewWatchEvent {
  watchId: string;
  occurredAt: number;
}

/** What one run of a watch leaves: its outcome and, when it saw an answer, the state the next run compares with. */
export interface WatchRunRecord {
  at: number;
  outcome: WatchRunOutcome;
  charged: number;
  error: { code: string; message: string } | null;
  /** Undefined: the state stays as it was (a failed, skipped or pending run). */
  state?: unknown;
  creditsDay: string;
  creditsToday: number;
  /** Set when the watch can run no more (its call is no longer valid, its key revoked). */
  endedReason?: string;
}

/** Which due watches a claim may take (claimDueWatches). */
export interface WatchClaim {
  accountId?: string;
  env?: KeyEnv;
  /** A watch is due from this long before its next run (0 when omitted). */
  slackMs?: number;
  /** At most this many of one account (all when omitted). */
  perAccount?: number;
  /** Accounts none of whose watches are claimed (their runs in flight are at the caller's bound). */
  skipAccounts?: readonly string[];
}

export interface WatchStore {
  /** Creates a watch unless the account already keeps `maxActive` (active and ended; then null), counted in the same transaction. */
  createWatch(w: NewWatch, maxActive: number): Promise<WatchRow | null>;
  /** The account's watches of one environment, not deleted, newest first; after the cursor's (createdAt, id). */
  listWatches(accountId: string, env: KeyEnv, after: { createdAt: number; id: string } | null, limit: number): Promise<WatchRow[]>;
  getWatch(id: string): Promise<WatchRow | null>;
  /** Deletes it and its events at once (no more runs); the row as it was, status deleted. Null if not the account's. */
  deleteWatch(id: string, accountId: string, at: number): Promise<WatchRow | null>;
  /**
   * Claims up to `limit` active watches due at `now` (from `slackMs` before their next run; those
   * due first, when more are due) of environment `env` (all when omitted), of `accountId` (all when
   * omitted), at most `perAccount` of one account and none of `skipAccounts`, moving each one's
   * next run to its nominal time after the one claimed (created at + k × interval), in one
   * statement: two processes never run the same watch for the same interval.
   */
  claimDueWatches(now: number, limit: number, o?: WatchClaim): Promise<WatchRow[]>;
  /** Records a run and the events it raised, in one transaction. */
  finishWatchRun(id: string, run: WatchRunRecord, events: NewWatchEvent[]): Promise<void>;
  /** A watch's events, oldest first, after the cursor's (occurredAt, id). */
  watchEvents(watchId: string, after: { occurredAt: number; id: string } | null, limit: number): Promise<WatchEventRow[]>;
}
