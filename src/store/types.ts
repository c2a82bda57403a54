// The store port. The core talks only to this interface; SQLite implements it now and a
// PostgreSQL implementation can fill it later. Every credit change happens inside one store
// transaction that writes a ledger row (house rule 7).
import type { KeyEnv } from '../core/ids.js';
import type { PlanCode, PlanStatus } from '../core/schemas/resources.js';

export interface AccountRow {
  id: string;
  planCode: PlanCode;
  planName: string;
  planStatus: PlanStatus;
  emailVerified: boolean;
  requestsPerMinute: number;
  freeTierBudget: number;
  disabled: boolean;
  createdAt: number;
}

export interface KeyRow {
  id: string;
  accountId: string;
  env: KeyEnv;
  scopes: string[];
  /** First characters of the key, safe to show (e.g. stay_test_AbC1). */
  prefix: string;
  /** SHA-256 of the key; the key itself is never stored. */
  hash: string;
  revoked: boolean;
  createdAt: number;
}

export interface CreditsRow {
  balance: number;
  held: number;
  /** Lifetime credits charged (for the free-tier budget, D7). */
  spent: number;
  expiringSoon: number;
}

export interface LedgerEntry {
  id: number;
  accountId: string;
  kind: 'grant' | 'topup' | 'charge' | 'adjust';
  /** Signed change of the balance. */
  amount: number;
  balanceAfter: number;
  requestId: string | null;
  jobId: string | null;
  note: string | null;
  createdAt: number;
}

export type NewAccount = Omit<AccountRow, 'disabled'>;

export interface NewKey {
  id: string;
  accountId: string;
  env: KeyEnv;
  scopes: string[];
  hash: string;
  prefix: string;
  createdAt: number;
}

export interface JobRow {
  id: string;
  accountId: string;
  requestId: string;
  operation: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  platforms: string[];
  result: unknown;
  meta: unknown;
  error: unknown;
  estimatedSeconds: number;
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
}

export interface NewHold {
  id: string;
  accountId: string;
  amount: number;
  requestId: string;
  jobId: string | null;
  at: number;
  /** Free plan: lifetime spend plus holds may not pass this (D7); null for paid plans. */
  freeTierBudget: number | null;
}

export type HoldResult =
  | { ok: true; credits: CreditsRow }
  | { ok: false; reason: 'balance' | 'free_tier'; credits: CreditsRow };

export interface NewJob {
  id: string;
  accountId: string;
  requestId: string;
  operation: string;
  platforms: string[];
  estimatedSeconds: number;
  createdAt: number;
}

export interface JobPatch {
  status: JobRow['status'];
  result?: unknown;
  meta?: unknown;
  error?: unknown;
  updatedAt: number;
  expiresAt?: number | null;
}

export interface CacheHit {
  value: unknown;
  storedAt: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  createAccount(a: NewAccount, initialCredits: number, requestId: string | null): Promise<AccountRow>;
  getAccount(id: string): Promise<AccountRow | null>;
  /** Every account, oldest first (operators: `stays admin account list`). */
  listAccounts(): Promise<AccountRow[]>;
  createKey(k: NewKey): Promise<KeyRow>;
  /** The key with that hash and its account, whatever its revocation state. */
  findKeyByHash(hash: string): Promise<{ key: KeyRow; account: AccountRow } | null>;
  listKeys(accountId: string): Promise<KeyRow[]>;
  revokeKey(id: string, at: number): Promise<KeyRow | null>;
  getCredits(accountId: string): Promise<CreditsRow>;
  /** Adds credits (grant or top-up) in one transaction with its ledger row; returns the new figures. */
  addCredits(accountId: string, credits: number, kind: 'grant' | 'topup', ref: { requestId: string | null; note?: string }, at: number): Promise<CreditsRow>;
  ledger(accountId: string): Promise<LedgerEntry[]>;
  /**
   * D5: reserves `amount` if balance - held covers it (and, on the free plan, spent + held + amount
   * stays within the budget), in one transaction.
   */
  hold(h: NewHold): Promise<HoldResult>;
  /** Ends a hold: releases it and debits `charge` (<= the hold) with a ledger row, in one transaction. */
  settleHold(holdId: string, charge: number, ref: { requestId: string; jobId: string | null; at: number }): Promise<CreditsRow>;
  createJob(j: NewJob): Promise<void>;
  updateJob(id: string, patch: JobPatch): Promise<void>;
  getJob(id: string): Promise<JobRow | null>;
  /** At start-up, after a crash: jobs still pending or running fail with `error`, and every hold left over is released. */
  failOrphanJobs(error: unknown, at: number, expiresAt: number): Promise<string[]>;
  cacheGet(key: string, now: number): Promise<CacheHit | null>;
  cacheSet(key: string, value: unknown, storedAt: number, expiresAt: number): Promise<void>;
  close(): Promise<void>;
}
