// Issue 21 (2): events fired while the database is away are not lost. The hub, over a real
// PostgreSQL store reached through a TCP proxy that is cut, retries queueing while the store
// answers database_unavailable, and the event is in the outbox once the database is back.
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { systemIds } from '../../src/core/ids.js';
import { openPgStore } from '../../src/store/postgres/store.js';
import { createWebhookHub } from '../../src/webhooks/hub.js';
import { freshDatabase } from '../helpers/pg.js';
import { sql } from '../helpers/multi.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { T0, addAccount, pgKind } from '../store/stores.js';

describe.skipIf(!pgKind.available)('webhook events during a database outage', { timeout: 60_000 }, () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
  });

  it('an event emitted while the database is away is queued once it is back, once', async () => {
    const db = await freshDatabase();
    cleanup.push(() => db.drop());
    const u = new URL(db.url);
    const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    cleanup.push(() => proxy.close());
    u.port = String(proxy.port);
    const store = openPgStore(u.toString(), { poolMax: 2 });
    cleanup.push(() => store.close());
    await addAccount(store, 'acct_1', 100);
    await store.createWebhook({ id: 'wh_1', accountId: 'acct_1', env: 'live', url: 'https://example.com/hook', events: ['job.queued'], description: null, secretEnc: 'v1.x', createdAt: T0 });
    const errors: unknown[] = [];
    const hub = createWebhookHub({ store, clock: systemClock, ids: systemIds(() => Date.now()), config: { dataDir: '/nonexistent' }, onError: (e) => errors.push(e) });

    await proxy.cut();
    const emitted = hub.emit({ accountId: 'acct_1', env: 'live' }, 'job.queued', { jobId: 'job_1' });
    await new Promise((r) => setTimeout(r, 1500));
    await proxy.restore();
    await emitted;
    expect(errors).toEqual([]);
    const rows = await sql<{ webhook_id: string; body: string }>(db.url, 'SELECT webhook_id, body FROM webhook_outbox');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.webhook_id).toBe('wh_1');
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ event: 'job.queued', data: { jobId: 'job_1' } });
  });
});
