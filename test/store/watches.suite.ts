// Watches (issue 26, item 4) on every store: the cap on active watches, a claim that moves the next
// run an interval on (two claimers never both get one watch for one interval), a run recorded with
// its events in one go, the state kept for the next run, and the watch ending. watches.inprocess.test.ts
// runs it on SQLite, watches.pg.test.ts (e2e) on PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import { type NewWatch, type Store, WATCH_EVENT_RETENTION_MS } from '../../src/core/ports/store.js';
import { T0, addAccount, backings, type StoreKind } from './stores.js';

const MIN = 60_000;
const DAY = 1440 * MIN;

async function setUp(store: Store) {
  await addAccount(store, 'acct_1', 100);
  await addAccount(store, 'acct_2', 100);
  await store.createKey({ id: 'key_1', accountId: 'acct_1', env: 'live', scopes: ['stays.read'], hash: 'h1'.repeat(32), prefix: 'stay_live_abcd', createdAt: T0 });
  await store.createKey({ id: 'key_2', accountId: 'acct_2', env: 'sandbox', scopes: ['stays.read'], hash: 'h2'.repeat(32), prefix: 'stay_test_abcd', createdAt: T0 });
}

const watch = (id: string, over: Partial<NewWatch> = {}): NewWatch => ({
  id,
  accountId: 'acct_1',
  keyId: 'key_1',
  env: 'live',
  name: null,
  call: { type: 'price', params: { platform: 'airbnb', listingId: '1', checkIn: '2027-03-01', checkOut: '2027-03-04' } },
  rules: [{ type: 'price_drop', percent: 10, field: 'nightlyPrice' }],
  intervalMinutes: 15,
  maxCreditsPerDay: null,
  createdAt: T0,
  nextRunAt: T0,
  ...over,
});

export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: watches`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());
    const open = async (): Promise<Store> => (await dbs.fresh()).open();

    it('creates up to the cap of active watches; lists newest first, by environment; deletes', async () => {
      const store = await open();
      await setUp(store);
      expect(await store.createWatch(watch('wat_a'), 2)).toMatchObject({ id: 'wat_a', status: 'active', runs: 0, state: null, lastRunAt: null, call: watch('x').call });
      expect(await store.createWatch(watch('wat_b', { createdAt: T0 + 1 }), 2)).not.toBeNull();
      expect(await store.createWatch(watch('wat_c', { createdAt: T0 + 2 }), 2)).toBeNull();
      expect((await store.listWatches('acct_1', 'live', null, 10)).map((w) => w.id)).toEqual(['wat_b', 'wat_a']);
      expect((await store.listWatches('acct_1', 'live', { createdAt: T0 + 1, id: 'wat_b' }, 10)).map((w) => w.id)).toEqual(['wat_a']);
      expect(await store.listWatches('acct_1', 'sandbox', null, 10)).toEqual([]);
      expect(await store.deleteWatch('wat_a', 'acct_2', T0)).toBeNull();
      expect(await store.deleteWatch('wat_a', 'acct_1', T0 + 5)).toMatchObject({ status: 'deleted' });
      expect((await store.listWatches('acct_1', 'live', null, 10)).map((w) => w.id)).toEqual(['wat_b']);
      // A deleted watch frees its place under the cap.
      expect(await store.createWatch(watch('wat_c', { createdAt: T0 + 2 }), 2)).not.toBeNull();
    });

    it('a claim takes due active watches once per interval, oldest due first, and only those asked for; the next run stays on the phase', async () => {
      const store = await open();
      await setUp(store);
      await store.createWatch(watch('wat_a', { nextRunAt: T0 + MIN }), 10);
      await store.createWatch(watch('wat_b', { nextRunAt: T0 }), 10);
      await store.createWatch(watch('wat_c', { nextRunAt: T0 + 60 * MIN }), 10);
      await store.createWatch(watch('wat_d', { accountId: 'acct_2', keyId: 'key_2', env: 'sandbox' }), 10);
      expect((await store.claimDueWatches(T0 + MIN, 10, { accountId: 'acct_1' })).map((w) => [w.id, w.nextRunAt - T0])).toEqual([
        ['wat_a', 15 * MIN],
        ['wat_b', 15 * MIN],
      ]);
      // Under a limit, the one due first.
      await store.createWatch(watch('wat_e', { nextRunAt: T0 + 2 * MIN }), 10);
      await store.createWatch(watch('wat_f', { nextRunAt: T0 + MIN }), 10);
      expect((await store.claimDueWatches(T0 + 2 * MIN, 1, { accountId: 'acct_1' })).map((w) => w.id)).toEqual(['wat_f']);
      expect((await store.claimDueWatches(T0 + 2 * MIN, 1, { accountId: 'acct_1' })).map((w) => w.id)).toEqual(['wat_e']);
      // Claimed: not due again until their interval passed, whoever asks.
      expect((await store.claimDueWatches(T0 + 2 * MIN, 10)).map((w) => w.id)).toEqual(['wat_d']);
      expect(await store.claimDueWatches(T0 + 2 * MIN, 10)).toEqual([]);
      // Two claimers at once: each due watch goes to one of them.
      const [x, y] = await Promise.all([store.claimDueWatches(T0 + 16 * MIN, 10), store.claimDueWatches(T0 + 16 * MIN, 10)]);
      expect([...x!, ...y!].map((w) => w.id).sort()).toEqual(['wat_a', 'wat_b', 'wat_d', 'wat_e', 'wat_f']);
      expect((await store.claimDueWatches(T0 + 31 * MIN, 10, { env: 'sandbox' })).map((w) => w.id)).toEqual(['wat_d']);
    });

    it('due from the slack before its nominal time (created at + k × interval); the next run the nominal time after the one claimed', async () => {
      const store = await open();
      await setUp(store);
      await store.createWatch(watch('wat_d', { intervalMinutes: 1440, createdAt: T0, nextRunAt: T0 }), 10);
      const claim = (at: number) => store.claimDueWatches(at, 10, { slackMs: MIN });
      expect((await claim(T0)).map((w) => w.nextRunAt - T0)).toEqual([DAY]);
      // A tick a few ms early is within the slack: it runs, and the phase holds.
      expect((await claim(T0 + DAY - 5)).map((w) => w.nextRunAt - T0)).toEqual([2 * DAY]);
      // One late the next day: the run of that day, the next the day after.
      expect((await claim(T0 + 2 * DAY + 5)).map((w) => w.nextRunAt - T0)).toEqual([3 * DAY]);
      // Before the slack: not due.
      expect(await claim(T0 + 3 * DAY - 2 * MIN)).toEqual([]);
      // Days nothing ran: one run, of the latest nominal time; the next after it.
      expect((await claim(T0 + 6 * DAY + 3 * MIN)).map((w) => w.nextRunAt - T0)).toEqual([7 * DAY]);
    });

    it("a fair claim: at most perAccount of one account, each account's first before anyone's second, none of skipAccounts", async () => {
      const store = await open();
      await setUp(store);
      for (const i of [1, 2, 3]) await store.createWatch(watch(`wat_a${i}`, { nextRunAt: T0 + i }), 10);
      await store.createWatch(watch('wat_b1', { accountId: 'acct_2', keyId: 'key_2', env: 'sandbox', nextRunAt: T0 + 9 }), 10);
      expect((await store.claimDueWatches(T0 + MIN, 2, { perAccount: 1 })).map((w) => w.id).sort()).toEqual(['wat_a1', 'wat_b1']);
      expect((await store.claimDueWatches(T0 + MIN, 10, { perAccount: 1, skipAccounts: ['acct_1'] })).map((w) => w.id)).toEqual([]);
      expect((await store.claimDueWatches(T0 + MIN, 10, { perAccount: 1 })).map((w) => w.id)).toEqual(['wat_a2']);
      expect((await store.claimDueWatches(T0 + MIN, 10)).map((w) => w.id)).toEqual(['wat_a3']);
    });

    it('a deletion takes the watch and its events at once (a run ending after it records nothing); the cap counts ended watches; the sweep takes old events', async () => {
      const store = await open();
      await setUp(store);
      const run = { outcome: 'ok' as const, charged: 0, error: null, creditsDay: '2027-01-15', creditsToday: 0 };
      const event = (id: string) => ({ id, rule: { type: 'price_drop' }, before: null, after: null, changes: [] });
      await store.createWatch(watch('wat_a'), 2);
      await store.finishWatchRun('wat_a', { ...run, at: T0 }, [event('wev_1')]);
      expect((await store.deleteWatch('wat_a', 'acct_1', T0 + 1))?.status).toBe('deleted');
      expect(await store.getWatch('wat_a')).toBeNull();
      expect(await store.watchEvents('wat_a', null, 10)).toEqual([]);
      await store.finishWatchRun('wat_a', { ...run, at: T0 + 2 }, [event('wev_2')]);
      expect(await store.watchEvents('wat_a', null, 10)).toEqual([]);
      // Ended watches count under the cap.
      await store.createWatch(watch('wat_b'), 2);
      await store.finishWatchRun('wat_b', { ...run, at: T0, outcome: 'failed', endedReason: 'Its dates passed.' }, []);
      await store.createWatch(watch('wat_c'), 2);
      expect(await store.createWatch(watch('wat_d'), 2)).toBeNull();
      // Events past their retention go at the sweep; newer ones stay.
      await store.finishWatchRun('wat_c', { ...run, at: T0 }, [event('wev_3')]);
      await store.finishWatchRun('wat_c', { ...run, at: T0 + DAY }, [event('wev_4')]);
      expect((await store.purgeExpired(T0 + WATCH_EVENT_RETENTION_MS + 1, 100)).watches).toBe(1);
      expect((await store.watchEvents('wat_c', null, 10)).map((e) => e.id)).toEqual(['wev_4']);
    });

    it('a run is recorded with its events in one go; a failed run keeps the state; an ended watch is never claimed', async () => {
      const store = await open();
      await setUp(store);
      await store.createWatch(watch('wat_a'), 10);
      const state = { nightlyPrice: 100, totalPrice: 300, currency: 'EUR' };
      await store.finishWatchRun('wat_a', { at: T0, outcome: 'ok', charged: 3, error: null, state, creditsDay: '2027-01-15', creditsToday: 3 }, [
        { id: 'wev_1', rule: { type: 'price_drop', percent: 10 }, before: { nightlyPrice: 120 }, after: state, changes: [] },
      ]);
      await store.finishWatchRun('wat_a', { at: T0 + MIN, outcome: 'failed', charged: 0, error: { code: 'actor_timeout', message: 'late' }, creditsDay: '2027-01-15', creditsToday: 3 }, []);
      expect(await store.getWatch('wat_a')).toMatchObject({
        state,
        runs: 2,
        triggers: 1,
        lastRunAt: T0 + MIN,
        lastOutcome: 'failed',
        lastError: { code: 'actor_timeout', message: 'late' },
        creditsDay: '2027-01-15',
        creditsToday: 3,
      });
      expect(await store.watchEvents('wat_a', null, 10)).toEqual([
        { id: 'wev_1', watchId: 'wat_a', occurredAt: T0, rule: { type: 'price_drop', percent: 10 }, before: { nightlyPrice: 120 }, after: state, changes: [] },
      ]);
      expect(await store.watchEvents('wat_a', { occurredAt: T0, id: 'wev_1' }, 10)).toEqual([]);
      await store.finishWatchRun('wat_a', { at: T0 + 2 * MIN, outcome: 'failed', charged: 0, error: null, creditsDay: '2027-01-15', creditsToday: 3, endedReason: 'Its dates passed.' }, []);
      expect(await store.getWatch('wat_a')).toMatchObject({ status: 'ended', endedReason: 'Its dates passed.', state });
      expect(await store.claimDueWatches(T0 + 60 * MIN, 10)).toEqual([]);
    });
  });
}
