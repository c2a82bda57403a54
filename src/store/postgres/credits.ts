// The credit operations of the shared store as single statements (src/store/sql/credits.ts says
// why): a hold, a settlement and a batch of known charges each check and write under the balance
// row's lock in one statement, with the same admission rule (admits, holdRefusal), so the row is
// never locked across a round trip; an account's known charges from this instance go in one
// statement (chargeQueued). A statement whose answer was lost to a fault is resolved before it is
// sent again (endBackend, the ledger row).
import type { PoolClient } from 'pg';
import { ServiceError } from '../../core/errors.js';
import { type HoldResult, type NewCharge, holdRefusal } from '../../core/ports/store.js';
import { toCredits } from '../rows.js';
import { type CreditOps, HOLD, admits, creditsOf } from '../sql/credits.js';
import type { Db, Query } from '../sql/db.js';

/** The most charges of one account one statement carries (chargeQueued). */
const CHARGE_BATCH_MAX = 64;

export interface PgCreditEnv {
  tx: Db['tx'];
  /** Runs `f` on a request connection (faults become database_unavailable). */
  use<T>(f: (c: PoolClient) => Promise<T>): Promise<T>;
  closed(): boolean;
  /** How long work that ends or refunds admitted work retries through faults. */
  mustRetryMs: number;
  unavailable(cause: unknown): ServiceError;
}

const RETRYABLE = new Set(['40001', '40P01']);

export function pgCreditOps(env: PgCreditEnv): CreditOps {
  const hold: CreditOps['hold'] = (h) =>
    env.tx(
      async (q) => {
        // One statement checks and reserves under the balance row's lock and writes the hold, so
        // the lock is not held across a round trip.
        const r = (
          await q(
            `WITH b AS (${HOLD}),
             i AS (INSERT INTO credit_holds (id, account_id, amount, request_id, job_id, created_at, owner, lease_expires_at)
                   SELECT $4::text, $1::text, $2::bigint, $5::text, $6::text, $7::bigint, $8::text, $9::bigint FROM b)
             SELECT balance, held, spent FROM b`,
            [h.accountId, h.amount, h.freeTierBudget, h.id, h.requestId, h.jobId, h.at, h.lease.owner, h.lease.expiresAt],
          )
        )[0];
        if (r) return { ok: true, credits: toCredits(r) };
        const c = await creditsOf(q, h.accountId);
        return { ok: false, reason: holdRefusal(c, h.amount, h.freeTierBudget), credits: c };
      },
      { single: true },
    );

  const settle: CreditOps['settle'] = async (q, holdId, charge, { requestId, jobId, at }, retry) => {
    if (!Number.isSafeInteger(charge) || charge < 0) throw new RangeError(`charge ${charge} is not a credit amount`);
    // One statement: the hold deleted, the balance debited and the ledger row written together
    // (the hold only if it covers the charge), so the balance row is locked for one statement.
    const r = (
      await q(
        `WITH h AS (DELETE FROM credit_holds WHERE id = $1 AND amount >= $2 RETURNING account_id, amount),
         b AS (UPDATE credit_balances c SET held = c.held - h.amount, balance = c.balance - $2, spent = c.spent + $2
               FROM h WHERE c.account_id = h.account_id RETURNING c.account_id, c.balance, c.held, c.spent),
         l AS (INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at)
               SELECT account_id, 'charge', -$2::bigint, balance, $3::text, $4::text, NULL, NULL, $5::bigint FROM b WHERE $2::bigint > 0)
         SELECT balance, held, spent FROM b`,
        [holdId, charge, requestId, jobId, at],
      )
    )[0];
    if (r) return toCredits(r);
    const left = (await q(`SELECT amount FROM credit_holds WHERE id = $1`, [holdId]))[0];
    if (left) throw new RangeError(`charge ${charge} outside hold ${left.amount as number}`);
    // A retry after a fault whose first attempt landed (its answer lost on the way back): the
    // charge row it wrote says so, and the caller must hear "charged", not "released".
    if (retry && charge > 0) {
      const mine = await q(`SELECT 1 FROM credit_ledger WHERE request_id = $1 AND job_id IS NOT DISTINCT FROM $2 AND kind = 'charge' AND amount = $3 AND created_at = $4 LIMIT 1`, [
        requestId,
        jobId,
        -charge,
        at,
      ]);
      if (mine.length > 0) {
        const b = (await q(`SELECT c.balance, c.held, c.spent FROM credit_balances c JOIN credit_ledger l ON l.account_id = c.account_id WHERE l.request_id = $1 LIMIT 1`, [requestId]))[0];
        if (b) return toCredits(b);
      }
    }
    return null;
  };

  /**
   * Known costs charged in one statement (Store.charge): admitted under the balance row's lock by
   * the checks a hold of `admit` would pass, debited, and their ledger rows written, so the row is
   * locked for one statement and a cached call costs one round trip for its money, not two.
   *
   * Several charges of one account (`items`, in order) go in one statement only if every one of
   * them passes, each after the ones before it: balance - held covers, for every i, the charges
   * before i plus admit_i (and the free-tier budget likewise), which is exactly the condition for
   * them all to pass one by one in that order. Otherwise nothing changes and the answer is null
   * (the caller then charges them one by one). Each has its own ledger row, whose balance_after
   * is the balance right after it.
   *
   * No hold row makes a retry safe as it makes a settlement's, so a statement whose answer was lost
   * (sent, then the connection failed) is resolved before anything is sent again: the backend it
   * ran on is ended and waited for (it then either committed or never will), and the ledger row
   * says which. Only then is the statement sent again; a fault before it left this process is
   * answered at once (nothing can have landed). Through env.mustRetryMs, as a settlement.
   */
  const chargeBatch = async (items: readonly NewCharge[]): Promise<HoldResult[] | null> => {
    const first = items[0]!;
    const accountId = first.accountId;
    const budget = first.freeTierBudget;
    // need = max over i of (charges before i + admit_i); later_i = what the ones after i take.
    let need = 0;
    let total = 0;
    for (const c of items) {
      need = Math.max(need, total + c.admit);
      total += c.charge;
    }
    let before = 0;
    const later = items.map((c) => {
      before += c.charge;
      return total - before;
    });
    const probe = items.find((c) => c.charge > 0);
    const started = Date.now();
    let lost: number | undefined;
    for (let attempt = 1; ; attempt++) {
      let sentOn: number | undefined;
      try {
        return await env.use(async (conn) => {
          const q: Query = async (sql, params) => (await conn.query(sql, params as unknown[])).rows as never;
          if (lost !== undefined) {
            await endBackend(q, lost, started);
            if (probe) {
              const landed = await q(
                `SELECT c.balance, c.held, c.spent FROM credit_ledger l JOIN credit_balances c ON c.account_id = l.account_id
                 WHERE l.request_id = $1 AND l.account_id = $2 AND l.job_id IS NULL AND l.kind = 'charge' AND l.amount = $3 AND l.created_at = $4 LIMIT 1`,
                [probe.requestId, accountId, -probe.charge, probe.at],
              );
              if (landed[0]) return items.map(() => ({ ok: true as const, credits: toCredits(landed[0]!) }));
            }
            lost = undefined;
          }
          sentOn = (conn as unknown as { processID?: number }).processID ?? -1;
          const r = (
            await q(
              `WITH b AS (UPDATE credit_balances SET balance = balance - $3, spent = spent + $3
                          WHERE account_id = $1 AND ${admits('$2', '$4')}
                          RETURNING account_id, balance, held, spent),
               l AS (INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at)
                     SELECT b.account_id, 'charge', -x.c, b.balance + x.later, x.r, NULL, NULL, NULL, x.at
                     FROM b, unnest($5::bigint[], $6::text[], $7::bigint[], $8::bigint[]) WITH ORDINALITY AS x(c, r, at, later, n)
                     WHERE x.c > 0 ORDER BY x.n)
               SELECT balance, held, spent FROM b`,
              [accountId, need, total, budget, items.map((c) => c.charge), items.map((c) => c.requestId), items.map((c) => c.at), later],
            )
          )[0];
          if (r) {
            const after = toCredits(r);
            return items.map((_, i) => ({ ok: true as const, credits: { ...after, balance: after.balance + later[i]!, spent: after.spent - later[i]! } }));
          }
          if (items.length > 1) return null;
          const now = await creditsOf(q, accountId);
          return [{ ok: false as const, reason: holdRefusal(now, first.admit, budget), credits: now }];
        });
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        const conflict = typeof code === 'string' && RETRYABLE.has(code) && attempt < 8;
        const fault = e instanceof ServiceError && e.code === 'database_unavailable';
        // The statement left on a connection that failed: it may have landed.
        if (fault && sentOn !== undefined) lost = sentOn;
        const retry = conflict || (fault && lost !== undefined && Date.now() - started < env.mustRetryMs && !env.closed());
        if (!retry) throw e;
        await new Promise((r) => setTimeout(r, conflict ? 5 * attempt + Math.random() * 20 : Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2)));
      }
    }
  };

  /**
   * One charge statement per account in flight from this instance: charges that arrive meanwhile
   * wait for it and then go together (up to CHARGE_BATCH_MAX, in arrival order), so an account's
   * balance row is locked, and its commit waits for the disk, once for all of them. A busy account
   * is otherwise bounded by one commit at a time (docs/decisions.md, issue 23); a quiet one pays
   * nothing, its charge leaving at once.
   */
  interface Waiting {
    c: NewCharge;
    done: (r: HoldResult) => void;
    fail: (e: unknown) => void;
  }
  const charging = new Map<string, Waiting[]>();
  const chargeQueued = (c: NewCharge): Promise<HoldResult> =>
    new Promise((done, fail) => {
      const queue = charging.get(c.accountId);
      if (queue) {
        queue.push({ c, done, fail });
        return;
      }
      const mine: Waiting[] = [{ c, done, fail }];
      charging.set(c.accountId, mine);
      void drainCharges(mine);
    });
  const drainCharges = async (queue: Waiting[]): Promise<void> => {
    for (;;) {
      // One budget per statement (an account's plan may change between two calls).
      const budget = queue[0]!.c.freeTierBudget;
      let n = 1;
      while (n < queue.length && n < CHARGE_BATCH_MAX && queue[n]!.c.freeTierBudget === budget) n++;
      const batch = queue.slice(0, n);
      try {
        const all = await chargeBatch(batch.map((w) => w.c));
        if (all) batch.forEach((w, i) => w.done(all[i]!));
        else {
          // Not all of them pass together: one by one, in order, each answered as it is decided.
          for (const w of batch) {
            try {
              w.done((await chargeBatch([w.c]))![0]!);
            } catch (e) {
              w.fail(e);
            }
          }
        }
      } catch (e) {
        for (const w of batch) w.fail(e);
      }
      queue.splice(0, n);
      if (queue.length === 0) {
        charging.delete(batch[0]!.c.accountId);
        return;
      }
    }
  };

  /**
   * Ends the backend `pid` (a connection this process lost mid-statement) and waits until it is
   * gone, so whatever it ran has committed or never will. A role that may not signal it waits for
   * PostgreSQL's own connection check to end it instead.
   */
  const endBackend = async (q: Query, pid: number, started: number): Promise<void> => {
    if (pid < 0) throw env.unavailable(new Error('the lost connection has no backend id'));
    await q(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1`, [pid]).catch((e: unknown) => {
      if ((e as { code?: unknown }).code !== '42501') throw e;
    });
    for (;;) {
      if ((await q(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [pid])).length === 0) return;
      if (Date.now() - started >= env.mustRetryMs) throw env.unavailable(new Error(`backend ${pid} of a lost connection is still running`));
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  return { hold, settle, charge: chargeQueued };
}
