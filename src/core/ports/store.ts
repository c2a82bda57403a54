// The store port. The core talks only to this interface; SQLite and PostgreSQL implement it
// (src/store/sqlite, src/store/postgres). Every credit change happens inside one store
// transaction that writes a ledger row (house rule 7).
//
// Several processes may share one store (a restart overlapping the old server, `stays admin`,
// in-process CLI calls, later several servers). Work in flight is therefore owned: every job and
// every credit hold names the process that owns it and carries a lease that process renews while
// it works. Only an expired lease lets another process fail the job and release its hold, and a
// job settles only while its owner still holds it, so a job is never both settled and failed.
import type { KeyEnv } from '../ids.js';
import type { PlanCode, PlanStatus } from '../schemas/resources.js';

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
  /**
   * Set only when the caller is an OAuth access token acting for this key (its scopes then are
   * the token's): never a stored property of the key.
   */
  oauth?: { clientId: string; grantId: string; expiresAt: number };
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
  /** The key that made a top-up. */
  keyId: string | null;
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
  /** The environment of the key that created it; only keys of that environment see it. */
  env: KeyEnv;
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
  /** The process running it (while pending or running). */
  owner: string | null;
  leaseExpiresAt: number;
}

/** Who owns work in flight, and until when without a renewal. */
export interface Lease {
  owner: string;
  expiresAt: number;
}

/** The ids of a process's work in flight: jobs it runs, credit holds it will settle, flights it leads. */
export interface LiveWork {
  jobs: readonly string[];
  holds: readonly string[];
  flights: readonly string[];
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
  lease: Lease;
}

/**
 * A call whose cost is known before any work (every leg answered from the cache): admitted as a
 * hold of `admit` credits would be, and charged at once, with no hold between.
 */
export interface NewCharge {
  accountId: string;
  /** What a hold for the call would reserve (its worst case): the call is admitted exactly as hold() would admit that. */
  admit: number;
  /** What the call costs (<= admit): debited with its ledger row. */
  charge: number;
  requestId: string;
  at: number;
  /** Free plan: lifetime spend plus holds may not pass this with `admit` added (D7); null for paid plans. */
  freeTierBudget: number | null;
}

export type HoldResult = { ok: true; credits: CreditsRow } | { ok: false; reason: 'balance' | 'free_tier'; credits: CreditsRow };

export interface NewJob {
  id: string;
  accountId: string;
  env: KeyEnv;
  requestId: string;
  operation: string;
  platforms: string[];
  estimatedSeconds: number;
  createdAt: number;
  lease: Lease;
}

/** How a job ends: its hold settled for `charge` and the job recorded, in one transaction. */
export interface JobEnd {
  jobId: string;
  owner: string;
  holdId: string;
  charge: number;
  requestId: string;
  status: 'completed' | 'failed';
  result?: unknown;
  meta?: unknown;
  error?: unknown;
  at: number;
  /** When the finished job is deleted (D18: 24 hours after it ends). */
  expiresAt: number;
}

/** A job as a list shows it: without its result and meta, with what it charged. */
export interface JobSummaryRow extends Omit<JobRow, 'result' | 'meta'> {
  /** Its result meta's creditsCharged when completed, else 0. */
  creditsCharged: number;
}

export interface JobListQuery {
  accountId: string;
  env: KeyEnv;
  status: JobRow['status'] | null;
  /** Only jobs after this one in the list's order (created before it; the same instant, a lower id). */
  after: { createdAt: number; id: string } | null;
  limit: number;
  /** Jobs past their expiry are left out (D18: gone after 24 hours). */
  now: number;
}

export interface NewTopup {
  accountId: string;
  credits: number;
  keyId: string;
  requestId: string;
  at: number;
  /** The cap: credits topped up since `since` (this one included) may not pass `max`. */
  since: number;
  max: number;
}

export type TopupResult = { ok: true; credits: CreditsRow } | { ok: false; used: number };

export interface Purged {
  jobs: number;
  cache: number;
  /** Finished outbox rows and attempt-log rows past WEBHOOK_LOG_RETENTION_MS. */
  webhooks: number;
}

/** How long ended deliveries and their attempt log are kept (docs/decisions.md). */
export const WEBHOOK_LOG_RETENTION_MS = 30 * 86_400_000;

export interface CacheHit {
  value: unknown;
  storedAt: number;
}

// ---- Webhooks (issue 10): registrations, a durable outbox of deliveries, and the attempt log ----

export const WEBHOOK_EVENTS = ['job.queued', 'job.running', 'job.succeeded', 'job.failed', 'stay.cached'] as const;
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

// ---- Idempotency keys (issue 21): a POST's first answer, replayed to a retry with the same key ----

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

// ---- OAuth 2.1 for the MCP tool server (issue 12) ----

export interface OAuthClientRow {
  id: string;
  name: string | null;
  redirectUris: string[];
  createdAt: number;
}

/** Dynamic registration's bound per address: at most `max` clients from `address` within `windowMs` before the new one's createdAt. */
export interface RegistrationLimit {
  address: string;
  max: number;
  windowMs: number;
}

/** Registrations from the address are at their bound until `retryAt` (epoch ms). */
interface RegistrationRefused {
  retryAt: number;
}

/** How long a client that never got a grant (nor has a code outstanding) is kept: registration is unauthenticated. */
export const UNUSED_OAUTH_CLIENT_RETENTION_MS = 86_400_000;

/** A one-time authorization code, bound to everything the token request must repeat. */
interface NewOAuthCode {
  /** SHA-256 of the code; the code itself is never stored. */
  hash: string;
  clientId: string;
  redirectUri: string;
  /** The PKCE S256 code challenge. */
  challenge: string;
  scope: string;
  /** The API key the user signed in with: the tokens act for it. */
  keyId: string;
  expiresAt: number;
  createdAt: number;
}

interface NewOAuthToken {
  hash: string;
  expiresAt: number;
}

/** The first tokens of a new grant, issued for a code. */
export interface OAuthRedeem {
  codeHash: string;
  clientId: string;
  redirectUri: string;
  /** Whether the token request's code_verifier matches the code's challenge. */
  verify(challenge: string): boolean;
  grantId: string;
  access: NewOAuthToken;
  refresh: NewOAuthToken;
  now: number;
}

/** Why a code or refresh token was refused (`reused`: the grant it belongs to is now revoked). */
type OAuthRefusal = 'unknown' | 'expired' | 'reused' | 'revoked' | 'mismatch' | 'verifier';

export type OAuthIssued = { ok: true; scope: string; grantId: string } | { ok: false; reason: OAuthRefusal };

export interface OAuthRotate {
  hash: string;
  clientId: string;
  access: NewOAuthToken;
  refresh: NewOAuthToken;
  now: number;
}

/** An access token with the grant, key and account it acts for. */
export interface OAuthAccess {
  hash: string;
  expiresAt: number;
  scope: string;
  clientId: string;
  grantId: string;
  key: KeyRow;
  account: AccountRow;
}

/** A token-bucket decision (src/core/ratelimit.ts has the in-process one). */
interface TokenTake {
  allowed: boolean;
  /** Tokens left after this request (fractional). */
  tokens: number;
}

/** One upstream question in flight across instances (D19 coalescing on a shared store). */
type FlightClaim = { leader: true } | { leader: false; id: string };
type FlightState = { state: 'running' } | { state: 'done'; value: unknown } | { state: 'failed'; error: unknown } | { state: 'gone' };

/**
 * What several instances on one database share beyond the tables every store has: the rate
 * buckets and the upstream calls in flight. Only a store that several servers can share (PostgreSQL)
 * has it; the embedded store keeps both in the process.
 */
export interface SharedState {
  /** Takes a token from bucket `id` (capacity `perMinute`, refilled over a minute), in one statement. */
  takeToken(id: string, perMinute: number, now: number): Promise<TokenTake>;
  /**
   * Claims the upstream call `key` for flight `id` of `owner` (lease until `leaseUntil`), unless
   * another flight of it is running under a current lease: then that flight's id.
   */
  claimFlight(key: string, id: string, owner: string, leaseUntil: number, now: number): Promise<FlightClaim>;
  /** Records how flight `id` ended, for the instances that wait on it. */
  endFlight(key: string, id: string, outcome: { value: unknown } | { error: unknown }, now: number): Promise<void>;
  /** Flight `id` of `key`: running, ended (with its outcome), or gone (replaced, or its owner died). */
  readFlight(key: string, id: string, now: number): Promise<FlightState>;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Resolves once the store is usable (connected, migrated); rejects with why not. Every method
   * waits for it, so only a server, which should fail before it listens, needs to call it.
   */
  ready(): Promise<void>;
  /**
   * Admission of a new request: throws 503 service_overloaded (database_unavailable while the
   * database is away) when as many callers as the store queues already wait for it. Absent on
   * SQLite, whose calls never wait for a connection.
   */
  admit?(): void;
  /** Present when several instances share the store (PostgreSQL). */
  readonly shared?: SharedState;
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
  /**
   * An operator's grant: adds credits in one transaction with its ledger row; returns the new
   * figures. Top-ups go through `topup`, the only way a caller's key adds credits (capped).
   */
  grantCredits(accountId: string, credits: number, ref: { requestId: string | null; note?: string }, at: number): Promise<CreditsRow>;
  /** A top-up within a cap, checked and written in one transaction; the ledger row names the key. */
  topup(t: NewTopup): Promise<TopupResult>;
  ledger(accountId: string): Promise<LedgerEntry[]>;
  /**
   * D5: reserves `amount` if balance - held covers it (and, on the free plan, spent + held + amount
   * stays within the budget), in one transaction.
   */
  hold(h: NewHold): Promise<HoldResult>;
  /**
   * Ends a hold that belongs to no job: releases it and debits `charge` (<= the hold) with a ledger
   * row, in one transaction. Null when the hold is gone (its lease expired and another process
   * released it): nothing was charged.
   */
  settleHold(holdId: string, charge: number, ref: { requestId: string; jobId: string | null; at: number }): Promise<CreditsRow | null>;
  /**
   * D5 for a call whose cost is known up front (a cache hit): if a hold of `admit` would be granted
   * (same checks, same refusal reasons), debits `charge` with its ledger row, in one transaction.
   * Nothing is held in between, so nothing is left to settle or to release.
   */
  charge(c: NewCharge): Promise<HoldResult>;
  createJob(j: NewJob): Promise<void>;
  /** pending → running, if `owner` still owns the job; false otherwise. */
  startJob(id: string, owner: string, at: number): Promise<boolean>;
  /** Settles the job's hold and records its end, if `owner` still owns it (else changes nothing and returns false). */
  finishJob(end: JobEnd): Promise<boolean>;
  getJob(id: string): Promise<JobRow | null>;
  /** An account's unexpired jobs in one environment, newest first (created_at, then id, descending). */
  listJobs(q: JobListQuery): Promise<JobSummaryRow[]>;
  /**
   * The heartbeat: extends the leases of `owner`'s work that is actually running in its process
   * (`live`), and nothing else: a job or hold whose process lost track of it (a write that failed
   * while the database was away) expires and is failed or released by whichever process sweeps.
   */
  renewLeases(owner: string, until: number, live: LiveWork): Promise<void>;
  /**
   * Fails (with `error`) every unfinished job whose lease expired before `now`, and releases its
   * hold and every other hold whose lease expired, charging nothing. Returns the failed job ids.
   */
  failExpired(error: unknown, now: number, retainUntil: number): Promise<{ jobs: string[]; holds: number }>;
  /**
   * Cancels job `id` (issue 22) if it is still pending or running: it ends failed with `error` and
   * its hold is released, charging nothing, in one transaction. Its owner no longer owns it, so the
   * owner's later finishJob changes nothing: an upstream answer that arrives after is never charged.
   * False when the job had already ended (or does not exist).
   */
  cancelJob(id: string, error: unknown, now: number, retainUntil: number): Promise<boolean>;
  /** Shutdown: fails `owner`'s unfinished jobs with `error` and releases all of its holds, charging nothing. */
  abandon(owner: string, error: unknown, now: number, retainUntil: number): Promise<{ jobs: string[]; holds: number }>;
  /**
   * Deletes at most `batch` finished jobs past their expiry, `batch` expired cache rows, and
   * `batch` ended webhook deliveries and log rows older than WEBHOOK_LOG_RETENTION_MS; also expired
   * OAuth codes and tokens, OAuth clients older than UNUSED_OAUTH_CLIENT_RETENTION_MS that never
   * got a grant and have no code, and (not counted) `batch` expired idempotency keys.
   */
  purgeExpired(now: number, batch: number): Promise<Purged>;
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
  /**
   * Stores a client; with `limit`, counted and written in one transaction (shared by every
   * instance on the store), unless `limit.address` is at its bound: then when it may retry.
   */
  createOAuthClient(c: OAuthClientRow, limit?: RegistrationLimit): Promise<OAuthClientRow | RegistrationRefused>;
  getOAuthClient(id: string): Promise<OAuthClientRow | null>;
  createOAuthCode(c: NewOAuthCode): Promise<void>;
  /**
   * Exchanges a code, in one transaction: refused unless it exists, is unexpired, unused, bound
   * to this client and redirect URI and `verify` accepts its challenge; then it is marked used, a
   * grant made and its first access and refresh tokens stored. A code used a second time revokes
   * the grant the first use made (every token issued from it).
   */
  redeemOAuthCode(r: OAuthRedeem): Promise<OAuthIssued>;
  /**
   * Rotates a refresh token, in one transaction: the old one is marked used and a new access and
   * refresh token of the same grant stored. An already used refresh token revokes its grant
   * (reuse means it leaked); an expired one, or one of a revoked grant or key, is refused.
   */
  rotateOAuthRefresh(r: OAuthRotate): Promise<OAuthIssued>;
  /** The access token with that hash, whatever its expiry, unless its grant is revoked. */
  findOAuthAccess(hash: string): Promise<OAuthAccess | null>;
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
  cacheGet(key: string, now: number): Promise<CacheHit | null>;
  cacheSet(key: string, value: unknown, storedAt: number, expiresAt: number): Promise<void>;
  close(): Promise<void>;
}
