// SQLite rows (snake_case columns, integers for booleans, JSON text) to the store's types.
import type { KeyEnv } from '../core/ids.js';
import type { PlanCode, PlanStatus } from '../core/schemas/resources.js';
import type { AccountRow, JobRow, JobSummaryRow, KeyRow, LedgerEntry } from '../core/ports/store.js';

export type Row = Record<string, unknown>;

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
