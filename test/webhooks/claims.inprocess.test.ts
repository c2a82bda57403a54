// The outbox queries the dispatcher relies on (SQLite store): `onePerWebhook` claims the oldest
// due delivery of each webhook with none in flight (any process), ties in the order queued;
// `pendingDeliveries` says which of some ids are still to be sent.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/core/ports/store.js';
import { tempDir } from '../helpers/stays.js';

const T0 = 1_800_000_000_000;
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function setup() {
  const file = join(tempDir(), 'data', 'stays.db');
  const a = openSqliteStore(file);
  const b = openSqliteStore(file);
  stores.push(a, b);
  await a.createAccount({ id: 'acct_1', planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 300, freeTierBudget: 300, createdAt: T0 }, 0, null);
  for (const id of ['wh_1', 'wh_2']) {
    await a.createWebhook({
      id,
      accountId: 'acct_1',
      env: 'live' as const,
      url: `http://127.0.0.1:9/${id}`,
      events: ['job.queued', 'job.running'],
      description: null,
      secretEnc: 'v1.x',
      createdAt: T0,
    });
  }
  return { a, b };
}

// Ids whose random part sorts against the order they were queued in: the queue order wins.
const d = (id: string, webhookId: string, at = T0) => ({ id, webhookId, event: 'job.queued' as const, body: '{}', createdAt: at });

describe('claims one at a time per webhook', () => {
  it('the oldest due delivery of each webhook, in the order queued; none of a webhook with one in flight', async () => {
    const { a, b } = await setup();
    await a.enqueueDeliveries([d('evt_Z', 'wh_1'), d('evt_A', 'wh_1'), d('evt_M', 'wh_2')]);
    const first = await a.claimDeliveries('inst_a', T0, T0 + 5_000, 8, { onePerWebhook: true });
    expect(first.map((x) => x.id)).toEqual(['evt_Z', 'evt_M']);
    // wh_1 has evt_Z in flight (inst_a's lease): another process gets nothing of it either.
    expect(await b.claimDeliveries('inst_b', T0 + 100, T0 + 5_100, 8, { onePerWebhook: true })).toEqual([]);
    await a.recordAttempt({ deliveryId: 'evt_Z', owner: 'inst_a', attempt: 1, statusCode: 200, responsePreview: 'ok', delivered: true, at: T0 + 200, retryAt: null });
    expect((await b.claimDeliveries('inst_b', T0 + 300, T0 + 5_300, 8, { onePerWebhook: true })).map((x) => x.id)).toEqual(['evt_A']);
    // A lease that expired frees the webhook: the dead holder's delivery is claimed again.
    expect((await a.claimDeliveries('inst_a', T0 + 5_000, T0 + 10_000, 8, { onePerWebhook: true })).map((x) => x.id)).toEqual(['evt_M']);
  });

  it('a delivery waiting for its retry does not hold its webhook', async () => {
    const { a } = await setup();
    await a.enqueueDeliveries([d('evt_1', 'wh_1')]);
    await a.claimDeliveries('inst_a', T0, T0 + 5_000, 8, { onePerWebhook: true });
    await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 1, statusCode: 500, responsePreview: 'no', delivered: false, at: T0 + 10, retryAt: T0 + 1_010 });
    await a.enqueueDeliveries([d('evt_2', 'wh_1', T0 + 20)]);
    expect((await a.claimDeliveries('inst_a', T0 + 30, T0 + 5_030, 8, { onePerWebhook: true })).map((x) => x.id)).toEqual(['evt_2']);
  });

  it('pendingDeliveries: those still queued', async () => {
    const { a } = await setup();
    await a.enqueueDeliveries([d('evt_1', 'wh_1'), d('evt_2', 'wh_2')]);
    expect((await a.pendingDeliveries(['evt_1', 'evt_2', 'evt_x'])).sort()).toEqual(['evt_1', 'evt_2']);
    await a.claimDeliveries('inst_a', T0, T0 + 5_000, 8);
    await a.recordAttempt({ deliveryId: 'evt_1', owner: 'inst_a', attempt: 1, statusCode: 204, responsePreview: '', delivered: true, at: T0, retryAt: null });
    expect(await a.pendingDeliveries(['evt_1', 'evt_2'])).toEqual(['evt_2']);
    await a.revokeWebhook('wh_2', 'acct_1', T0);
    expect(await a.pendingDeliveries(['evt_1', 'evt_2'])).toEqual([]);
    expect(await a.pendingDeliveries([])).toEqual([]);
  });
});
