// Match decisions (issue 27, item 4) on every store: a pair pinned or rejected once per account and
// environment whichever way round it is given, a later decision replacing the earlier, read from
// either listing, cleared. match-decisions.inprocess.test.ts runs it on SQLite,
// match-decisions.pg.test.ts (e2e) on PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import { T0, addAccount, backings, type StoreKind } from './stores.js';

const air = { platform: 'airbnb', listingId: '62959578' };
const vrbo = { platform: 'vrbo', listingId: '90629595781' };
const booking = { platform: 'booking', listingId: 'pt/x-n62959578' };

export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: match decisions`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());
    const open = async (): Promise<Store> => {
      const store = await (await dbs.fresh()).open();
      await addAccount(store, 'acct_1', 100);
      await addAccount(store, 'acct_2', 100);
      return store;
    };

    it('stores a pair once whichever way round; a later decision replaces the earlier; read from either listing', async () => {
      const store = await open();
      const pinned = await store.setMatchDecision('acct_1', 'sandbox', vrbo, air, 'pinned', T0, 100);
      expect(pinned).toEqual({ a: air, b: vrbo, decision: 'pinned', decidedAt: T0 });
      await store.setMatchDecision('acct_1', 'sandbox', air, booking, 'rejected', T0 + 1, 100);
      expect(await store.matchDecisionsOf('acct_1', 'sandbox', air)).toEqual([pinned, { a: air, b: booking, decision: 'rejected', decidedAt: T0 + 1 }]);
      expect(await store.matchDecisionsOf('acct_1', 'sandbox', vrbo)).toEqual([pinned]);
      // The same pair the other way round: one row, replaced.
      const rejected = await store.setMatchDecision('acct_1', 'sandbox', air, vrbo, 'rejected', T0 + 2, 100);
      expect(rejected).toEqual({ a: air, b: vrbo, decision: 'rejected', decidedAt: T0 + 2 });
      expect(await store.matchDecisionsOf('acct_1', 'sandbox', vrbo)).toEqual([rejected]);
    });

    it('keeps accounts and environments apart; clears a decision (false when there was none)', async () => {
      const store = await open();
      await store.setMatchDecision('acct_1', 'live', air, vrbo, 'pinned', T0, 100);
      expect(await store.matchDecisionsOf('acct_2', 'live', air)).toEqual([]);
      expect(await store.matchDecisionsOf('acct_1', 'sandbox', air)).toEqual([]);
      expect(await store.clearMatchDecision('acct_1', 'sandbox', air, vrbo)).toBe(false);
      expect(await store.clearMatchDecision('acct_1', 'live', vrbo, air)).toBe(true);
      expect(await store.matchDecisionsOf('acct_1', 'live', air)).toEqual([]);
      expect(await store.clearMatchDecision('acct_1', 'live', air, vrbo)).toBe(false);
    });

    it('caps the decisions an account keeps per key environment: a new pair past the cap is refused, a change to a kept one is not (issue 35, item 3)', async () => {
      const store = await open();
      const other = (n: number) => ({ platform: 'vrbo', listingId: String(1000 + n) });
      for (let n = 0; n < 3; n++) expect(await store.setMatchDecision('acct_1', 'live', air, other(n), 'pinned', T0, 3)).not.toBe('limit');
      expect(await store.setMatchDecision('acct_1', 'live', air, other(3), 'pinned', T0, 3)).toBe('limit');
      expect(await store.setMatchDecision('acct_1', 'live', other(1), air, 'rejected', T0 + 1, 3)).toMatchObject({ decision: 'rejected' });
      // Another environment and another account have their own.
      expect(await store.setMatchDecision('acct_1', 'sandbox', air, other(3), 'pinned', T0, 3)).not.toBe('limit');
      expect(await store.setMatchDecision('acct_2', 'live', air, other(3), 'pinned', T0, 3)).not.toBe('limit');
      // Concurrent new pairs never take it past the cap.
      await store.clearMatchDecision('acct_1', 'live', air, other(0));
      const raced = await Promise.all([4, 5, 6, 7].map((n) => store.setMatchDecision('acct_1', 'live', air, other(n), 'pinned', T0, 3)));
      expect(raced.filter((r) => r !== 'limit')).toHaveLength(1);
      expect(await store.matchDecisionsOf('acct_1', 'live', air)).toHaveLength(3);
    });
  });
}
