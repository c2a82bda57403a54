// The work of collections' passes (issue 38, item 5) on every store: items planned once per pass,
// claimed under leases by several processes on the same data without any item claimed twice,
// claimed again once a dead process's lease runs out (whose late finish is then refused), finished
// once, given back, and counted per pass. collection-items.inprocess.test.ts runs it on SQLite,
// collection-items.pg.test.ts (e2e) on PostgreSQL, where the claimers are separate pools (two
// `stays serve` instances on one database) and FOR UPDATE SKIP LOCKED keeps them apart.
import { afterEach, describe, expect, it } from 'vitest';
import type { CollectionItemKey, Store } from '../../src/core/ports/store.js';
import { T0, backings, type StoreKind } from './stores.js';

const MIN = 60_000;

async function collectionIn(store: Store): Promise<string> {
  await store.createAccount({ id: 'acct_1', planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 300, freeTierBudget: 300, createdAt: T0 }, 100, null);
  const made = await store.createCollection(
    {
      id: 'col_1',
      accountId: 'acct_1',
      env: 'live',
      name: 'lisbon',
      area: { location: 'Lisbon' },
      platforms: ['airbnb'],
      horizonNights: 180,
      cadence: 'daily',
      rates: 'auto',
      maxCreditsPerDay: 100,
      status: 'active',
      keyId: null,
      createdAt: T0,
    },
    20,
  );
  if (typeof made === 'string') throw new Error(made);
  return made.id;
}

const keyOf = (r: CollectionItemKey): string => `${r.pass}/${r.item}`;

export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: collection items`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    it('a pass plans each item once; due items are claimed earliest first; finished once; passes counted', async () => {
      const store = (await dbs.fresh()).open();
      const id = await collectionIn(store);
      const items = Array.from({ length: 30 }, (_, i) => ({ item: `track:airbnb:${i}`, dueAt: T0 + i * MIN }));
      expect(await store.planCollectionItems(id, 1, items)).toBe(30);
      expect(await store.planCollectionItems(id, 1, items.slice(0, 10))).toBe(0);
      // Only what is due by now, earliest first.
      const first = await store.claimCollectionItems('a', T0 + 4 * MIN, T0 + 10 * MIN, 100);
      expect(first.map((r) => r.item)).toEqual(['track:airbnb:0', 'track:airbnb:1', 'track:airbnb:2', 'track:airbnb:3', 'track:airbnb:4']);
      expect(first.every((r) => r.claimedBy === 'a' && r.attempts === 1 && r.leaseUntil === T0 + 10 * MIN)).toBe(true);
      // Held items are not claimed again while their lease lives.
      expect(await store.claimCollectionItems('b', T0 + 4 * MIN, T0 + 10 * MIN, 100)).toEqual([]);
      expect(await store.finishCollectionItem(first[0]!, 'a', { at: T0 + 5 * MIN, outcome: 'ok', charged: 3 })).toBe(true);
      expect(await store.finishCollectionItem(first[0]!, 'a', { at: T0 + 5 * MIN, outcome: 'ok', charged: 3 })).toBe(false);
      expect(await store.finishCollectionItem(first[1]!, 'b', { at: T0 + 5 * MIN, outcome: 'ok', charged: 3 })).toBe(false);
      // Given back: due again later, claimable then.
      expect(await store.releaseCollectionItem(first[1]!, 'a', T0 + 60 * MIN)).toBe(true);
      expect((await store.claimCollectionItems('b', T0 + 59 * MIN, T0 + 70 * MIN, 100)).map((r) => r.item)).not.toContain('track:airbnb:1');
      expect(await store.planCollectionItems(id, 2, items.slice(0, 2))).toBe(2);
      const passes = await store.collectionPasses(id);
      expect(passes.map((p) => [p.pass, p.items, p.done, p.charged, p.endedAt])).toEqual([
        [2, 2, 0, 0, null],
        [1, 30, 1, 3, null],
      ]);
    });

    it('a dead claimer’s items are claimed again once its lease runs out, and its late finish is refused', async () => {
      const store = (await dbs.fresh()).open();
      const id = await collectionIn(store);
      await store.planCollectionItems(id, 1, [{ item: 'track:airbnb:1', dueAt: T0 }]);
      const [held] = await store.claimCollectionItems('dead', T0, T0 + MIN, 10);
      // Renewed while it lives...
      expect(await store.renewCollectionItems('dead', [held!], T0 + 2 * MIN)).toEqual([{ collectionId: id, pass: 1, item: 'track:airbnb:1' }]);
      expect(await store.claimCollectionItems('other', T0 + MIN + 1, T0 + 5 * MIN, 10)).toEqual([]);
      // ...then it dies: past the lease another takes it (a second attempt).
      const again = await store.claimCollectionItems('other', T0 + 2 * MIN + 1, T0 + 5 * MIN, 10);
      expect(again.map((r) => [r.item, r.claimedBy, r.attempts])).toEqual([['track:airbnb:1', 'other', 2]]);
      expect(await store.renewCollectionItems('dead', [held!], T0 + 9 * MIN)).toEqual([]);
      expect(await store.finishCollectionItem(held!, 'dead', { at: T0 + 3 * MIN, outcome: 'ok', charged: 5 })).toBe(false);
      expect(await store.finishCollectionItem(again[0]!, 'other', { at: T0 + 3 * MIN, outcome: 'ok', charged: 5 })).toBe(true);
      expect((await store.collectionPasses(id))[0]).toMatchObject({ items: 1, done: 1, charged: 5, endedAt: T0 + 3 * MIN });
    });

    it('a claim is fenced by its number: a stalled worker of the same process holds nothing once another worker of it took the item again', async () => {
      const store = (await dbs.fresh()).open();
      const id = await collectionIn(store);
      await store.planCollectionItems(id, 1, [{ item: 'track:airbnb:1', dueAt: T0 }]);
      const [first] = await store.claimCollectionItems('proc', T0, T0 + MIN, 10);
      // The first worker stalls past its lease; another worker of the same process claims the item.
      const [second] = await store.claimCollectionItems('proc', T0 + 2 * MIN, T0 + 3 * MIN, 10);
      expect([first!.attempts, second!.attempts]).toEqual([1, 2]);
      expect(await store.renewCollectionItems('proc', [first!], T0 + 9 * MIN)).toEqual([]);
      expect(await store.releaseCollectionItem(first!, 'proc', T0 + 60 * MIN)).toBe(false);
      expect(await store.finishCollectionItem(first!, 'proc', { at: T0 + 2 * MIN, outcome: 'ok', charged: 5 })).toBe(false);
      expect(await store.renewCollectionItems('proc', [second!], T0 + 9 * MIN)).toEqual([{ collectionId: id, pass: 1, item: 'track:airbnb:1' }]);
      expect(await store.finishCollectionItem(second!, 'proc', { at: T0 + 3 * MIN, outcome: 'ok', charged: 7 })).toBe(true);
      expect((await store.collectionPasses(id))[0]).toMatchObject({ done: 1, charged: 7 });
    });

    it('processes claiming at once on the same data never get the same item', async () => {
      const backing = await dbs.fresh();
      const stores = [backing.open(), backing.open(), backing.open()];
      const id = await collectionIn(stores[0]!);
      const N = 300;
      await stores[0]!.planCollectionItems(
        id,
        1,
        Array.from({ length: N }, (_, i) => ({ item: `track:airbnb:${i}`, dueAt: T0 + (i % 7) })),
      );
      const got: string[][] = stores.map(() => []);
      await Promise.all(
        stores.flatMap((s, w) =>
          // Two claimers a process, each claiming small batches until nothing is left.
          [0, 1].map(async () => {
            for (;;) {
              const batch = await s.claimCollectionItems(`w${w}`, T0 + 10, T0 + 60 * MIN, 7);
              if (batch.length === 0) return;
              got[w]!.push(...batch.map(keyOf));
              for (const r of batch) expect(await s.finishCollectionItem(r, `w${w}`, { at: T0 + 20, outcome: 'ok', charged: 1 })).toBe(true);
            }
          }),
        ),
      );
      const all = got.flat();
      expect(all.length).toBe(N);
      expect(new Set(all).size).toBe(N);
      expect((await stores[1]!.collectionPasses(id))[0]).toMatchObject({ items: N, done: N, charged: N });
    });

    it('a claim narrowed to some collections and due by a later instant; a live lease is never taken however late the due bound', async () => {
      const backing = await dbs.fresh();
      const [a, b] = [backing.open(), backing.open()];
      const id = await collectionIn(a);
      await a.planCollectionItems(id, 0, [
        { item: 'discover', dueAt: T0 },
        { item: 'track:airbnb:1', dueAt: T0 + 60 * MIN },
      ]);
      expect(await a.claimCollectionItems('w1', T0, T0 + MIN, 10, { collectionIds: ['col_other'], dueBy: T0 + 120 * MIN })).toEqual([]);
      const first = await a.claimCollectionItems('w1', T0, T0 + MIN, 10, { collectionIds: [id] });
      expect(first.map(keyOf)).toEqual(['0/discover']);
      // Due by later: the other item; the discovery, leased by w1, stays w1's.
      const later = await b.claimCollectionItems('w2', T0 + 1, T0 + MIN, 10, { collectionIds: [id], dueBy: T0 + 120 * MIN });
      expect(later.map(keyOf)).toEqual(['0/track:airbnb:1']);
    });

    it('the day budget: reservations never pass the max together, what is given back is free again, a new day starts at 0', async () => {
      const backing = await dbs.fresh();
      const stores = [backing.open(), backing.open()];
      const id = await collectionIn(stores[0]!);
      // 40 reservations of 7 at once from two processes against a max of 100: 14 fit.
      const got = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!.reserveCollectionBudget(id, '2026-01-01', 7, 100)));
      expect(got.filter(Boolean).length).toBe(14);
      expect(await stores[1]!.collectionBudgetUsed(id, '2026-01-01')).toBe(98);
      await stores[0]!.returnCollectionBudget(id, '2026-01-01', 10);
      expect(await stores[0]!.collectionBudgetUsed(id, '2026-01-01')).toBe(88);
      expect(await stores[0]!.reserveCollectionBudget(id, '2026-01-01', 12, 100)).toBe(true);
      expect(await stores[0]!.reserveCollectionBudget(id, '2026-01-01', 1, 100)).toBe(false);
      // The next day: nothing reserved yet; giving back to the day before changes nothing.
      expect(await stores[0]!.collectionBudgetUsed(id, '2026-01-02')).toBe(0);
      expect(await stores[0]!.reserveCollectionBudget(id, '2026-01-02', 100, 100)).toBe(true);
      await stores[0]!.returnCollectionBudget(id, '2026-01-01', 50);
      expect(await stores[0]!.collectionBudgetUsed(id, '2026-01-02')).toBe(100);
    });

    it('the listings each discovery found: new ones join with their first pass, known ones are seen again, a listing not found again keeps its last pass', async () => {
      const store = (await dbs.fresh()).open();
      const id = await collectionIn(store);
      await store.recordCollectionListings(id, 0, [
        { platform: 'airbnb', listingId: '1', bedrooms: 2 },
        { platform: 'airbnb', listingId: '2', bedrooms: null },
      ]);
      await store.recordCollectionListings(id, 1, [
        { platform: 'airbnb', listingId: '2', bedrooms: 3 },
        { platform: 'vrbo', listingId: '9', bedrooms: 1 },
      ]);
      // A late write of an earlier pass never moves a listing back.
      await store.recordCollectionListings(id, 0, [{ platform: 'airbnb', listingId: '2', bedrooms: null }]);
      expect(await store.collectionListings(id)).toEqual([
        { platform: 'airbnb', listingId: '1', bedrooms: 2, firstPass: 0, lastPass: 0 },
        { platform: 'airbnb', listingId: '2', bedrooms: 3, firstPass: 0, lastPass: 1 },
        { platform: 'vrbo', listingId: '9', bedrooms: 1, firstPass: 1, lastPass: 1 },
      ]);
    });

    it("a collection's export: the observations of every listing it ever discovered (gone ones too), nothing else, page by page", async () => {
      const store = (await dbs.fresh()).open();
      const id = await collectionIn(store);
      await store.recordCollectionListings(id, 0, [
        { platform: 'airbnb', listingId: '1', bedrooms: 2 },
        { platform: 'airbnb', listingId: '2', bedrooms: null },
      ]);
      // Listing 1 gone in pass 1: still the collection's.
      await store.recordCollectionListings(id, 1, [{ platform: 'airbnb', listingId: '2', bedrooms: 2 }]);
      const day = (platform: string, listingId: string, key: string) => ({
        platform,
        listingId,
        kind: 'day' as const,
        key,
        currency: null,
        value: { available: true, minNights: null, checkIn: null, checkOut: null, bookable: null },
      });
      await store.recordObservations(
        [day('airbnb', '1', '2027-03-01'), day('airbnb', '3', '2027-03-01'), day('vrbo', '1', '2027-03-01'), day('airbnb', '2', '2027-03-01'), day('airbnb', '2', '2027-03-02')],
        'simulated',
        T0,
        'acct_1',
      );
      const walk = async (collectionId: string | undefined, view?: { account: string | null; pooled: boolean }) => {
        const seen: string[] = [];
        let afterId = 0;
        for (;;) {
          const page = await store.observationsSince({ since: 0, afterId, limit: 2, view, collectionId });
          seen.push(...page.map((r) => `${r.platform}:${r.listingId}@${r.key}`));
          if (page.length < 2) return seen;
          afterId = page.at(-1)!.id;
        }
      };
      const mine = ['airbnb:1@2027-03-01', 'airbnb:2@2027-03-01', 'airbnb:2@2027-03-02'];
      expect(await walk(id)).toEqual(mine);
      expect(await walk(id, { account: 'acct_1', pooled: false })).toEqual(mine);
      expect(await walk(id, { account: 'acct_1', pooled: true })).toEqual(mine);
      // Another account's own view reads none of acct_1's rows, collection or not.
      expect(await walk(id, { account: 'acct_2', pooled: false })).toEqual([]);
      expect(await walk(undefined)).toHaveLength(5);
      expect(await walk('col_none')).toEqual([]);
    });

    it("a discovery's pages: kept once under their request ids, read back, dropped with their pass", async () => {
      const store = (await dbs.fresh()).open();
      const id = await collectionIn(store);
      await store.keepCollectionPage(id, 3, 'req_A', '{"rows":[1]}', 40, T0);
      await store.keepCollectionPage(id, 3, 'req_A', '{"rows":[2]}', 99, T0 + 1);
      await store.keepCollectionPage(id, 4, 'req_B', '{"rows":[]}', 5, T0);
      expect(await store.collectionPages(id, ['req_A', 'req_C'])).toEqual([{ requestId: 'req_A', page: '{"rows":[1]}', charged: 40 }]);
      expect(await store.collectionPages(id, [])).toEqual([]);
      await store.dropCollectionPages(id, 3);
      expect(await store.collectionPages(id, ['req_A', 'req_B'])).toEqual([{ requestId: 'req_B', page: '{"rows":[]}', charged: 5 }]);
    });

    it('what the ledger charged calls of given request ids, of this account only', async () => {
      const store = (await dbs.fresh()).open();
      await collectionIn(store);
      await store.grantCredits('acct_1', 1000, { requestId: null }, T0);
      const hold = await store.hold({ id: 'hold_1', accountId: 'acct_1', amount: 50, requestId: 'req_A', jobId: null, at: T0, freeTierBudget: null, lease: { owner: 'w', expiresAt: T0 + MIN } });
      expect(hold.ok).toBe(true);
      await store.settleHold('hold_1', 30, { requestId: 'req_A', jobId: null, at: T0 + 1 });
      expect(await store.chargedForRequests('acct_1', ['req_A', 'req_B'])).toEqual([{ requestId: 'req_A', charged: 30 }]);
      expect(await store.chargedForRequests('acct_other', ['req_A'])).toEqual([]);
      expect(await store.chargedForRequests('acct_1', [])).toEqual([]);
    });
  });
}
