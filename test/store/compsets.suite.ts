// Comp sets (issue 27, item 2) on every store: names unique per account and environment (a
// deleted one frees its name), the cap counted in the same transaction (concurrent creations never
// pass it), newest first, soft deletion only by the owner; and the listings observations placed
// in a box (a listing's own coordinates before a search row's). compsets.inprocess.test.ts runs it
// on SQLite, compsets.pg.test.ts (e2e) on PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import type { NewCompSet, Store } from '../../src/core/ports/store.js';
import { T0, addAccount, backings, type StoreKind } from './stores.js';

const set = (id: string, over: Partial<NewCompSet> = {}): NewCompSet => ({
  id,
  accountId: 'acct_1',
  env: 'live',
  name: id,
  anchorPlatform: 'airbnb',
  anchorListingId: '123',
  anchorLat: 38.7223,
  anchorLng: -9.1393,
  radiusMeters: 2000,
  bedrooms: 2,
  platforms: null,
  createdAt: T0,
  ...over,
});

export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: comp sets`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());
    const open = async (): Promise<Store> => {
      const store = (await dbs.fresh()).open();
      await addAccount(store, 'acct_1', 0);
      await addAccount(store, 'acct_2', 0);
      return store;
    };

    it('creates, reads back every field, lists newest first by environment, deletes only its own', async () => {
      const store = await open();
      const a = set('cs_a', { platforms: ['airbnb', 'vrbo'], bedrooms: null, radiusMeters: 1500.5 });
      expect(await store.createCompSet(a, 10)).toEqual(a);
      expect(await store.getCompSet('cs_a')).toEqual(a);
      await store.createCompSet(set('cs_b', { createdAt: T0 + 1 }), 10);
      await store.createCompSet(set('cs_c', { env: 'sandbox' }), 10);
      expect((await store.listCompSets('acct_1', 'live')).map((c) => c.id)).toEqual(['cs_b', 'cs_a']);
      expect((await store.listCompSets('acct_1', 'sandbox')).map((c) => c.id)).toEqual(['cs_c']);
      expect(await store.listCompSets('acct_2', 'live')).toEqual([]);
      expect(await store.deleteCompSet('cs_a', 'acct_2', T0)).toBeNull();
      expect(await store.deleteCompSet('cs_a', 'acct_1', T0)).toEqual(a);
      expect(await store.deleteCompSet('cs_a', 'acct_1', T0)).toBeNull();
      expect(await store.getCompSet('cs_a')).toBeNull();
      expect(await store.getCompSet('cs_nope')).toBeNull();
      expect((await store.listCompSets('acct_1', 'live')).map((c) => c.id)).toEqual(['cs_b']);
    });

    it('a name is taken per account and environment until deleted; the cap counts live sets only, concurrent creations never pass it', async () => {
      const store = await open();
      await store.createCompSet(set('cs_a', { name: 'Alfama 2BR' }), 3);
      expect(await store.createCompSet(set('cs_b', { name: 'Alfama 2BR' }), 3)).toBe('name_taken');
      expect(await store.createCompSet(set('cs_b', { name: 'Alfama 2BR', env: 'sandbox' }), 3)).toMatchObject({ id: 'cs_b' });
      expect(await store.createCompSet(set('cs_c', { name: 'Alfama 2BR', accountId: 'acct_2' }), 3)).toMatchObject({ id: 'cs_c' });
      await store.deleteCompSet('cs_a', 'acct_1', T0);
      expect(await store.createCompSet(set('cs_d', { name: 'Alfama 2BR' }), 3)).toMatchObject({ id: 'cs_d' });
      const results = await Promise.all(Array.from({ length: 6 }, (_v, i) => store.createCompSet(set(`cs_x${i}`), 3)));
      expect(results.filter((r) => typeof r === 'object')).toHaveLength(2);
      expect(results.filter((r) => r === 'limit')).toHaveLength(4);
      expect(await store.listCompSets('acct_1', 'live')).toHaveLength(3);
    });

    it('places listings by their latest observed coordinates, a listing observation before a search row', async () => {
      const store = await open();
      const search = (id: string, lat: number, lng: number, extra = {}) => ({
        platform: 'airbnb',
        listingId: id,
        kind: 'search' as const,
        key: 'lisbon',
        currency: 'EUR',
        value: { name: id, nightlyPrice: 100, totalPrice: null, lat, lng, ...extra },
      });
      await store.recordObservations([search('1', 38.72, -9.14), search('2', 38.9, -9.14), search('3', 38.72, -9.14), { ...search('4', 38.72, -9.14), platform: 'vrbo' }], 'simulated', T0);
      // Listing 3 moved (a later search), listing 1's own facts place it elsewhere, with its bedrooms.
      await store.recordObservations([search('3', 38.721, -9.141)], 'simulated', T0 + 1000);
      await store.recordObservations(
        [
          {
            platform: 'airbnb',
            listingId: '1',
            kind: 'listing',
            key: '',
            currency: null,
            value: { name: '1', propertyType: null, maxOccupancy: null, bathrooms: null, bedrooms: 2, lat: 38.73, lng: -9.15 },
          },
        ],
        'simulated',
        T0 + 2000,
      );
      // A row without coordinates is not placed.
      await store.recordObservations([{ ...search('5', 0, 0), value: { name: '5', nightlyPrice: 90, totalPrice: null } }], 'simulated', T0);
      const box = { minLat: 38.7, maxLat: 38.75, minLng: -9.2, maxLng: -9.1 };
      expect(await store.history.listingsWithin({ ...box, platforms: ['airbnb'] })).toEqual([
        { platform: 'airbnb', listingId: '1', lat: 38.73, lng: -9.15, bedrooms: 2 },
        { platform: 'airbnb', listingId: '3', lat: 38.721, lng: -9.141, bedrooms: null },
      ]);
      expect((await store.history.listingsWithin({ ...box, platforms: ['airbnb', 'vrbo'] })).map((p) => `${p.platform}:${p.listingId}`)).toEqual(['airbnb:1', 'airbnb:3', 'vrbo:4']);
      expect(await store.history.listingsWithin({ ...box, minLat: 38.725, platforms: ['airbnb'] })).toEqual([{ platform: 'airbnb', listingId: '1', lat: 38.73, lng: -9.15, bedrooms: 2 }]);
    });
  });
}
