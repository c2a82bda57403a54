// Credits and the ledger (house rule 7: a credit changes only in a transaction that writes a
// ledger row). The admission rule of D5 and D7 is one SQL condition (admits), checked under the
// balance row's write lock by every path that reserves or charges, and its refusal named by one
// function (holdRefusal). PostgreSQL replaces hold, settle and charge with single statements of the
// same rules (src/store/postgres/credits.ts): there a transaction of several statements would hold
// the account's balance row locked across round trips.
import { type CreditStore, type CreditsRow, type HoldResult, type LedgerEntry, type NewCharge, type NewHold, holdRefusal } from '../../core/ports/store.js';
import { toCredits, toLedger } from '../rows.js';
import type { Db, Query } from './db.js';

/**
 * D5/D7 admission of `amount` (a hold, or a known charge's worst case) as SQL over a credit_balances
 * row: balance - held covers it and, with a free-tier budget (NULL for paid plans), spent + held +
 * amount stays within it. `amount` and `budget` name the statement's parameters.
 */
export const admits = (amount: string, budget: string) => `balance - held >= ${amount} AND (CAST(${budget} AS BIGINT) IS NULL OR spent + held + ${amount} <= ${budget})`;

export const creditsOf = async (q: Query, accountId: string): Promise<CreditsRow> => toCredits((await q(`SELECT balance, held, spent FROM credit_balances WHERE account_id = $1`, [accountId]))[0]);

/** A ledger row to write: the entry without the id the database gives it, `at` its time. */
type LedgerLine = Omit<LedgerEntry, 'id' | 'createdAt'> & { at: number };

const ledgerRow = (q: Query, l: LedgerLine) =>
  q(`INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
    l.accountId,
    l.kind,
    l.amount,
    l.balanceAfter,
    l.requestId,
    l.jobId,
    l.keyId,
    l.note,
    l.at,
  ]);

/** Adds `amount` to the balance with its ledger row (inside the caller's transaction). */
export async function grant(q: Query, accountId: string, amount: number, requestId: string | null, note: string | null, at: number): Promise<CreditsRow> {
  const r = (await q(`UPDATE credit_balances SET balance = balance + $1 WHERE account_id = $2 RETURNING balance, held, spent`, [amount, accountId]))[0];
  if (!r) throw new RangeError(`no account ${accountId}`);
  await ledgerRow(q, { accountId, kind: 'grant', amount, balanceAfter: r.balance as number, requestId, jobId: null, keyId: null, note, at });
  return toCredits(r);
}

/** The three operations the engines do differently (see the header). */
export interface CreditOps {
  hold(h: NewHold): Promise<HoldResult>;
  /**
   * Inside transaction `q`: releases hold `holdId` and debits `charge` (<= the hold) with its
   * ledger row; null when the hold is gone. `retry`: a fault may have lost the answer of an
   * earlier attempt of this settlement.
   */
  settle(q: Query, holdId: string, charge: number, ref: { requestId: string; jobId: string | null; at: number }, retry: boolean): Promise<CreditsRow | null>;
  charge(c: NewCharge): Promise<HoldResult>;
}

const assertCharge = (charge: number, most: number) => {
  // D5: a call never charges more than it held (or would have held).
  if (!Number.isSafeInteger(charge) || charge < 0 || charge > most) throw new RangeError(`charge ${charge} outside ${most}`);
};

/** Reserves $2 of account $1's credits if admitted (budget $3), returning the new figures; no row: refused. */
export const HOLD = `UPDATE credit_balances SET held = held + $2 WHERE account_id = $1 AND ${admits('$2', '$3')} RETURNING balance, held, spent`;
const CHECK = `SELECT balance, held, spent FROM credit_balances WHERE account_id = $1 AND ${admits('$2', '$3')} AND $4 = 0`;
const CHARGE = `UPDATE credit_balances SET balance = balance - $4, spent = spent + $4 WHERE account_id = $1 AND ${admits('$2', '$3')} RETURNING balance, held, spent`;

/** Several statements in one transaction, atomic under SQLite's single writer. */
export function txCreditOps(db: Db): CreditOps {
  const settle: CreditOps['settle'] = async (q, holdId, charge, ref) => {
    const hold = (await q(`DELETE FROM credit_holds WHERE id = $1 RETURNING account_id, amount`, [holdId]))[0];
    if (!hold) return null;
    const accountId = hold.account_id as string;
    assertCharge(charge, hold.amount as number);
    const r = (
      await q(`UPDATE credit_balances SET held = held - $2, balance = balance - $3, spent = spent + $3 WHERE account_id = $1 RETURNING balance, held, spent`, [accountId, hold.amount, charge])
    )[0];
    if (charge > 0)
      await ledgerRow(q, { accountId, kind: 'charge', amount: -charge, balanceAfter: r!.balance as number, requestId: ref.requestId, jobId: ref.jobId, keyId: null, note: null, at: ref.at });
    return toCredits(r);
  };
  return {
    hold: (h) =>
      db.tx(async (q) => {
        const r = (await q(HOLD, [h.accountId, h.amount, h.freeTierBudget]))[0];
        if (!r) {
          const c = await creditsOf(q, h.accountId);
          return { ok: false, reason: holdRefusal(c, h.amount, h.freeTierBudget), credits: c };
        }
        await q(`INSERT INTO credit_holds (id, account_id, amount, request_id, job_id, created_at, owner, lease_expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          h.id,
          h.accountId,
          h.amount,
          h.requestId,
          h.jobId,
          h.at,
          h.lease.owner,
          h.lease.expiresAt,
        ]);
        return { ok: true, credits: toCredits(r) };
      }),
    settle,
    charge: (c) =>
      db.tx(async (q) => {
        const r = (await q(c.charge === 0 ? CHECK : CHARGE, [c.accountId, c.admit, c.freeTierBudget, c.charge]))[0];
        if (!r) {
          const now = await creditsOf(q, c.accountId);
          return { ok: false, reason: holdRefusal(now, c.admit, c.freeTierBudget), credits: now };
        }
        if (c.charge > 0) {
          await ledgerRow(q, { accountId: c.accountId, kind: 'charge', amount: -c.charge, balanceAfter: r.balance as number, requestId: c.requestId, jobId: null, keyId: null, note: null, at: c.at });
        }
        return { ok: true, credits: toCredits(r) };
      }),
  };
}

export function creditStore(db: Db, ops: CreditOps): CreditStore {
  const positive = (n: number) => {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError('credits must be a positive integer');
  };
  return {
    getCredits: (accountId) => creditsOf(db.query, accountId),
    async grantCredits(accountId, amount, ref, at) {
      positive(amount);
      return db.tx((q) => grant(q, accountId, amount, ref.requestId, ref.note ?? null, at));
    },
    async topup(t) {
      positive(t.credits);
      return db.tx(async (q) => {
        // The balance row's lock orders concurrent top-ups of one account, so the cap holds.
        await q(`SELECT 1 FROM credit_balances WHERE account_id = $1${db.sql.forUpdate}`, [t.accountId]);
        const used = (await q(`SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS used FROM credit_ledger WHERE account_id = $1 AND kind = 'topup' AND created_at >= $2`, [t.accountId, t.since]))[0]!
          .used as number;
        if (used + t.credits > t.max) return { ok: false as const, used };
        const r = (await q(`UPDATE credit_balances SET balance = balance + $1 WHERE account_id = $2 RETURNING balance, held, spent`, [t.credits, t.accountId]))[0]!;
        await ledgerRow(q, { accountId: t.accountId, kind: 'topup', amount: t.credits, balanceAfter: r.balance as number, requestId: t.requestId, jobId: null, keyId: t.keyId, note: null, at: t.at });
        return { ok: true as const, credits: toCredits(r) };
      });
    },
    async ledger(accountId) {
      return (await db.query(`SELECT * FROM credit_ledger WHERE account_id = $1 ORDER BY id`, [accountId])).map(toLedger);
    },
    hold: (h) => ops.hold(h),
    settleHold: (holdId, charge, ref) => db.tx((q, attempt) => ops.settle(q, holdId, charge, ref, attempt > 1), { must: true, single: db.kind === 'postgres' }),
    async charge(c) {
      assertCharge(c.charge, c.admit);
      return ops.charge(c);
    },
  };
}
