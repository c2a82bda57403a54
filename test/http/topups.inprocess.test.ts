// POST /v1/billing/topups as amended (D24): a self-hosted server has no payment step, so only the
// operator mints credits unless it allows live top-ups up to a daily cap. The app in-process over
// a real SQLite store (test/helpers/app.ts); two processes topping up one store at once is in the
// e2e test/http/topups.test.ts, and `stays admin credits grant` as a command in test/cli-admin.test.ts.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsSchema } from '../../src/core/schemas/resources.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const BILLING = 'stays.read,billing.write';
const CAP = 1000;

/** The server as shipped: STAYS_TOPUP_MAX_PER_DAY unset (0). */
let plain: TestApp;
/** A server that allows live top-ups up to CAP credits per account per UTC day. */
let capped: TestApp;
beforeAll(async () => {
  [plain, capped] = await Promise.all([startApp(), startApp({ STAYS_TOPUP_MAX_PER_DAY: String(CAP) })]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), capped?.stop()]);
});

const topup = (s: TestApp, key: string, body: unknown) => s.req('/v1/billing/topups', { method: 'POST', key, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

type Credits = { balance: number; available: number; held: number; expiringSoon: number };
const credits = async (s: TestApp, key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: Credits } }).data.credits;

interface Shown {
  credits: { balance: number };
  ledger: { kind: string; amount: number; balanceAfter: number; requestId: string | null; keyId: string | null; note: string | null }[];
}
const show = (s: TestApp, a: TestAccount) => s.admin<Shown>('account', 'show', a.id, '--ledger', '1000');

/** The ledger rows as the server's SQLite file holds them (the store, not its rendering). */
function storedLedger(s: TestApp, accountId: string) {
  const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT kind, amount, balance_after, request_id, key_id FROM credit_ledger WHERE account_id = ? ORDER BY id`).all(accountId) as {
      kind: string;
      amount: number;
      balance_after: number;
      request_id: string | null;
      key_id: string | null;
    }[];
  } finally {
    db.close();
  }
}

async function okBody(res: Response): Promise<{ data: { credits: Credits } }> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = JSON.parse(text) as { data: { credits: Credits } };
  expect(Object.keys(body)).toEqual(['data']);
  expect(Object.keys(body.data)).toEqual(['credits']);
  CreditsSchema.parse(body.data.credits);
  return body;
}

describe('sandbox keys: a test-mode answer', () => {
  it.each([
    ['with top-ups disabled', () => plain],
    ['with a daily cap', () => capped],
  ])('same shape, the figures unchanged, no ledger row (%s)', async (_, server) => {
    const s = server();
    const a = await s.account({ plan: 'pro', credits: 1000, scopes: BILLING });
    for (let i = 0; i < 2; i++) {
      const body = await okBody(await topup(s, a.sandboxKey, { credits: 100_000_000 }));
      expect(body).toEqual({ data: { credits: { balance: 1000, available: 1000, held: 0, expiringSoon: 0 } } });
    }
    expect(await credits(s, a.liveKey)).toEqual({ balance: 1000, available: 1000, held: 0, expiringSoon: 0 });
    expect(storedLedger(s, a.id).map((r) => r.kind)).toEqual(['grant']);
  });

  it('do not count against the daily cap', async () => {
    const a = await capped.account({ plan: 'pro', credits: 0, scopes: BILLING });
    await okBody(await topup(capped, a.sandboxKey, { credits: CAP }));
    const live = await okBody(await topup(capped, a.liveKey, { credits: CAP }));
    expect(live.data.credits.balance).toBe(CAP);
  });

  it('meet the same plan check a live key does (403 subscription_required)', async () => {
    const free = await plain.account({ plan: 'free', scopes: BILLING });
    await expectError(await topup(plain, free.sandboxKey, { credits: 10 }), 403, 'subscription_required');
    const pastDue = await plain.account({ plan: 'pro', status: 'past_due', scopes: BILLING });
    await expectError(await topup(plain, pastDue.sandboxKey, { credits: 10 }), 403, 'subscription_required');
  });
});

describe('the order of the checks', () => {
  it('scope before the body: a key without billing.write learns nothing about its body', async () => {
    const a = await plain.account({ plan: 'free' });
    await expectError(await topup(plain, a.liveKey, { credits: -1 }), 403, 'scope_insufficient');
  });

  it('the body before the plan: a malformed top-up is a 400 whatever the account', async () => {
    const a = await plain.account({ plan: 'free', scopes: BILLING });
    await expectError(await topup(plain, a.liveKey, { credits: 0 }), 400, 'invalid_parameter', 'credits');
    await expectError(await topup(plain, a.sandboxKey, {}), 400, 'missing_parameter', 'credits');
  });

  it('the plan before the server setting: a free account hears subscription_required, not topups_disabled', async () => {
    const a = await plain.account({ plan: 'free', scopes: BILLING });
    await expectError(await topup(plain, a.liveKey, { credits: 10 }), 403, 'subscription_required');
  });
});

describe('live keys, STAYS_TOPUP_MAX_PER_DAY unset', () => {
  it('403 topups_disabled saying the operator grants credits; nothing changes', async () => {
    const a = await plain.account({ plan: 'pro', credits: 50, scopes: BILLING });
    const body = await expectError(await topup(plain, a.liveKey, { credits: 100_000_000 }), 403, 'topups_disabled', null);
    expect(body.error.type).toBe('permission_denied');
    expect(body.error.retryable).toBe(false);
    expect(body.error.message).toMatch(/stays admin credits grant/);
    expect((await credits(plain, a.liveKey)).balance).toBe(50);
    expect(storedLedger(plain, a.id).map((r) => r.kind)).toEqual(['grant']);
  });

  it('an operator grant (what stays admin credits grant calls) still adds credits, one ledger row naming no key', async () => {
    const a = await plain.account({ plan: 'pro', credits: 50 });
    const g = await plain.admin<{ credits: { balance: number } }>('credits', 'grant', '--account', a.id, '--credits', '500');
    expect(g.credits.balance).toBe(550);
    expect((await credits(plain, a.liveKey)).balance).toBe(550);
    const shown = await show(plain, a);
    expect(shown.ledger.map((l) => [l.kind, l.amount, l.balanceAfter, l.keyId, l.note])).toEqual([
      ['grant', 50, 50, null, 'initial credits'],
      ['grant', 500, 550, null, 'admin grant'],
    ]);
  });
});

describe(`live keys, STAYS_TOPUP_MAX_PER_DAY=${CAP}`, () => {
  it('top-ups succeed up to the cap, then 403 topup_limit_exceeded saying what remains', async () => {
    const a = await capped.account({ plan: 'starter', credits: 5, scopes: BILLING });
    expect((await okBody(await topup(capped, a.liveKey, { credits: 400 }))).data.credits).toEqual({ balance: 405, available: 405, held: 0, expiringSoon: 0 });

    const over = await expectError(await topup(capped, a.liveKey, { credits: 601 }), 403, 'topup_limit_exceeded', 'credits');
    expect(over.error.type).toBe('permission_denied');
    expect(over.error.message).toMatch(/capped at 1000 credits per account per UTC day; 400 used, 600 remain today/);
    expect(over.error.message).toMatch(/Top up at most 600, or ask the operator for more: stays admin credits grant/);

    expect((await okBody(await topup(capped, a.liveKey, { credits: 600 }))).data.credits.balance).toBe(1005);
    const full = await expectError(await topup(capped, a.liveKey, { credits: 1 }), 403, 'topup_limit_exceeded', 'credits');
    expect(full.error.message).toMatch(/1000 used, none remain today .*Ask the operator for more: stays admin credits grant/);

    expect((await credits(capped, a.liveKey)).balance).toBe(1005);
    expect(storedLedger(capped, a.id).map((r) => [r.kind, r.amount, r.balance_after])).toEqual([
      ['grant', 5, 5],
      ['topup', 400, 405],
      ['topup', 600, 1005],
    ]);
  });

  it('an active or trialing paid plan tops up; free and inactive plans get 403 subscription_required', async () => {
    const plans = [
      ['starter', 'active'],
      ['starter', 'trialing'],
      ['free', 'active'],
      ['pro', 'past_due'],
      ['scale', 'canceled'],
    ] as const;
    const accounts = await Promise.all(plans.map(([plan, status]) => capped.account({ plan, status, credits: 50, scopes: BILLING })));
    for (const a of accounts.slice(0, 2)) {
      expect(await okBody(await topup(capped, a.liveKey, { credits: 250 }))).toEqual({ data: { credits: { balance: 300, available: 300, held: 0, expiringSoon: 0 } } });
      expect((await credits(capped, a.liveKey)).balance).toBe(300);
    }
    for (const [i, [plan, status]] of plans.entries()) {
      if (i < 2) continue;
      const a = accounts[i]!;
      const body = await expectError(await topup(capped, a.liveKey, { credits: 250 }), 403, 'subscription_required');
      expect(body.error.message).toContain(`${plan} (${status})`);
      expect((await credits(capped, a.liveKey)).balance).toBe(50);
    }
  });

  it('the cap is per account', async () => {
    const [a, b] = await Promise.all([capped.account({ plan: 'pro', credits: 0, scopes: BILLING }), capped.account({ plan: 'pro', credits: 0, scopes: BILLING })]);
    await okBody(await topup(capped, a.liveKey, { credits: CAP }));
    await okBody(await topup(capped, b.liveKey, { credits: CAP }));
    await expectError(await topup(capped, a.liveKey, { credits: 1 }), 403, 'topup_limit_exceeded');
  });

  it('each top-up ledger row names the key and the request', async () => {
    const a = await capped.account({ plan: 'pro', credits: 0, scopes: BILLING });
    const res = await topup(capped, a.liveKey, { credits: 25 });
    await okBody(res);
    const requestId = res.headers.get('x-request-id');

    const stored = storedLedger(capped, a.id).filter((r) => r.kind === 'topup');
    expect(stored).toEqual([{ kind: 'topup', amount: 25, balance_after: 25, request_id: requestId, key_id: a.liveKeyId }]);

    const shown = await show(capped, a);
    expect(shown.ledger.at(-1)).toMatchObject({ kind: 'topup', amount: 25, requestId, keyId: a.liveKeyId });
  });
});
