// The webhook half of the store port on every store (SQLite and PostgreSQL): registrations, the
// outbox claimed under a lease (two processes never hold one delivery), attempts recorded with the
// next state in one transaction, revocation cancelling what is queued, and the bounded purge of
// old deliveries.
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_LOG_RETENTION_MS } from '../../src/core/ports/store.js';
import { addAccount, backings, T0, type StoreKind } from './stores.js';

const delivery = (id: string, at = T0) => ({ id, webhookId: 'wh_1', event: 'job.succeeded' as const, body: `{"id":"${id}"}`, createdAt: at });

/** The suite on one store: webhooks.inprocess.test.ts runs it on SQLite, webhooks.pg.test.ts (e2e) on PostgreSQL. */
export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: webhooks`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    async function setup() {
      const db = await dbs.fresh();
      const a = db.open();
      const b = db.open(); // a second process on the same database
      for (const id of ['acct_1', 'acct_2']) await addAccount(a, id, 0);
      const hook = await a.createWebhook({
        id: 'wh_1',
        accountId: 'acct_1',
        env: 'live' as const,
        url: 'http://127.0.0.1:9/hook',
        events: ['job.succeeded', 'job.failed'],
        description: null,
        secretEnc: 'v1.sealed',
        createdAt: T0,
      });
      return { a, b, hook: hook! };
    }

    it('registrations: subscribed and active ones only; another account sees none', async () => {
      const { a, hook } = await setup();
      expect(hook).toMatchObject({ id: 'wh_1', events: ['job.succeeded', 'job.failed'], revokedAt: null });
      expect((await a.webhooksFor('acct_1', 'job.failed', 'live')).map((w) => w.id)).toEqual(['wh_1']);
      expect(await a.webhooksFor('acct_1', 'job.queued', 'live')).toEqual([]);
      expect(await a.webhooksFor('acct_2', 'job.failed', 'live')).toEqual([]);
      expect(await a.revokeWebhook('wh_1', 'acct_2', T0)).toBeNull();
      expect(await a.listWebhooks('acct_2', 'live')).toEqual([]);
    });

    it('a due delivery is claimed by one process only, and again only after its lease expires', async () => {
      const { a, b } = await setup();
      await a.enqueueDeliveries([delivery('evt_1'), delivery('evt_2')]);
      const mine = await a.claimDeliveries('inst_a', T0, T0 + 30_000, 10);
      expect(mine.map((d) => d.id)).toEqual(['evt_1', 'evt_2']);
      expect(mine[0]).toMatchObject({ url: 'http://127.0.0.1:9/hook', secretEnc: 'v1.sealed', attempts: 0, body: '{"id":"evt_1"}' });
      expect(await b.claimDeliveries('inst_b', T0 + 1000, T0 + 31_000, 10)).toEqual([]);
      // inst_a died: after its lease, inst_b takes over, and inst_a's late record is refused.
      expect((await b.claimDeliveries('inst_b', T0 + 30_000, T0 + 60_000, 10)).map((d) => d.id)).toEqual(['evt_1', 'evt_2']);
      expect(await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: 'ok', delivered: true, at: T0 + 30_001, retryAt: null })).toBe(false);
      expect(await b.listDeliveries('wh_1', 200)).toEqual([]);
    });

    it('attempts: a failure schedules the retry, a success ends it; the log is newest first', async () => {
      const { a } = await setup();
      await a.enqueueDeliveries([delivery('evt_1')]);
      await a.claimDeliveries('inst_a', T0, T0 + 30_000, 10);
      expect(await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 1, statusCode: 500, responsePreview: 'no', delivered: false, at: T0 + 10, retryAt: T0 + 1010 })).toBe(true);
      expect(await a.nextDeliveryAt()).toBe(T0 + 1010);
      expect(await a.claimDeliveries('inst_a', T0 + 1000, T0 + 31_000, 10)).toEqual([]);
      const again = await a.claimDeliveries('inst_a', T0 + 1010, T0 + 31_010, 10);
      expect(again.map((d) => d.attempts)).toEqual([1]);
      expect(await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 2, statusCode: 204, responsePreview: '', delivered: true, at: T0 + 1020, retryAt: null })).toBe(true);
      expect(await a.nextDeliveryAt()).toBeNull();
      expect(await a.listDeliveries('wh_1', 200)).toEqual([
        { eventId: 'evt_1', event: 'job.succeeded', attempt: 2, statusCode: 204, responsePreview: '', delivered: true, attemptedAt: T0 + 1020 },
        { eventId: 'evt_1', event: 'job.succeeded', attempt: 1, statusCode: 500, responsePreview: 'no', delivered: false, attemptedAt: T0 + 10 },
      ]);
    });

    it('revoking cancels what is queued, even a claimed delivery: its late record writes nothing', async () => {
      const { a } = await setup();
      await a.enqueueDeliveries([delivery('evt_1'), delivery('evt_2')]);
      await a.claimDeliveries('inst_a', T0, T0 + 30_000, 1);
      const revoked = await a.revokeWebhook('wh_1', 'acct_1', T0 + 5);
      expect(revoked).toMatchObject({ id: 'wh_1', revokedAt: T0 + 5 });
      expect(await a.webhooksFor('acct_1', 'job.succeeded', 'live')).toEqual([]);
      expect(await a.claimDeliveries('inst_a', T0 + 60_000, T0 + 90_000, 10)).toEqual([]);
      expect(await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: '', delivered: true, at: T0 + 6, retryAt: null })).toBe(false);
      expect(await a.nextDeliveryAt()).toBeNull();
      // The record stays for audit.
      expect((await a.listWebhooks('acct_1', 'live')).map((w) => w.revokedAt)).toEqual([T0 + 5]);
    });

    it('purges ended deliveries and log rows past the retention, in bounded batches', async () => {
      const { a } = await setup();
      await a.enqueueDeliveries([delivery('evt_1'), delivery('evt_2'), delivery('evt_3')]);
      await a.claimDeliveries('inst_a', T0, T0 + 30_000, 10);
      for (const id of ['evt_1', 'evt_2']) {
        await a.recordAttempt({ deliveryId: id, owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: '', delivered: true, at: T0, retryAt: null });
      }
      expect((await a.purgeExpired(T0 + WEBHOOK_LOG_RETENTION_MS - 1, 500)).webhooks).toBe(0);
      // Two ended outbox rows and two log rows; evt_3 is still pending and stays.
      expect((await a.purgeExpired(T0 + WEBHOOK_LOG_RETENTION_MS, 1)).webhooks).toBe(2);
      expect((await a.purgeExpired(T0 + WEBHOOK_LOG_RETENTION_MS, 500)).webhooks).toBe(2);
      expect(await a.listDeliveries('wh_1', 200)).toEqual([]);
      expect(await a.nextDeliveryAt()).toBe(T0);
    });
    it('onePerWebhook: one delivery per webhook at a time, in order; plain claims take many', async () => {
      const { a, b } = await setup();
      await a.createWebhook({
        id: 'wh_2',
        accountId: 'acct_1',
        env: 'live' as const,
        url: 'http://127.0.0.1:9/two',
        events: ['job.succeeded'],
        description: 'two',
        secretEnc: 'v1.two',
        createdAt: T0 + 1,
      });
      await a.enqueueDeliveries([delivery('evt_1'), delivery('evt_2'), { ...delivery('evt_3'), webhookId: 'wh_2' }, delivery('evt_4')]);
      expect(await a.pendingDeliveries(['evt_1', 'evt_3', 'evt_9'])).toEqual(expect.arrayContaining(['evt_1', 'evt_3']));
      expect((await a.pendingDeliveries(['evt_1', 'evt_3', 'evt_9'])).length).toBe(2);
      const first = await a.claimDeliveries('inst_a', T0, T0 + 30_000, 10, { onePerWebhook: true });
      expect(first.map((d) => [d.id, d.webhookId])).toEqual([
        ['evt_1', 'wh_1'],
        ['evt_3', 'wh_2'],
      ]);
      // Both webhooks have a delivery in flight: nothing more, for anyone, until they end.
      expect(await b.claimDeliveries('inst_b', T0 + 1, T0 + 30_001, 10, { onePerWebhook: true })).toEqual([]);
      expect(await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: '', delivered: true, at: T0 + 2, retryAt: null })).toBe(true);
      expect((await b.claimDeliveries('inst_b', T0 + 3, T0 + 30_003, 10, { onePerWebhook: true })).map((d) => d.id)).toEqual(['evt_2']);
      // A plain claim takes what is due and unclaimed, several of one webhook.
      await a.enqueueDeliveries([delivery('evt_5'), delivery('evt_6')]);
      expect((await a.claimDeliveries('inst_a', T0 + 4, T0 + 30_004, 10)).map((d) => d.id)).toEqual(['evt_4', 'evt_5', 'evt_6']);
      expect(await a.pendingDeliveries(['evt_1'])).toEqual([]);
    });

    it('createWebhook keeps to maxActive; a revoked one frees its place; getWebhook and listWebhooks', async () => {
      const { a } = await setup();
      const w = (id: string, at: number) => ({
        id,
        accountId: 'acct_1',
        env: 'live' as const,
        url: `http://127.0.0.1:9/${id}`,
        events: ['job.queued' as const],
        description: id,
        secretEnc: `v1.${id}`,
        createdAt: at,
      });
      expect(await a.createWebhook(w('wh_2', T0 + 1), 2)).toMatchObject({ id: 'wh_2', description: 'wh_2', secretEnc: 'v1.wh_2', revokedAt: null });
      expect(await a.createWebhook(w('wh_3', T0 + 2), 2)).toBeNull();
      expect(await a.getWebhook('wh_3')).toBeNull();
      await a.revokeWebhook('wh_1', 'acct_1', T0 + 3);
      expect(await a.createWebhook(w('wh_3', T0 + 4), 2)).not.toBeNull();
      expect((await a.listWebhooks('acct_1', 'live')).map((x) => x.id)).toEqual(['wh_3', 'wh_2', 'wh_1']);
      expect(await a.getWebhook('wh_1')).toMatchObject({ revokedAt: T0 + 3, url: 'http://127.0.0.1:9/hook' });
      // Revoking twice keeps the first time.
      expect(await a.revokeWebhook('wh_1', 'acct_1', T0 + 9)).toMatchObject({ revokedAt: T0 + 3 });
    });

    it('fair claims (issue 21): round-robin across accounts, oldest first within each, at most perAccount in flight per account', async () => {
      const { a, b } = await setup();
      const hook = (id: string, accountId: string, at: number) => ({
        id,
        accountId,
        env: 'live' as const,
        url: `http://127.0.0.1:9/${id}`,
        events: ['job.succeeded' as const],
        description: null,
        secretEnc: 'v1.x',
        createdAt: at,
      });
      for (let i = 2; i <= 6; i++) await a.createWebhook(hook(`wh_${i}`, 'acct_1', T0 + i));
      await a.createWebhook(hook('wh_b1', 'acct_2', T0 + 7));
      await a.createWebhook(hook('wh_b2', 'acct_2', T0 + 8));
      // acct_1's backlog first (6 webhooks, 2 each), acct_2's two events last.
      const backlog = [1, 2, 3, 4, 5, 6].flatMap((i) => [0, 1].map((k) => ({ ...delivery(`evt_a${i}${k}`, T0 + k), webhookId: `wh_${i}` })));
      await a.enqueueDeliveries(backlog);
      await a.enqueueDeliveries([
        { ...delivery('evt_b1', T0 + 5), webhookId: 'wh_b1' },
        { ...delivery('evt_b2', T0 + 5), webhookId: 'wh_b2' },
      ]);
      const now = T0 + 10;
      const first = await a.claimDeliveries('inst_a', now, now + 30_000, 3, { onePerWebhook: true, perAccount: 2 });
      // Turns: acct_1's oldest, acct_2's oldest, then acct_1's second.
      expect(first.map((d) => d.id)).toEqual(['evt_a10', 'evt_b1', 'evt_a20']);
      // acct_1 has 2 in flight (its share), acct_2 one: only acct_2's other webhook, whichever process asks.
      expect((await b.claimDeliveries('inst_b', now, now + 30_000, 10, { onePerWebhook: true, perAccount: 2 })).map((d) => d.id)).toEqual(['evt_b2']);
      expect(await b.claimDeliveries('inst_b', now, now + 30_000, 10, { onePerWebhook: true, perAccount: 2 })).toEqual([]);
      // One of acct_1's ends: its next oldest webhook's delivery takes the freed turn.
      expect(await a.recordAttempt({ deliveryId: 'evt_a10', owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: '', delivered: true, at: now, retryAt: null })).toBe(true);
      expect((await b.claimDeliveries('inst_b', now + 1, now + 30_000, 10, { onePerWebhook: true, perAccount: 2 })).map((d) => d.id)).toEqual(['evt_a30']);
    });

    it('a failing webhook is paused longer and longer, then disabled with its queue cancelled; a success resets the count', async () => {
      const { a } = await setup();
      await a.enqueueDeliveries(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5'].map((id) => delivery(id)));
      const opts = { onePerWebhook: true, perAccount: 4 };
      const fail = async (at: number, attempt = 1) => {
        const [d] = await a.claimDeliveries('inst_a', at, at + 30_000, 1, opts);
        expect(d, `claim at +${at - T0}`).toBeDefined();
        expect(
          await a.recordAttempt({
            deliveryId: d!.id,
            owner: 'inst_a',
            attempt,
            statusCode: 503,
            responsePreview: 'busy',
            delivered: false,
            at,
            retryAt: null,
            endedAt: at + 5,
            failure: 'HTTP 503',
            disableAfter: 5,
          }),
        ).toBe(true);
        return d!.id;
      };
      await fail(T0);
      await fail(T0 + 10);
      expect(await a.getWebhook('wh_1')).toMatchObject({ consecutiveFailures: 2, disabledAt: null });
      await fail(T0 + 20);
      // The 3rd in a row: nothing for 1 s after it ended; the dispatcher sleeps until then.
      expect(await a.claimDeliveries('inst_a', T0 + 1_024, T0 + 40_000, 1, opts)).toEqual([]);
      expect(await a.nextDeliveryAt()).toBe(T0 + 1_025);
      await fail(T0 + 1_025);
      expect(await a.claimDeliveries('inst_a', T0 + 3_029, T0 + 40_000, 1, opts)).toEqual([]);
      await fail(T0 + 3_030);
      const w = await a.getWebhook('wh_1');
      expect(w).toMatchObject({ consecutiveFailures: 5, disabledAt: T0 + 3_030 });
      expect(w!.disabledReason).toMatch(/^5 delivery attempts in a row failed \(the last: HTTP 503\)/);
      expect(await a.webhooksFor('acct_1', 'job.succeeded', 'live')).toEqual([]);
      expect(await a.claimDeliveries('inst_a', T0 + 999_999, T0 + 1_999_999, 10, opts)).toEqual([]);
      expect(await a.nextDeliveryAt()).toBeNull();
      // Another webhook: a delivered attempt resets its count and its pause.
      await a.createWebhook({ id: 'wh_2', accountId: 'acct_1', env: 'live', url: 'http://127.0.0.1:9/two', events: ['job.succeeded'], description: null, secretEnc: 'v1.two', createdAt: T0 });
      await a.enqueueDeliveries(['evt_6', 'evt_7', 'evt_8', 'evt_9', 'evt_10'].map((id) => ({ ...delivery(id, T0 + 5_000), webhookId: 'wh_2' })));
      for (const at of [T0 + 5_000, T0 + 5_001, T0 + 5_002]) await fail(at);
      const [d] = await a.claimDeliveries('inst_a', T0 + 6_007, T0 + 40_000, 1, opts);
      await a.recordAttempt({ deliveryId: d!.id, owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: '', delivered: true, at: T0 + 6_007, retryAt: null });
      expect(await a.getWebhook('wh_2')).toMatchObject({ consecutiveFailures: 0, disabledAt: null });
      expect((await a.claimDeliveries('inst_a', T0 + 6_008, T0 + 40_000, 1, opts)).map((x) => x.id)).toEqual(['evt_10']);
    });
  });
}
