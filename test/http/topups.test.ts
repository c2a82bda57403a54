// POST /v1/billing/topups: what only real processes can show. Two `stays serve` processes on one
// data directory top up one account at once and never pass the daily cap together. The rest of the
// endpoint's behaviour is in-process in test/http/topups.inprocess.test.ts.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, startStays } from '../helpers/stays.js';

const BILLING = 'stays.read,billing.write';
const CAP = 1000;

/** A server that allows live top-ups up to CAP credits per account per UTC day. */
let capped: Stays;
beforeAll(async () => {
  capped = await startStays({ STAYS_TOPUP_MAX_PER_DAY: String(CAP) });
});
afterAll(async () => {
  await capped?.stop();
});

const topup = (s: Stays, key: string, body: unknown) => s.req('/v1/billing/topups', { method: 'POST', key, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

const credits = async (s: Stays, key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number } } }).data.credits;

/** The ledger rows as the server's SQLite file holds them (the store, not its rendering). */
function storedLedger(s: Stays, accountId: string) {
  const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT kind, amount, balance_after FROM credit_ledger WHERE account_id = ? ORDER BY id`).all(accountId) as { kind: string; amount: number; balance_after: number }[];
  } finally {
    db.close();
  }
}

describe(`live keys, STAYS_TOPUP_MAX_PER_DAY=${CAP}`, () => {
  it('concurrent top-ups through two servers on one data directory never pass the cap together', async () => {
    const second = await startStays({ STAYS_TOPUP_MAX_PER_DAY: String(CAP) }, capped.dataDir);
    try {
      const a = await capped.account({ plan: 'pro', credits: 0, scopes: BILLING, rpm: 10_000 });
      // 40 top-ups of 100 against a cap of 1000, half through each process: whatever the
      // interleaving, exactly 10 fit, since each check-and-write is one store transaction.
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const res = await topup(i % 2 === 0 ? capped : second, a.liveKey, { credits: 100 });
          const body = (await res.json()) as { error?: { code: string } };
          return res.status === 200 ? 'ok' : body.error?.code;
        }),
      );
      expect(results.filter((r) => r === 'ok')).toHaveLength(10);
      expect(results.filter((r) => r !== 'ok').every((r) => r === 'topup_limit_exceeded')).toBe(true);

      expect((await credits(capped, a.liveKey)).balance).toBe(CAP);
      const rows = storedLedger(capped, a.id).filter((r) => r.kind === 'topup');
      expect(rows).toHaveLength(10);
      expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(CAP);
      expect(rows.map((r) => r.balance_after)).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1) * 100));
    } finally {
      await second.stop('SIGTERM', { keepData: true });
    }
  });
});
