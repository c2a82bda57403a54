// Idempotency-Key on every POST (issue 21 item 10), over real HTTP on loopback with live keys and
// the simulated upstream (2.5 s per live row), on the SQLite store: a retry while the first still
// runs is a retryable 409; a claim left by a process that died (SIGKILL) lapses after its lease.
// The rest (replays, reuse with another request, answers not kept) is in-process in
// test/http/idempotency.inprocess.test.ts.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SResult, expectSError, expectSOk, sCall } from '../helpers/s.js';
import { type Stays, type TestAccount, startStays, tempDir } from '../helpers/stays.js';

interface Ledger {
  ledger: { kind: string; amount: number; requestId: string | null }[];
  credits: { balance: number };
}
const ledgerOf = (s: Stays, a: TestAccount) => s.admin<Ledger>('account', 'show', a.id, '--ledger', '1000').then((r) => r.ledger);

const batch = (s: Stays, key: string, idem: string | undefined, entries: unknown, extra: Record<string, string> = {}) =>
  sCall(s, '/v1/stays/batch', { key, json: { entries }, headers: { ...(idem === undefined ? {} : { 'idempotency-key': idem }), ...extra } });

/** The stored row of a key, as the server's SQLite file holds it. */
function row(s: Stays, accountId: string, key: string): { status: number | null; lease_expires_at: number; owner: string | null } | undefined {
  const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT status, lease_expires_at, owner FROM idempotency_keys WHERE account_id = ? AND key = ?`).get(accountId, key) as never;
  } finally {
    db.close();
  }
}

async function until<T>(f: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Entries no earlier call fetched (a live row is cached once fetched: its next call is immediate). */
let fresh = 5000;
const freshEntries = () => [{ id: String(fresh++) }, { id: String(fresh++) }, { id: String(fresh++) }];

describe('concurrency and crashes (slow upstream)', { timeout: 120_000 }, () => {
  let slow: Stays;
  const dataDir = tempDir();
  // Live airbnb rows take 2.5 s; claims are renewed every third of a 1.5 s lease.
  const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '2500', STAYS_SIM_FAIL: '', STAYS_JOB_LEASE_MS: '1500' };
  beforeAll(async () => {
    slow = await startStays(env, dataDir);
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('a retry while the first request runs: 409 idempotency_key_in_use (retryable, Retry-After) even past the first lease; after it ends, the replay', async () => {
    const a = await slow.account({ credits: 1000, rpm: 100_000 });
    const ENTRIES = freshEntries();
    const first = batch(slow, a.liveKey, 'slow-1', ENTRIES);
    const claimed = await until(() => row(slow, a.id, 'slow-1'), 'the claim');
    expect(claimed.status).toBeNull();
    // The lease is renewed while the request runs.
    await until(() => ((row(slow, a.id, 'slow-1')?.lease_expires_at ?? 0) > claimed.lease_expires_at ? true : undefined), 'a renewal');
    const busy = await batch(slow, a.liveKey, 'slow-1', ENTRIES);
    const e = expectSError(busy, 409, 'idempotency_key_in_use', 'Idempotency-Key');
    expect(e).toMatchObject({ retryable: true, creditsCharged: 0 });
    expect(busy.headers.get('retry-after')).toBe('1');
    const done = await first;
    expectSOk(done);
    const replay = await batch(slow, a.liveKey, 'slow-1', ENTRIES);
    expect(replay.text).toBe(done.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await ledgerOf(slow, a)).filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-3]);
  });

  it('8 concurrent calls with one key: each answer is the first answer or a 409, never two charges', async () => {
    const a = await slow.account({ credits: 1000, rpm: 100_000 });
    const ENTRIES = freshEntries();
    const all: SResult[] = await Promise.all(Array.from({ length: 8 }, () => batch(slow, a.liveKey, 'burst-1', ENTRIES)));
    const ok = all.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of ok) expect(r.text).toBe(ok[0]!.text);
    for (const r of all.filter((x) => x.status !== 200)) expectSError(r, 409, 'idempotency_key_in_use');
    expect(ok.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect((await ledgerOf(slow, a)).filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-3]);
  });

  it('the server dies (SIGKILL) while a key is claimed: after its lease the retry executes, charged once', async () => {
    const a = await slow.account({ credits: 1000, rpm: 100_000 });
    const ENTRIES = freshEntries();
    const first = batch(slow, a.liveKey, 'crash-1', ENTRIES).catch((e: unknown) => e);
    const claimed = await until(() => row(slow, a.id, 'crash-1'), 'the claim');
    await slow.stop('SIGKILL', { keepData: true });
    expect(await first).toBeInstanceOf(Error);
    slow = await startStays(env, dataDir);
    // Not stuck: once the dead process's lease is over, the key is free for the same request.
    const stale = row(slow, a.id, 'crash-1')!;
    expect(stale.status).toBeNull();
    expect(stale.owner).toBe(claimed.owner);
    await until(() => (Date.now() > stale.lease_expires_at ? true : undefined), 'the lease to lapse');
    const retry = await batch(slow, a.liveKey, 'crash-1', ENTRIES);
    expectSOk(retry);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await batch(slow, a.liveKey, 'crash-1', ENTRIES)).text).toBe(retry.text);
    // The dead request's hold was released (its lease expired) and nothing else charged.
    expect((await ledgerOf(slow, a)).filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-3]);
  });
});
