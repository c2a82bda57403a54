// Webhooks (issue 10): registrations, a durable outbox of deliveries, and the attempt log. Part of
// the store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

/** How long ended deliveries and their attempt log are kept (docs/decisions.md). */
export const WEBHOOK_LOG_RETENTION_MS = 30 * 86_400_000;

export const WEBHOOK_EVENTS = ['job.queued', 'job.running', 'job.succeeded', 'job.failed', 'stay.cached', 'watch.triggered'] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookRow {
  id: string;
  accountId: string;
  /**
   * The environment of the key that created it (issue 21): only keys of that environment see,
   * delete or read the deliveries of it, and only that environment's events reach it.
   */
  env: KeyEnv;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  /** The signing secret, encrypted at rest (src/secrets.ts); never the plain secret. */
  secretEnc: string;
  revokedAt: number | null;
  createdAt: number;
  /** Failed attempts in a row (any delivery); a delivered one resets it (issue 21). */
  consecutiveFailures: number;
  /** Set once it failed `disableAfter` times in a row: no deliveries any more (issue 21). */
  disabledAt: number | null;
  disabledReason: string | null;
}

export type NewWebhook = Omit<WebhookRow, 'revokedAt' | 'consecutiveFailures' | 'disabledAt' | 'disabledReason'>;

/**
 * A webhook that keeps failing is slowed, then disabled (issue 21, docs/decisions.md): after
 * WEBHOOK_PAUSE_AFTER failed attempts in a row its next delivery waits webhookPauseMs(n), doubling
 * from 1 s up to 5 min; after `disableAfter` (STAYS_WEBHOOK_DISABLE_AFTER) it is disabled and what
 * it had queued is cancelled. A delivered attempt resets the count.
 */
const WEBHOOK_PAUSE_AFTER = 3;

export const WEBHOOK_DISABLE_AFTER = 20;

export function webhookPauseMs(consecutiveFailures: number): number {
  if (consecutiveFailures < WEBHOOK_PAUSE_AFTER) return 0;
  return Math.min(1_000 * 2 ** Math.min(consecutiveFailures - WEBHOOK_PAUSE_AFTER, 20), 300_000);
}

/** Why a webhook was disabled, for GET /v1/webhooks. */
export const disabledReason = (n: number, last: string | null | undefined) =>
  `${n} delivery attempts in a row failed${last ? ` (the last: ${last})` : ''}; no more deliveries are sent. Fix the receiver, then delete this webhook and create another.`;

/** One event for one webhook, queued until it is delivered or has used its attempts. */
export interface NewDelivery {
  /** The event id (evt_…): the same on every attempt, so receivers can de-duplicate. */
  id: string;
  webhookId: string;
  event: WebhookEvent;
  /** The exact JSON body that is signed and sent on every attempt. */
  body: string;
  createdAt: number;
}

/** A delivery claimed by one process (its lease), with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  event: WebhookEvent;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  url: string;
  secretEnc: string;
}

export interface DeliveryAttempt {
  deliveryId: string;
  owner: string;
  /** 1, 2 or 3. */
  attempt: number;
  statusCode: number | null;
  /** The first 500 bytes of the receiver's answer (or why there was none). */
  responsePreview: string | null;
  delivered: boolean;
  at: number;
  /** When to try again; null: done (delivered, or out of attempts). */
  retryAt: number | null;
  /** When the attempt ended (default `at`): a failing webhook's pause counts from here. */
  endedAt?: number;
  /** A failure in a few words for the webhook's disabled reason ("HTTP 503", "no answer within …"). */
  failure?: string | null;
  /** Failed attempts in a row after which the webhook is disabled (default WEBHOOK_DISABLE_AFTER). */
  disableAfter?: number;
}

export interface DeliveryLogRow {
  eventId: string;
  event: WebhookEvent;
  attempt: number;
  statusCode: number | null;
  responsePreview: string | null;
  delivered: boolean;
  attemptedAt: number;
}

export interface WebhookStore {
  /**
   * Registers a webhook unless the account already has `maxActive` active ones (then null),
   * counted and written in one transaction so concurrent creations cannot pass the cap together.
   */
  createWebhook(w: NewWebhook, maxActive?: number): Promise<WebhookRow | null>;
  /** The account's webhooks of one environment (revoked ones too: the record stays for audit), newest first. */
  listWebhooks(accountId: string, env: KeyEnv): Promise<WebhookRow[]>;
  getWebhook(id: string): Promise<WebhookRow | null>;
  /** Soft delete: marks it revoked and cancels its queued deliveries, in one transaction. Null if not the account's. */
  revokeWebhook(id: string, accountId: string, at: number): Promise<WebhookRow | null>;
  /** The account's active (neither deleted nor disabled) webhooks of environment `env` subscribed to `event`. */
  webhooksFor(accountId: string, event: WebhookEvent, env: KeyEnv): Promise<WebhookRow[]>;
  /** Queues deliveries, due at once. */
  enqueueDeliveries(d: NewDelivery[]): Promise<void>;
  /**
   * Claims up to `limit` due deliveries (next attempt at or before `now`, unowned or with an
   * expired lease) of active webhooks for `owner` until `leaseUntil`, in one transaction: two
   * processes never claim the same delivery. Deliveries of revoked webhooks are cancelled.
   * Oldest first (due time, then the order they were queued). `onePerWebhook`: at most one per
   * webhook, and none of a webhook one of whose deliveries is held under a current lease, so a
   * receiver gets its events one at a time, in order, and a slow one holds a single slot.
   * `perAccount` (with onePerWebhook; issue 21): fair across accounts: at most that many of one
   * account's deliveries in flight (any process), and claimed round-robin: the account with the
   * fewest in flight first, each account's oldest first. Deliveries of disabled or paused
   * (failing, webhookPauseMs) webhooks are not claimed.
   */
  claimDeliveries(owner: string, now: number, leaseUntil: number, limit: number, opts?: { onePerWebhook?: boolean; perAccount?: number }): Promise<ClaimedDelivery[]>;
  /**
   * Records one attempt (a row of the log) and, if `owner` still holds the delivery, its next
   * state (retry at, or done), releasing the claim; in one transaction. False if the claim was lost.
   * Counts the webhook's failures in a row: past WEBHOOK_PAUSE_AFTER its next delivery waits
   * webhookPauseMs; at `disableAfter` it is disabled and its queued deliveries cancelled.
   */
  recordAttempt(a: DeliveryAttempt): Promise<boolean>;
  /** When the next queued delivery is due, its webhook's pause included (null: none), so a dispatcher can sleep until then. */
  nextDeliveryAt(): Promise<number | null>;
  /** Those of `ids` still queued (not yet delivered, out of attempts or cancelled). */
  pendingDeliveries(ids: string[]): Promise<string[]>;
  /**
   * Queues delivery `deliveryId` of webhook `webhookId` again (issue 22): due at `now`, with its
   * attempts reset and no owner; 'pending' when it is still queued (nothing changes), 'missing'
   * when the webhook has no such delivery (or it was purged).
   */
  resendDelivery(webhookId: string, deliveryId: string, now: number): Promise<'queued' | 'pending' | 'missing'>;
  /** The most recent attempts of a webhook, newest first. */
  listDeliveries(webhookId: string, limit: number): Promise<DeliveryLogRow[]>;
}
