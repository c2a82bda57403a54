// Idempotency-Key on every POST (issue 21 item 10), through the app in-process (test/helpers/app.ts)
// with live keys and the simulated upstream, on the SQLite store: the same key and request answer
// the first answer again (Idempotent-Replayed: true) and charge once; another request with the key
// is a typed 400; answers that say "try again" are not kept. A retry while the first still runs (a
// retryable 409) and a claim left by a process that died are in the e2e test/http/idempotency.test.ts.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { type TestApp as Stays, startApp } from '../helpers/app.js';
import { expectSError, expectSOk, sCall } from '../helpers/s.js';
import type { TestAccount } from '../helpers/stays.js';

const BILLING = 'stays.read,account.read,billing.write';

let fast: Stays;
beforeAll(async () => {
  fast = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '30', STAYS_SIM_FAIL: '', STAYS_TOPUP_MAX_PER_DAY: '1000000' });
});
afterAll(async () => {
  await fast?.stop();
});

interface Ledger {
  ledger: { kind: string; amount: number; requestId: string | null }[];
  credits: { balance: number };
}
const ledgerOf = (s: Stays, a: TestAccount) => s.admin<Ledger>('account', 'show', a.id, '--ledger', '1000').then((r) => r.ledger);

const batch = (s: Stays, key: string, idem: string | undefined, entries: unknown, extra: Record<string, string> = {}) =>
  sCall(s, '/v1/stays/batch', { key, json: { entries }, headers: { ...(idem === undefined ? {} : { 'idempotency-key': idem }), ...extra } });

const topup = (s: Stays, key: string, idem: string, credits: number) =>
  s.req('/v1/billing/topups', { method: 'POST', key, body: JSON.stringify({ credits }), headers: { 'content-type': 'application/json', 'idempotency-key': idem } });

/** The stored row of a key, as the server's SQLite file holds it. */
function row(s: Stays, accountId: string, key: string): { status: number | null; lease_expires_at: number; owner: string | null } | undefined {
  const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT status, lease_expires_at, owner FROM idempotency_keys WHERE account_id = ? AND key = ?`).get(accountId, key) as never;
  } finally {
    db.close();
  }
}

const ENTRIES = [{ id: '101' }, { id: '102' }, { id: '103' }];

describe('the same key and request: the first answer again, charged once', () => {
  it('POST /v1/stays/batch twice with one key (live): identical body and status, Idempotent-Replayed on the replay only, one ledger charge', async () => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    const first = await batch(fast, a.liveKey, 'batch-1', ENTRIES);
    const { meta } = expectSOk(first);
    expect(meta.credits_charged).toBe(3);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await batch(fast, a.liveKey, 'batch-1', ENTRIES);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // request_id in the body is the first request's, and so is X-Request-Id (D11: they agree).
    expect(again.headers.get('x-request-id')).toBe(first.body.request_id);
    // Every answer has its own rate-limit figures.
    expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const charges = (await ledgerOf(fast, a)).filter((l) => l.kind === 'charge');
    expect(charges.map((l) => l.amount)).toEqual([-3]);
    // Without a key the same call executes (and charges) again, as before.
    expectSOk(await batch(fast, a.liveKey, undefined, ENTRIES));
    expect((await ledgerOf(fast, a)).filter((l) => l.kind === 'charge')).toHaveLength(2);
  });

  it('a live top-up repeated 30 times with one key (10 of them at once): one top-up', async () => {
    const a = await fast.account({ credits: 0, scopes: BILLING, rpm: 100_000 });
    const first = await topup(fast, a.liveKey, 'topup-1', 250);
    expect(first.status).toBe(200);
    const body = await first.text();
    for (let i = 0; i < 20; i++) {
      const r = await topup(fast, a.liveKey, 'topup-1', 250);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe(body);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    }
    const burst = await Promise.all(Array.from({ length: 10 }, () => topup(fast, a.liveKey, 'topup-1', 250)));
    for (const r of burst) expect(await r.text()).toBe(body);
    const ledger = await ledgerOf(fast, a);
    expect(ledger.filter((l) => l.kind === 'topup').map((l) => l.amount)).toEqual([250]);
  });

  it('an async answer (202 with a job) is replayed with the same job id: no second job, no second hold', async () => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    const body = JSON.stringify({ location: 'Lisbon', limit: 3 });
    const post = () => fast.req('/v1/search', { method: 'POST', key: a.liveKey, body, headers: { 'content-type': 'application/json', 'idempotency-key': 'search-1' } });
    const r1 = await post();
    const t1 = await r1.text();
    expect(r1.status, t1).toBe(202);
    const jobId = (JSON.parse(t1) as { data: { jobId: string } }).data.jobId;
    const r2 = await post();
    expect(r2.status).toBe(202);
    expect(await r2.text()).toBe(t1);
    expect(r2.headers.get('idempotent-replayed')).toBe('true');
    expect(r2.headers.get('retry-after')).toBe(r1.headers.get('retry-after'));
    const jobs = (await (await fast.req('/v1/jobs', { key: a.liveKey })).json()) as { data: { jobId?: string; id?: string }[] };
    expect(jobs.data.map((j) => j.jobId ?? j.id)).toEqual([jobId]);
  });

  it('keys are per account and environment: the same key elsewhere executes on its own', async () => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    const b = await fast.account({ credits: 1000, rpm: 100_000 });
    const live = await batch(fast, a.liveKey, 'shared-key', ENTRIES);
    expectSOk(live);
    for (const r of [await batch(fast, a.sandboxKey, 'shared-key', ENTRIES), await batch(fast, b.liveKey, 'shared-key', ENTRIES)]) {
      expectSOk(r);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    }
    expect((await ledgerOf(fast, b)).filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-3]);
  });

  it('a webhook created twice with one key is one webhook', async () => {
    const a = await fast.account({ credits: 0, rpm: 100_000 });
    const json = { url: 'http://127.0.0.1:9/hook', events: ['job.succeeded'] };
    const r1 = await sCall(fast, '/v1/webhooks', { key: a.liveKey, json, headers: { 'idempotency-key': 'wh-1' } });
    expect(r1.status, r1.text).toBe(201);
    const r2 = await sCall(fast, '/v1/webhooks', { key: a.liveKey, json, headers: { 'idempotency-key': 'wh-1' } });
    expect(r2.status).toBe(201);
    expect(r2.text).toBe(r1.text);
    const list = await sCall(fast, '/v1/webhooks', { key: a.liveKey });
    expect((list.body.data as unknown[]).length).toBe(1);
  });
});

describe('the same key with another request: a typed 400', () => {
  it('another body, another path: 400 idempotency_key_reused naming Idempotency-Key, nothing executed or charged', async () => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    expectSOk(await batch(fast, a.liveKey, 'k-1', ENTRIES));
    const other = await batch(fast, a.liveKey, 'k-1', [{ id: '104' }]);
    const e = expectSError(other, 400, 'idempotency_key_reused', 'Idempotency-Key');
    expect(e).toMatchObject({ type: 'invalid_request', retryable: false, creditsCharged: 0 });
    // The same key on another POST route (Family U: its envelope).
    const res = await fast.req('/v1/search', {
      method: 'POST',
      key: a.liveKey,
      body: JSON.stringify({ location: 'Lisbon' }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
    });
    await expectError(res, 400, 'idempotency_key_reused', 'Idempotency-Key');
    expect((await ledgerOf(fast, a)).filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-3]);
    // The first request still replays.
    expect((await batch(fast, a.liveKey, 'k-1', ENTRIES)).headers.get('idempotent-replayed')).toBe('true');
  });

  it.each([
    ['longer than 255 characters', 'k'.repeat(256)],
    ['empty', ''],
    ['not printable ASCII', 'clé-1'],
  ])('a key %s: 400 invalid_parameter naming Idempotency-Key, nothing executed', async (_, key) => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    const r = await batch(fast, a.liveKey, key, ENTRIES);
    expectSError(r, 400, 'invalid_parameter', 'Idempotency-Key');
    expect((await ledgerOf(fast, a)).filter((l) => l.kind === 'charge')).toEqual([]);
  });

  it('a key of exactly 255 printable characters is accepted', async () => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    const key = ' !~'.repeat(85);
    expectSOk(await batch(fast, a.liveKey, key, ENTRIES));
    expect((await batch(fast, a.liveKey, key, ENTRIES)).headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('answers that are not kept', () => {
  it('a 503 (every upstream failed) is not stored: the retry with the same key executes again', async () => {
    const a = await fast.account({ credits: 1000, rpm: 100_000 });
    const post = () =>
      fast.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: JSON.stringify({ location: 'fail' }), headers: { 'content-type': 'application/json', 'idempotency-key': 'fail-1' } });
    for (let i = 0; i < 2; i++) {
      const r = await post();
      await expectError(r, 503, 'upstream_degraded');
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(row(fast, a.id, 'fail-1')).toBeUndefined();
  });

  it('a request refused before it ran (401) takes no key', async () => {
    const r = await batch(fast, 'stay_live_not_a_real_key_0000000000', 'k-401', ENTRIES);
    expectSError(r, 401, 'invalid_api_key');
  });
});
