// Idempotency keys (issue 21): a POST's first answer, replayed to a retry with the same key. Part
// of the store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

/** How long a key and its answer are kept (Stripe: 24 hours). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

/** Which key: an account's keys are separate per environment (sandbox and live are separate worlds). */
export interface IdempotencyRef {
  accountId: string;
  env: KeyEnv;
  key: string;
  /** Who claimed it: the request executing under it. */
  owner: string;
}

export interface IdempotencyClaim extends IdempotencyRef {
  /** SHA-256 of the method, path and body: a retry must send the same request. */
  fingerprint: string;
  now: number;
  /** The claim lapses then unless renewed (the process died mid-request): a retry may then execute. */
  leaseUntil: number;
  /** When the key (and its stored answer) is forgotten. */
  expiresAt: number;
}

/** An answer as it is replayed: status, the headers that belong to it, and the exact body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyState =
  /** Nobody had it (or its claim lapsed): the caller executes and then completes or releases it. */
  | { state: 'claimed' }
  /** Used with another request: refuse. */
  | { state: 'mismatch' }
  /** Another request with it is executing under a current claim. */
  | { state: 'in_progress' }
  /** Its first request ended: answer this again. */
  | { state: 'done'; answer: StoredAnswer };

export interface IdempotencyStore {
  /**
   * Claims idempotency key `c.key` of the account in one transaction (unique per account,
   * environment and key): claimed when no unexpired row has it, or its earlier claim for the same
   * request lapsed without an answer; else why not (another request, still running, or its answer).
   */
  claimIdempotencyKey(c: IdempotencyClaim): Promise<IdempotencyState>;
  /** Extends the claim while its request runs; false if `ref.owner` no longer holds it. */
  renewIdempotencyKey(ref: IdempotencyRef, leaseUntil: number): Promise<boolean>;
  /** Stores the answer of the claimed request, for replays; false if `ref.owner` no longer holds the claim. */
  completeIdempotencyKey(ref: IdempotencyRef, answer: StoredAnswer): Promise<boolean>;
  /** Drops `ref.owner`'s claim without an answer (a retryable failure): the next request with the key executes. */
  releaseIdempotencyKey(ref: IdempotencyRef): Promise<void>;
}
