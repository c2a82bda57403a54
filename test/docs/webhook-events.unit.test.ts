// The documented webhook events (the OpenAPI `webhooks` section /docs renders) are what the
// service delivers: real bodies from the hub, with the data src/core/events.ts emits, parse
// strictly against the documented schemas.
import { describe, expect, it } from 'vitest';
import type { Services } from '../../src/core/context.js';
import { emitJob, emitJobFailed, emitStayCached } from '../../src/core/events.js';
import { EVENT_DATA, eventEnvelope } from '../../src/http/docs/webhook-events.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { FAMILY_S_ROUTES } from '../../src/http/routes/s/index.js';
import { FAMILY_U_ROUTES } from '../../src/http/routes/u/index.js';
import { WEBHOOK_EVENTS, type Store, type WebhookEvent } from '../../src/core/ports/store.js';
import { createWebhookHub } from '../../src/webhooks/hub.js';

describe('webhook events in the OpenAPI document', () => {
  it('documents every event the service can deliver', () => {
    const doc = buildOpenApi([...FAMILY_U_ROUTES, ...FAMILY_S_ROUTES]) as { webhooks: Record<string, unknown> };
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });

  it('the delivered bodies parse strictly against the documented schemas', async () => {
    const bodies: string[] = [];
    const store = {
      webhooksFor: async () => [{ id: 'wh_1' }],
      enqueueDeliveries: async (list: { body: string }[]) => {
        bodies.push(...list.map((x) => x.body));
      },
    } as unknown as Store;
    let n = 0;
    const webhooks = createWebhookHub({
      store,
      clock: { now: () => 1_800_000_000_000 } as never,
      ids: { ulid: () => `01J${String(n++).padStart(23, '0')}` } as never,
      config: { dataDir: '/nonexistent' },
    });
    const s = { webhooks } as unknown as Services;
    const job = { id: 'job_1', accountId: 'acct_1', env: 'live' as const, operation: 'search', platforms: ['airbnb'], createdAt: 1_800_000_000_000 };
    for (const e of ['job.queued', 'job.running', 'job.succeeded'] as const) emitJob(s, e, job);
    emitJobFailed(s, job, { type: 'upstream_timeout', code: 'actor_timeout', message: 'Timed out.', retryable: true });
    emitStayCached(s, { accountId: 'acct_1', env: 'live' }, { platform: 'airbnb', id: '12345678' }, 1_800_000_600_000);
    await webhooks.idle();
    expect(bodies).toHaveLength(5);
    for (const raw of bodies) {
      const body = JSON.parse(raw) as { event: WebhookEvent; data: unknown };
      const strict = eventEnvelope(body.event).extend({ data: EVENT_DATA[body.event].strict() }).strict();
      expect(() => strict.parse(body), raw).not.toThrow();
    }
  });
});
