// Testing a receiver (issue 22, item 20, docs/decisions.md "Webhook triggers and resends"):
// POST /v1/webhooks/trigger makes, with a sandbox key and for free, a real sandbox job that goes
// through the store like a live one (a hold of 0, queued, running, then completed or failed), and
// its events reach the account's sandbox webhooks, as `stripe trigger` does; or a stay.cached.
// POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend queues one delivery again (same event id).
import { requireScope } from '../auth.js';
import type { RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { emitJob, emitJobFailed, emitStayCached } from '../events.js';
import { newJobId } from '../ids.js';
import { type TRIGGER_EVENTS, TriggerBody, type TriggeredSchema } from '../schemas/webhooks.js';
import { type RawInput, parseParams, preview } from '../validate.js';
import { JOB_RETENTION_MS, leaseFor, newJob } from '../lease.js';
import type { WebhookEvent } from '../ports/store.js';
import { execute } from '../execute.js';
import { pollUrl } from '../poll-url.js';
import { searchPlan } from './search.js';
import { ownWebhook } from './webhooks.js';
import type { z } from 'zod';

type Triggered = z.infer<typeof TriggeredSchema>;
type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

const SEQUENCE: Record<TriggerEvent, WebhookEvent[]> = {
  'job.succeeded': ['job.queued', 'job.running', 'job.succeeded'],
  'job.failed': ['job.queued', 'job.running', 'job.failed'],
  'stay.cached': ['stay.cached'],
};

/** The listing a triggered stay.cached names: a sandbox airbnb listing. */
const CACHED_STAY = { platform: 'airbnb' as const, id: '12345678' };

export async function triggerEvent(services: Services, ctx: RequestContext, raw: RawInput): Promise<Triggered> {
  requireScope(ctx, 'stays.read');
  if (ctx.key.env !== 'sandbox') {
    throw new ServiceError('sandbox_key_required', 'Triggers make test jobs and events: call this with a stay_test_ key (its sandbox webhooks get the events); live webhooks never get test events.');
  }
  const { event } = parseParams(TriggerBody, raw);
  const events = SEQUENCE[event];
  const hooks = new Set<string>();
  for (const e of events) for (const w of await services.store.webhooksFor(ctx.account.id, e, ctx.key.env)) hooks.add(w.id);
  const now = services.clock.now();
  if (event === 'stay.cached') {
    emitStayCached(services, { accountId: ctx.account.id, env: ctx.key.env }, CACHED_STAY, now + 86_400_000);
    await services.webhooks.idle();
    return { event, job_id: null, poll_url: null, events, webhooks: hooks.size };
  }

  // The job's answer is the sandbox's, computed first: a search that succeeds, or one that fails.
  const { plan } = searchPlan(services, ctx, { location: event === 'job.succeeded' ? 'Lisbon' : 'fail', platforms: 'airbnb', limit: '2' });
  let outcome: { ok: true; data: unknown; meta: unknown } | { ok: false; error: { type: string; code: string; message: string; retryable: boolean } };
  try {
    const r = await execute(services, ctx, plan);
    outcome =
      r.kind === 'sync'
        ? { ok: true, data: r.data, meta: r.meta }
        : { ok: false, error: { type: 'internal_error', code: 'internal_error', message: 'The sandbox did not answer at once.', retryable: false } };
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    outcome = { ok: false, error: { type: e.type, code: e.code, message: e.message, retryable: e.retryable } };
  }

  const jobId = newJobId(services.ids);
  const holdId = `hold_${services.ids.ulid()}`;
  const owner = services.jobs.owner;
  const lease = leaseFor(services);
  // The same store path as a live job, with nothing to hold: a hold of 0 credits.
  await services.store.hold({ id: holdId, accountId: ctx.account.id, amount: 0, requestId: ctx.requestId, jobId, at: now, freeTierBudget: null, lease });
  const { row, facts: job } = newJob(services, ctx, { id: jobId, operation: plan.operation, platforms: plan.platforms, estimatedSeconds: 1, now });
  await services.store.createJob(row);
  emitJob(services, 'job.queued', job);
  await services.store.startJob(jobId, owner, services.clock.now());
  emitJob(services, 'job.running', job);
  const at = services.clock.now();
  const base = { jobId, owner, holdId, charge: 0, requestId: ctx.requestId, at, expiresAt: at + JOB_RETENTION_MS };
  if (outcome.ok) {
    await services.store.finishJob({ ...base, status: 'completed', result: outcome.data, meta: outcome.meta });
    emitJob(services, 'job.succeeded', job);
  } else {
    await services.store.finishJob({ ...base, status: 'failed', error: outcome.error });
    emitJobFailed(services, job, outcome.error);
  }
  // Queued (in order) before the answer: a receiver test that polls next finds them.
  await services.webhooks.idle();
  return { event, job_id: jobId, poll_url: pollUrl(jobId), events, webhooks: hooks.size };
}

/** Queues one delivery of the caller's webhook again, due now, with fresh attempts and the same event id. */
export async function resendDelivery(services: Services, ctx: RequestContext, webhookId: string, deliveryId: string): Promise<{ id: string; webhook_id: string; status: 'queued' }> {
  requireScope(ctx, 'webhooks.write');
  const w = await ownWebhook(services, ctx, webhookId);
  if (w.revokedAt !== null || w.disabledAt !== null) {
    throw new ServiceError('webhook_not_found', `Webhook ${w.id} is ${w.revokedAt !== null ? 'deleted' : 'disabled'}: nothing is sent to it any more. Create another and trigger the event again.`, {
      param: 'id',
    });
  }
  const r = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/.test(deliveryId) ? await services.store.resendDelivery(w.id, deliveryId, services.clock.now()) : 'missing';
  if (r === 'missing') {
    throw new ServiceError('delivery_not_found', `Webhook ${w.id} has no delivery ${preview(deliveryId)} (kept 30 days); its attempt log (GET /v1/webhooks/${w.id}/deliveries) lists the event ids.`, {
      param: 'deliveryId',
    });
  }
  services.webhooks.announce([deliveryId]);
  return { id: deliveryId, webhook_id: w.id, status: 'queued' };
}
