// Observations (issue 26) on every store: a value equal to its series' latest extends that row, a
// changed one starts a new row, series are read oldest first, and the sweep purges what was last
// seen before the retention. observations.inprocess.test.ts runs it on SQLite, observations.pg.test.ts
// (e2e) on PostgreSQL.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeListing } from '../../src/core/analytics/listing-summary.js';
import type { NewObservation, Store } from '../../src/core/ports/store.js';
import { T0, backings, type StoreKind } from './stores.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Observations whose values hold only what a test reads (the store keeps any JSON). */
const obs = (o: object) => o as NewObservation;
const quote = (totalPrice: number, over: object = {}): NewObservation =>
  obs({
    platform: 'airbnb',
    listingId: '123',
    kind: 'quote',
    key: '2027-03-01/2027-03-04/2',
    currency: 'EUR',
    value: { nightlyPrice: totalPrice / 3, totalPrice },
    ...over,
  });
const series = (store: Store, over: Partial<Parameters<Store['history']['quoteSeries']>[0]> = {}) =>
  store.history.quoteSeries({ platform: 'airbnb', listingId: '123', key: '2027-03-01/2027-03-04/2', from: 0, to: Number.MAX_SAFE_INTEGER, ...over });

export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: observations`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());
    const open = async (): Promise<Store> => (await dbs.fresh()).open();

    it('an unchanged value extends its row (last seen, times seen); a change starts a new row; the series reads oldest first', async () => {
      const store = await open();
      expect(await store.recordObservations([quote(300)], 'simulated', T0)).toEqual({ added: 1, extended: 0 });
      expect(await store.recordObservations([quote(300)], 'simulated', T0 + MIN)).toEqual({ added: 0, extended: 1 });
      expect(await store.recordObservations([quote(300)], 'other~actor', T0 + 2 * MIN)).toEqual({ added: 0, extended: 1 });
      expect(await store.recordObservations([quote(270)], 'simulated', T0 + 3 * MIN)).toEqual({ added: 1, extended: 0 });
      // Back to an earlier value: a change from the latest, so a row of its own.
      expect(await store.recordObservations([quote(300)], 'simulated', T0 + 4 * MIN)).toEqual({ added: 1, extended: 0 });
      // Another currency is another observation.
      expect(await store.recordObservations([quote(300, { currency: 'USD' })], 'simulated', T0 + 5 * MIN)).toEqual({ added: 1, extended: 0 });
      const rows = await series(store);
      expect(rows.map((r) => [r.value, r.currency, r.firstSeen - T0, r.lastSeen - T0, r.timesSeen, r.source])).toEqual([
        [{ nightlyPrice: 100, totalPrice: 300 }, 'EUR', 0, 2 * MIN, 3, 'simulated'],
        [{ nightlyPrice: 90, totalPrice: 270 }, 'EUR', 3 * MIN, 3 * MIN, 1, 'simulated'],
        [{ nightlyPrice: 100, totalPrice: 300 }, 'EUR', 4 * MIN, 4 * MIN, 1, 'simulated'],
        [{ nightlyPrice: 100, totalPrice: 300 }, 'USD', 5 * MIN, 5 * MIN, 1, 'simulated'],
      ]);
      // A window: rows seen within it.
      expect((await series(store, { from: T0 + 3 * MIN, to: T0 + 4 * MIN })).map((r) => r.firstSeen - T0)).toEqual([3 * MIN, 4 * MIN]);
    });

    it('one answer records many series at once; each series is its own; repeats within an answer count once', async () => {
      const store = await open();
      const days = (avail: boolean[]) => avail.map((a, i) => obs({ platform: 'vrbo', listingId: '9', kind: 'day', key: `2027-03-0${i + 1}`, currency: null, value: { available: a, minNights: 2 } }));
      expect(await store.recordObservations(days([true, true, true, true]), 'simulated', T0)).toEqual({ added: 4, extended: 0 });
      expect(await store.recordObservations([...days([true, false, true, true]), quote(300), quote(300)], 'simulated', T0 + MIN)).toEqual({ added: 2, extended: 3 });
      const day2 = await store.history.calendar({ platform: 'vrbo', listingId: '9' }, { from: '2027-03-02', to: '2027-03-02' });
      expect(day2.map((r) => [r.value, r.timesSeen])).toEqual([
        [{ available: true, minNights: 2 }, 1],
        [{ available: false, minNights: 2 }, 1],
      ]);
      expect((await series(store)).map((r) => r.timesSeen)).toEqual([1]);
      expect(await store.recordObservations([], 'simulated', T0)).toEqual({ added: 0, extended: 0 });
    });

    it('concurrent recorders of the same series (two processes) never start it twice', async () => {
      const backing = await dbs.fresh();
      const a = backing.open();
      const b = backing.open();
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).recordObservations([quote(300)], 'simulated', T0 + i)));
      const rows = await series(a);
      expect(rows.map((r) => r.timesSeen)).toEqual([20]);
      // Whichever came first started it; the last seen never goes back in time.
      expect(rows[0]!.firstSeen - T0).toBeGreaterThanOrEqual(0);
      expect(rows[0]!.lastSeen).toBe(T0 + 19);
    });

    // The live path queues its answers (written after its response): in order, the reads and
    // recordObservations of the same store wait for them, and close writes what is still queued.
    it('queued answers are written in order; reads and recordObservations wait for them; close writes what is queued', async () => {
      const backing = await dbs.fresh();
      const store = backing.open();
      store.queueObservations([quote(300)], 'simulated', T0);
      store.queueObservations([quote(300)], 'simulated', T0 + MIN);
      store.queueObservations([quote(270), quote(90, { key: '2027-04-01/2027-04-02/2' })], 'simulated', T0 + 2 * MIN);
      store.queueObservations([], 'simulated', T0 + 3 * MIN);
      const total = (rows: { value: unknown }[]) => rows.map((r) => (r.value as { totalPrice: number }).totalPrice);
      // Read at once: what was queued before the read is in it.
      expect((await series(store)).map((r) => [r.firstSeen - T0, r.lastSeen - T0, r.timesSeen])).toEqual([
        [0, MIN, 2],
        [2 * MIN, 2 * MIN, 1],
      ]);
      expect(total(await series(store, { key: '2027-04-01/2027-04-02/2' }))).toEqual([90]);
      store.queueObservations([quote(270)], 'simulated', T0 + 4 * MIN);
      // Recorded after the queued answer: it sees the 270 extended, then changes it.
      expect(await store.recordObservations([quote(250)], 'simulated', T0 + 5 * MIN)).toEqual({ added: 1, extended: 0 });
      expect((await series(store)).map((r) => [(r.value as { totalPrice: number }).totalPrice, r.timesSeen])).toEqual([
        [300, 2],
        [270, 2],
        [250, 1],
      ]);
      store.queueObservations([quote(200)], 'simulated', T0 + 6 * MIN);
      await store.close();
      const again = backing.open();
      expect(total(await series(again))).toEqual([300, 270, 250, 200]);
    });

    it("a listing's nights in key order, and the listings searches of a place showed (any dates), on both engines", async () => {
      const store = await open();
      const day = (key: string, available: boolean) => obs({ platform: 'vrbo', listingId: '9', kind: 'day', key, currency: null, value: { available } });
      await store.recordObservations([day('2027-03-02', true), day('2027-03-01', true), day('2027-03-10', true)], 'simulated', T0);
      await store.recordObservations([day('2027-03-02', false)], 'simulated', T0 + MIN);
      const nights = await store.history.calendar({ platform: 'vrbo', listingId: '9' }, { from: '2027-03-01', to: '2027-03-09' });
      expect(nights.map((r) => [r.key, r.value])).toEqual([
        ['2027-03-01', { available: true }],
        ['2027-03-02', { available: true }],
        ['2027-03-02', { available: false }],
      ]);
      const row = (listingId: string, key: string, name: string) => obs({ platform: 'airbnb', listingId, kind: 'search', key, currency: 'EUR', value: { name } });
      await store.recordObservations([row('1', 'nice', 'One'), row('2', 'nice', 'Two'), row('5', 'nicea', 'Other place')], 'simulated', T0);
      await store.recordObservations([row('1', 'nice@2027-05-01/2027-05-04/2', 'One')], 'simulated', T0 + 2 * MIN);
      const seen = await store.history.listingsShownIn({ place: 'nice', platforms: ['airbnb', 'vrbo'], from: 0, to: T0 + HOUR });
      expect(seen.listings.map((l) => [l.listingId, l.name, l.firstSeen - T0, l.lastSeen - T0, l.timesSeen])).toEqual([
        ['1', 'One', 0, 2 * MIN, 2],
        ['2', 'Two', 0, 0, 1],
      ]);
      expect(seen.lastSearched).toEqual({ airbnb: T0 + 2 * MIN });
      expect((await store.history.listingsShownIn({ place: 'nice', platforms: ['vrbo'], from: 0, to: T0 + HOUR })).listings).toEqual([]);
      expect((await store.history.listingsShownIn({ place: 'nice', platforms: ['airbnb'], from: T0 + MIN, to: T0 + HOUR })).listings.map((l) => l.listingId)).toEqual(['1']);
    });

    it("a listing's kept summary is made once, read until its observations change, and made again when kept in another form", async () => {
      const backing = await dbs.fresh();
      const store = backing.open();
      const day = (key: string, available: boolean) => obs({ platform: 'vrbo', listingId: '9', kind: 'day', key, currency: null, value: { available } });
      await store.recordObservations([day('2027-03-01', true), day('2027-03-02', true)], 'simulated', T0);
      let made = 0;
      const counting: Parameters<Store['history']['digests']>[2] = (days, prices, within) => {
        made++;
        return summarizeListing(days, prices, within);
      };
      const digest = async () => {
        let states = '';
        await store.history.digests([{ platform: 'vrbo', listingId: '9' }], { from: '2027-03-01', to: '2027-03-02' }, counting, (b) => {
          states = b[0]!.summary?.states ?? '';
        });
        return states;
      };
      expect(await digest()).toBe('aa');
      expect(await digest()).toBe('aa');
      expect(made).toBe(1);
      await store.recordObservations([day('2027-03-02', false)], 'simulated', T0 + HOUR);
      expect(await digest()).not.toBe('aa');
      expect(made).toBe(2);
      // A summary kept by a build of another form (SUMMARY_FORM) is made again, not read.
      const stale = 'UPDATE listing_summaries SET summary = REPLACE(summary, \'"form":\', \'"form":1000\')';
      if (kind.name === 'sqlite') {
        const raw = new Database(backing.where);
        raw.exec(stale);
        raw.close();
      } else {
        const c = new pg.Client({ connectionString: backing.where });
        await c.connect();
        await c.query(stale);
        await c.end();
      }
      await digest();
      expect(made).toBe(3);
      await digest();
      expect(made).toBe(3);
    });

    it('a summary one instance has read is read anew once another instance changes the listing and makes it again', async () => {
      const backing = await dbs.fresh();
      const [one, other] = [backing.open(), backing.open()];
      const day = (key: string, available: boolean) => obs({ platform: 'vrbo', listingId: '9', kind: 'day', key, currency: null, value: { available } });
      const states = async (store: Store) => {
        let s = '';
        await store.history.digests([{ platform: 'vrbo', listingId: '9' }], { from: '2027-03-01', to: '2027-03-02' }, summarizeListing, (b) => {
          s = b[0]!.summary?.states ?? '';
        });
        return s;
      };
      await one.recordObservations([day('2027-03-01', true), day('2027-03-02', true)], 'simulated', T0);
      // Made, then read from what is kept (twice: the second from what this instance parsed).
      expect([await states(one), await states(one), await states(one)]).toEqual(['aa', 'aa', 'aa']);
      await other.recordObservations([day('2027-03-02', false)], 'simulated', T0 + HOUR);
      const changed = await states(other);
      expect(changed).not.toBe('aa');
      expect([await states(one), await states(one)]).toEqual([changed, changed]);
    });

    it('every row last seen since an instant, page by page in id order, each row once, on both engines', async () => {
      const store = await open();
      await store.recordObservations([quote(300), quote(300, { listingId: '456' })], 'simulated', T0);
      await store.recordObservations([quote(270)], 'simulated', T0 + 10 * MIN);
      await store.recordObservations([quote(270), quote(250, { listingId: '789', kind: 'day', key: '2027-03-01' })], 'simulated', T0 + 20 * MIN);
      // Pages of two, each after the last id of the one before, until a short page.
      const walk = async (since: number) => {
        const seen: [string, unknown, number, number][] = [];
        let afterId = 0;
        for (let n = 0; n < 10; n++) {
          const page = await store.observationsSince({ since, afterId, limit: 2 });
          expect(page.length).toBeLessThanOrEqual(2);
          seen.push(...page.map((r): [string, unknown, number, number] => [r.listingId, r.value, r.lastSeen - T0, r.timesSeen]));
          if (page.length < 2) return seen;
          afterId = page.at(-1)!.id;
        }
        throw new Error('the walk did not end');
      };
      expect(await walk(0)).toEqual([
        ['123', { nightlyPrice: 100, totalPrice: 300 }, 0, 1],
        ['456', { nightlyPrice: 100, totalPrice: 300 }, 0, 1],
        ['123', { nightlyPrice: 90, totalPrice: 270 }, 20 * MIN, 2],
        ['789', { nightlyPrice: 250 / 3, totalPrice: 250 }, 20 * MIN, 1],
      ]);
      // Since an instant: rows last seen then or later (the 270 quote was extended at +20 min).
      expect((await walk(T0 + 15 * MIN)).map((r) => r[0])).toEqual(['123', '789']);
      expect(await walk(T0 + HOUR)).toEqual([]);
    });

    it('the sweep purges observations last seen before the retention, in batches, and only those', async () => {
      const store = await open();
      await store.recordObservations([quote(300)], 'simulated', T0);
      await store.recordObservations([quote(200)], 'simulated', T0 + 10 * MIN);
      await store.recordObservations([quote(300, { listingId: '456' })], 'simulated', T0 + 20 * MIN);
      expect((await store.purgeExpired(T0 + 30 * MIN, 100)).observations).toBe(0);
      expect((await store.purgeExpired(T0 + 30 * MIN, 1, { observationsBefore: T0 + 15 * MIN })).observations).toBe(1);
      expect((await store.purgeExpired(T0 + 30 * MIN, 1, { observationsBefore: T0 + 15 * MIN })).observations).toBe(1);
      expect((await store.purgeExpired(T0 + 30 * MIN, 1, { observationsBefore: T0 + 15 * MIN })).observations).toBe(0);
      expect(await series(store)).toEqual([]);
      expect(await series(store, { listingId: '456' })).toHaveLength(1);
      // A series whose latest row was purged starts again.
      expect(await store.recordObservations([quote(200)], 'simulated', T0 + 40 * MIN)).toEqual({ added: 1, extended: 0 });
    });

    it("each account's rows are its own series; a reader sees its own (and those recorded without an account), the pool every calendar merged, never another account's queries", async () => {
      const store = await open();
      const night = (available: boolean) => obs({ platform: 'vrbo', listingId: '9', kind: 'day', key: '2027-03-01', currency: null, value: { available } });
      const search = obs({ platform: 'vrbo', listingId: '9', kind: 'search', key: 'secret place@2027-03-01/2027-03-04/3', currency: 'EUR', value: { name: 'n', nightlyPrice: 100 } });
      // A saw the night free at T0 and again at T0+10h (one row); B saw it taken at T0+5h; a row recorded without an account at T0-1h.
      await store.recordObservations([night(true)], 'simulated', T0 - HOUR);
      expect(await store.recordObservations([night(true), search], 'simulated', T0, 'acct_a')).toEqual({ added: 2, extended: 0 });
      expect(await store.recordObservations([night(false)], 'simulated', T0 + 5 * HOUR, 'acct_b')).toEqual({ added: 1, extended: 0 });
      expect(await store.recordObservations([night(true)], 'simulated', T0 + 10 * HOUR, 'acct_a')).toEqual({ added: 0, extended: 1 });
      const story = async (view: { account: string | null; pooled: boolean }) =>
        (await store.historyOf(view).calendar({ platform: 'vrbo', listingId: '9' }, { from: '2027-03-01', to: '2027-03-01' })).map((r) => [
          (r.value as { available: boolean }).available,
          (r.firstSeen - T0) / HOUR,
          (r.lastSeen - T0) / HOUR,
          r.timesSeen,
        ]);
      // A's own: the row without an account and its own, the same value: one run.
      expect(await story({ account: 'acct_a', pooled: false })).toEqual([[true, -1, 10, 3]]);
      expect(await story({ account: 'acct_b', pooled: false })).toEqual([
        [true, -1, -1, 1],
        [false, 5, 5, 1],
      ]);
      // Pooled: one story of every account's observations, in time order: free, taken at 5h, free again at 10h.
      const pooled = [
        [true, -1, 0, 2],
        [false, 5, 5, 1],
        [true, 10, 10, 1],
      ];
      expect(await story({ account: 'acct_b', pooled: true })).toEqual(pooled);
      expect(await story({ account: null, pooled: true })).toEqual(pooled);
      // Queries: A's search is A's alone, pooled or not.
      const shown = async (view: { account: string | null; pooled: boolean }) =>
        (await store.historyOf(view).listingsShownIn({ place: 'secret place', platforms: ['vrbo'], from: 0, to: T0 + HOUR })).listings.length;
      expect([await shown({ account: 'acct_a', pooled: false }), await shown({ account: 'acct_b', pooled: false }), await shown({ account: 'acct_b', pooled: true })]).toEqual([1, 0, 0]);
      // The export: B's own view has no row of A's; pooled, A's calendar but not its search.
      const exported = async (view: { account: string | null; pooled: boolean }) =>
        (await store.observationsSince({ since: 0, afterId: 0, limit: 100, view })).map((r) => `${r.kind}:${(r.value as { available?: boolean }).available ?? r.key}@${(r.firstSeen - T0) / HOUR}`);
      expect(await exported({ account: 'acct_b', pooled: false })).toEqual(['day:true@-1', 'day:false@5']);
      expect(await exported({ account: 'acct_b', pooled: true })).toEqual(['day:true@-1', 'day:true@0', 'day:false@5']);
      expect(await exported({ account: 'acct_a', pooled: false })).toEqual(['day:true@-1', 'day:true@0', 'search:secret place@2027-03-01/2027-03-04/3@0']);
      // Summaries are kept per scope, and every one is made again once any account's rows of the listing change.
      let made = 0;
      const digest = async (view: { account: string | null; pooled: boolean }) => {
        let states = '';
        await store.historyOf(view).digests(
          [{ platform: 'vrbo', listingId: '9' }],
          { from: '2027-03-01', to: '2027-03-01' },
          (d, p, w) => (made++, summarizeListing(d, p, w)),
          (b) => {
            states = b[0]!.summary?.states ?? '';
          },
        );
        return states;
      };
      const a = await digest({ account: 'acct_a', pooled: false });
      const b = await digest({ account: 'acct_b', pooled: false });
      expect([a, b]).toEqual(['a', 'b']);
      await digest({ account: 'acct_a', pooled: false });
      await digest({ account: 'acct_b', pooled: true });
      expect(made).toBe(3);
      await store.recordObservations([night(false)], 'simulated', T0 + 11 * HOUR, 'acct_a');
      expect(await digest({ account: 'acct_a', pooled: false })).not.toBe('a');
      await digest({ account: 'acct_b', pooled: true });
      expect(made).toBe(5);
    });
  });
}
