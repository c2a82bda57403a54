// Rows of either engine (snake_case columns, 0/1 integers for booleans, JSON text, milliseconds and
// credits as numbers) to the store's types: every row mapper of the store, in one place.
import type { KeyEnv } from '../core/ids.js';
import type { PlanCode, PlanStatus } from '../core/schemas/resources.js';
import type { AccountRow, ClaimedDelivery, CreditsRow, DeliveryLogRow, JobRow, JobSummaryRow, KeyRow, LedgerEntry, OAuthClientRow, WebhookEvent, WebhookRow } from '../core/ports/store.js';
import type { Row } from './sql/db.js';

export type { Row };

export function toAccount(r: Row): AccountRow {
  return {
    id: r.id as string,
    planCode: r.plan_code as PlanCode,
    planName: r.plan_name as string,
    planStatus: r.plan_status as PlanStatus,
    emailVerified: r.email_verified === 1,
    requestsPerMinute: r.requests_per_minute as number,
    freeTierBudget: r.free_tier_budget as number,
    disabled: r.disabled === 1,
    createdAt: r.created_at as number,
  };
}

export function toKey(r: Row): KeyRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    env: r.env as KeyEnv,
    scopes: (r.scopes as string).split(',').filter(Boolean),
    prefix: r.prefix as string,
    hash: r.hash as string,
    revoked: r.revoked_at !== null,
    createdAt: r.created_at as number,
  };
}

export function toLedger(r: Row): LedgerEntry {
  return {
    id: r.id as number,
    accountId: r.account_id as string,
    kind: r.kind as LedgerEntry['kind'],
    amount: r.amount as number,
    balanceAfter: r.balance_after as number,
    requestId: (r.request_id as string | null) ?? null,
    jobId: (r.job_id as string | null) ?? null,
    keyId: (r.key_id as string | null) ?? null,
    note: (r.note as string | null) ?? null,
    createdAt: r.created_at as number,
  };
}

function parseJson(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : null;
}

export function toJob(r: Row): JobRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    env: r.env as KeyEnv,
    requestId: r.request_id as string,
    operation: r.operation as string,
    status: r.status as JobRow['status'],
    platforms: JSON.parse(r.platforms as string) as string[],
    result: parseJson(r.result),
    meta: parseJson(r.meta),
    error: parseJson(r.error),
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
    expiresAt: (r.expires_at as number | null) ?? null,
    estimatedSeconds: r.estimated_seconds as number,
    owner: (r.owner as string | null) ?? null,
    leaseExpiresAt: r.lease_expires_at as number,
  };
}

/** A row of the job list query: the job without result and meta, with its charge. */
export function toJobSummary(r: Row): JobSummaryRow {
  const { result: _r, meta: _m, ...job } = toJob({ ...r, result: null, meta: null });
  return { ...job, creditsCharged: typeof r.credits_charged === 'number' ? r.credits_charged : 0 };
}

/** A balance row (balance, held, spent); no row reads as zeros. */
export function toCredits(r: Row | undefined): CreditsRow {
  return { balance: (r?.balance as number) ?? 0, held: (r?.held as number) ?? 0, spent: (r?.spent as number) ?? 0, expiringSoon: 0 };
}

export function toWebhook(r: Row): WebhookRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    env: r.env as WebhookRow['env'],
    url: r.url as string,
    events: JSON.parse(r.events as string) as WebhookEvent[],
    description: (r.description as string | null) ?? null,
    secretEnc: r.secret as string,
    revokedAt: (r.revoked_at as number | null) ?? null,
    createdAt: r.created_at as number,
    consecutiveFailures: (r.consecutive_failures as number | null) ?? 0,
    disabledAt: (r.disabled_at as number | null) ?? null,
    disabledReason: (r.disabled_reason as string | null) ?? null,
  };
}

export const toDelivery = (r: Row): ClaimedDelivery => ({
  id: r.id as string,
  webhookId: r.webhook_id as string,
  event: r.event as WebhookEvent,
  body: r.body as string,
  attempts: r.attempts as number,
  url: r.url as string,
  secretEnc: r.secret as string,
});

export const toDeliveryLog = (r: Row): DeliveryLogRow => ({
  eventId: (r.event_id as string | null) ?? '',
  event: r.event as WebhookEvent,
  attempt: r.attempt as number,
  statusCode: (r.status_code as number | null) ?? null,
  responsePreview: (r.response_preview as string | null) ?? null,
  delivered: r.delivered === 1,
  attemptedAt: r.attempted_at as number,
});

export const toClient = (r: Row): OAuthClientRow => ({
  id: r.id as string,
  name: (r.name as string | null) ?? null,
  redirectUris: JSON.parse(r.redirect_uris as string) as string[],
  createdAt: r.created_at as number,
});
