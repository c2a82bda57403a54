// Credits and the ledger: every credit change happens inside one store transaction that writes a
// ledger row (house rule 7). Part of the store port (../store.ts).
import type { Lease } from './jobs.js';

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

export interface CreditStore {
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
}

/**
 * Why credits were not reserved (D5, D7): the free-tier budget (lifetime spend plus holds plus
 * `amount` past it) first, as the API reports it, else the balance. The store admits atomically by
 * the same condition (src/store/sql/credits.ts, admits) and names its refusal with this.
 */
export function holdRefusal(c: CreditsRow, amount: number, budget: number | null): 'free_tier' | 'balance' {
  return budget !== null && c.spent + c.held + amount > budget ? 'free_tier' : 'balance';
}
