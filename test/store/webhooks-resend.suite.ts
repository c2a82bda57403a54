// Resending a delivery (issue 22, item 20) on every store: an ended delivery is queued again, due
// at once, with its attempts reset and the same id and body; a queued one is left as it is; an
// unknown one, or another webhook's, is missing.
import { afterEach, describe, expect, it } from 'vitest';
import { addAccount, backings, T0, type StoreKind } from './stores.js';

/** The suite on one store: webhooks-resend.inprocess.test.ts runs it on SQLite, webhooks-resend.pg.test.ts (e2e) on PostgreSQL. */
export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: resendDelivery`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    it('queues an ended delivery again with fresh attempts; a queued one stays; unknown is missing', async () => {
      const store = (await dbs.fresh()).open();
      await addAccount(store, 'acct_1', 0);
      for (const id of ['wh_1', 'wh_2']) {
        await store.createWebhook({ id, accountId: 'acct_1', env: 'sandbox', url: 'http://127.0.0.1:9/hook', events: ['job.succeeded'], description: null, secretEnc: 'v1.sealed', createdAt: T0 });
      }
      await store.enqueueDeliveries([{ id: 'evt_1', webhookId: 'wh_1', event: 'job.succeeded', body: '{"id":"evt_1"}', createdAt: T0 }]);
      expect(await store.resendDelivery('wh_1', 'evt_1', T0 + 1)).toBe('pending');
      await store.claimDeliveries('inst_a', T0, T0 + 30_000, 10);
      // Out of attempts (the third failed): ended.
      expect(await store.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 3, statusCode: 500, responsePreview: 'no', delivered: false, at: T0 + 10, retryAt: null })).toBe(true);
      expect(await store.pendingDeliveries(['evt_1'])).toEqual([]);

      expect(await store.resendDelivery('wh_2', 'evt_1', T0 + 20)).toBe('missing');
      expect(await store.resendDelivery('wh_1', 'evt_nope', T0 + 20)).toBe('missing');
      expect(await store.resendDelivery('wh_1', 'evt_1', T0 + 20)).toBe('queued');
      expect(await store.pendingDeliveries(['evt_1'])).toEqual(['evt_1']);
      const again = await store.claimDeliveries('inst_a', T0 + 20, T0 + 30_020, 10);
      expect(again).toEqual([expect.objectContaining({ id: 'evt_1', attempts: 0, body: '{"id":"evt_1"}' })]);
    });
  });
}
