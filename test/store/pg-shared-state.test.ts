// PostgreSQL only: what several instances share beyond the tables (SharedState), under real
// concurrency between two store instances on one fresh database. Rate buckets admit exactly their
// capacity across instances and refill with time; flights elect one leader, hand their outcome to
// followers, and are gone once their owner's lease lapses or they are taken over.
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedState, Store } from '../../src/core/ports/store.js';
import { backings, pgKind, T0 } from './stores.js';

// Hundreds of concurrent transactions: a generous bound for a busy machine, not a measurement.
describe.skipIf(!pgKind.available)('PostgreSQL shared state', { timeout: 120_000 }, () => {
  const dbs = backings(pgKind);
  afterEach(() => dbs.cleanup());

  async function two(): Promise<[SharedState, SharedState, Store, Store]> {
    const db = await dbs.fresh();
    const a = db.open();
    const b = db.open();
    expect(a.shared).toBeDefined();
    return [a.shared!, b.shared!, a, b];
  }

  it('the SQLite store has none', async () => {
    const { sqliteKind } = await import('./stores.js');
    const db = await sqliteKind.create();
    try {
      expect(db.open().shared).toBeUndefined();
    } finally {
      await db.drop();
    }
  });

  it('takeToken: N per minute admits exactly N of many concurrent calls over two instances, then refills over time', async () => {
    const [a, b] = await two();
    const takes = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? a : b).takeToken('key_1', 50, T0)));
    expect(takes.filter((t) => t.allowed).length).toBe(50);
    for (const t of takes) expect(t.tokens).toBeGreaterThanOrEqual(0);
    expect(
      takes
        .filter((t) => t.allowed)
        .map((t) => t.tokens)
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // Another bucket is its own.
    expect(await a.takeToken('key_2', 50, T0)).toEqual({ allowed: true, tokens: 49 });
    // 12 seconds at 50 a minute: 10 tokens back, no more.
    const later = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? b : a).takeToken('key_1', 50, T0 + 12_000)));
    expect(later.filter((t) => t.allowed).length).toBe(10);
    // An instance whose clock is behind gets no refill from it (time never runs backwards for a bucket).
    expect(await a.takeToken('key_1', 50, T0 + 6_000)).toEqual({ allowed: false, tokens: 0 });
    // Never more than the capacity, however long idle.
    expect(await b.takeToken('key_1', 50, T0 + 3_600_000)).toEqual({ allowed: true, tokens: 49 });
  });

  it('takeToken: a new capacity (the plan changed) starts a full bucket of that size', async () => {
    const [a, b] = await two();
    for (let i = 0; i < 5; i++) expect((await a.takeToken('key_1', 5, T0)).allowed).toBe(true);
    expect(await b.takeToken('key_1', 5, T0)).toEqual({ allowed: false, tokens: 0 });
    const raised = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).takeToken('key_1', 20, T0 + 1)));
    expect(raised.filter((t) => t.allowed).length).toBe(20);
    // Fractional capacities are whole tokens; below one, one.
    expect(await a.takeToken('key_3', 0.4, T0)).toEqual({ allowed: true, tokens: 0 });
    expect(await a.takeToken('key_3', 0.4, T0)).toEqual({ allowed: false, tokens: 0 });
  });

  it('flights: one leader of many concurrent claims; followers read its value, or its error', async () => {
    const [a, b] = await two();
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).claimFlight('search:x', `fl_${i}`, i % 2 === 0 ? 'inst_a' : 'inst_b', T0 + 30_000, T0)));
    const leaders = claims.flatMap((c, i) => (c.leader ? [`fl_${i}`] : []));
    expect(leaders.length).toBe(1);
    const leader = leaders[0]!;
    for (const c of claims) if (!c.leader) expect(c.id).toBe(leader);
    expect(await b.readFlight('search:x', leader, T0 + 10)).toEqual({ state: 'running' });
    await a.endFlight('search:x', leader, { value: { stays: [1, 2], n: null } }, T0 + 20);
    expect(await b.readFlight('search:x', leader, T0 + 21)).toEqual({ state: 'done', value: { stays: [1, 2], n: null } });

    // Ended: the next claim leads a new flight, whose error followers read.
    expect(await b.claimFlight('search:x', 'fl_next', 'inst_b', T0 + 30_000, T0 + 30)).toEqual({ leader: true });
    expect(await a.claimFlight('search:x', 'fl_other', 'inst_a', T0 + 30_000, T0 + 31)).toEqual({ leader: false, id: 'fl_next' });
    await b.endFlight('search:x', 'fl_next', { error: { code: 'upstream_degraded' } }, T0 + 40);
    expect(await a.readFlight('search:x', 'fl_next', T0 + 41)).toEqual({ state: 'failed', error: { code: 'upstream_degraded' } });
    // The replaced flight is gone; so is one that never was.
    expect(await a.readFlight('search:x', leader, T0 + 41)).toEqual({ state: 'gone' });
    expect(await a.readFlight('search:y', 'fl_0', T0 + 41)).toEqual({ state: 'gone' });
  });

  it('flights: gone once the leader’s lease lapses, taken over, and the old leader’s late end changes nothing', async () => {
    const [a, b, storeA] = await two();
    expect(await a.claimFlight('k', 'fl_a', 'inst_a', T0 + 1000, T0)).toEqual({ leader: true });
    expect(await b.claimFlight('k', 'fl_b', 'inst_b', T0 + 2000, T0 + 999)).toEqual({ leader: false, id: 'fl_a' });
    expect(await b.readFlight('k', 'fl_a', T0 + 999)).toEqual({ state: 'running' });
    expect(await b.readFlight('k', 'fl_a', T0 + 1000)).toEqual({ state: 'gone' });
    // The heartbeat extends a flight's lease as it does a job's.
    await storeA.renewLeases('inst_a', T0 + 5000, { jobs: [], holds: [], flights: ['fl_a'] });
    expect(await b.readFlight('k', 'fl_a', T0 + 4999)).toEqual({ state: 'running' });
    expect(await b.claimFlight('k', 'fl_b', 'inst_b', T0 + 9000, T0 + 4999)).toEqual({ leader: false, id: 'fl_a' });
    // inst_a stops renewing: after its lease, b takes over.
    expect(await b.claimFlight('k', 'fl_b', 'inst_b', T0 + 9000, T0 + 5000)).toEqual({ leader: true });
    expect(await a.readFlight('k', 'fl_a', T0 + 5001)).toEqual({ state: 'gone' });
    await a.endFlight('k', 'fl_a', { value: 'stale' }, T0 + 5002);
    expect(await a.readFlight('k', 'fl_b', T0 + 5003)).toEqual({ state: 'running' });
    await b.endFlight('k', 'fl_b', { value: 'fresh' }, T0 + 5004);
    expect(await a.readFlight('k', 'fl_b', T0 + 5005)).toEqual({ state: 'done', value: 'fresh' });
  });

  it('flights: abandoning an instance ends its running flights for the others', async () => {
    const [a, b, storeA] = await two();
    expect(await a.claimFlight('k1', 'fl_1', 'inst_a', T0 + 60_000, T0)).toEqual({ leader: true });
    expect(await b.claimFlight('k2', 'fl_2', 'inst_b', T0 + 60_000, T0)).toEqual({ leader: true });
    await storeA.abandon('inst_a', { code: 'shutdown' }, T0 + 10, T0 + 100_000);
    expect(await b.readFlight('k1', 'fl_1', T0 + 11)).toEqual({ state: 'gone' });
    expect(await b.readFlight('k2', 'fl_2', T0 + 11)).toEqual({ state: 'running' });
    expect(await b.claimFlight('k1', 'fl_3', 'inst_b', T0 + 60_000, T0 + 12)).toEqual({ leader: true });
  });
});
