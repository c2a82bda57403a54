// The webhook events as an OpenAPI 3.1 `webhooks` section: what a receiver gets POSTed, so the
// reference at /docs shows events beside the routes. The payloads are what src/core/events.ts
// emits (test/docs/webhook-events.unit.test.ts parses real emitted events with these schemas).
import { z } from 'zod';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../core/ports/store.js';

const JobData = z.object({
  job_id: z.string().describe('The job (`job_…`); poll it at poll_url.'),
  status: z.enum(['pending', 'running', 'completed', 'failed']),
  operation: z.string().describe('What the job runs: search, price, stay, stay-batch…'),
  platforms: z.array(z.string()),
  poll_url: z.string().describe('GET this (with the key that started the job) for its result.'),
  created_at: z.string().describe('When the job was accepted (ISO 8601, UTC).'),
});

const JobFailedData = JobData.extend({
  error: z.object({ type: z.string(), code: z.string(), message: z.string(), retryable: z.boolean() }).describe('The error a poll of the job shows; its code has a page under /docs/errors.'),
});

const StayCachedData = z.object({
  platform: z.string(),
  id: z.string().describe("The platform's listing id."),
  stays_id: z.string().describe('stays_<platform>_<id>.'),
  cache_expires_at: z.string().describe('Until when the cached listing is served without a new fetch (ISO 8601, UTC).'),
});

const WatchTriggeredData = z.object({
  watch_id: z.string().describe('The watch (`wat_…`): GET /v1/watches/{id}/events lists its events.'),
  watch_event_id: z.string().describe('The event of the watch (`wev_…`), as GET /v1/watches/{id}/events shows it.'),
  name: z.string().nullable().describe("The watch's name, if it has one."),
  call: z.object({ type: z.enum(['price', 'availability', 'search']), params: z.record(z.string(), z.unknown()) }).describe('The call the run made.'),
  rule: z.record(z.string(), z.unknown()).describe('The rule that held: { type, amount | percent | field }.'),
  before: z.unknown().describe('What the run before saw (null on a first run).'),
  after: z.unknown().describe('What this run saw.'),
  changes: z.array(z.unknown()).describe('The nights or listings that changed (availability and search rules); empty for price rules.'),
  occurred_at: z.string().describe('When the run saw it (ISO 8601, UTC).'),
});

export const EVENT_DATA: Record<WebhookEvent, z.ZodObject> = {
  'job.queued': JobData,
  'job.running': JobData,
  'job.succeeded': JobData,
  'job.failed': JobFailedData,
  'stay.cached': StayCachedData,
  'watch.triggered': WatchTriggeredData,
};

const WHEN: Record<WebhookEvent, string> = {
  'job.queued': 'A live call was accepted as an async job (the 202 answer).',
  'job.running': 'The job started running.',
  'job.succeeded': 'The job completed; its result is ready at poll_url.',
  'job.failed': 'The job failed, or was canceled (DELETE /v1/jobs/{jobId}: data.error.code job_canceled); data.error says why (nothing was charged for the failed work).',
  'stay.cached': 'A live stay lookup refreshed a listing in the cache.',
  'watch.triggered': 'A rule of a watch held on one of its runs (POST /v1/watches): what changed, before and after.',
};

/** The delivered body of one event: `{ id, event, created_at, data }`. */
export const eventEnvelope = (event: WebhookEvent) =>
  z.object({
    id: z.string().describe('The event id (`evt_…`), also in x-service-event-id: de-duplicate on it.'),
    event: z.literal(event),
    created_at: z.string().describe('When the event happened (ISO 8601, UTC).'),
    data: EVENT_DATA[event],
  });

const json = (s: z.ZodType) => {
  const out = z.toJSONSchema(s, { unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

export function webhooksOpenApi(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `event_${event.replace('.', '_')}`,
          summary: `${event}: ${WHEN[event]}`,
          description:
            'POSTed to every webhook of the account subscribed to this event (POST /v1/webhooks). Verify `x-service-signature` (`t=<unix>,v1=<hex HMAC-SHA256 of t + "." + raw body>` with the signing secret; `verifyWebhook` in the package does it) and answer 2xx within the timeout; other answers are retried with back-off.',
          tags: ['Webhooks'],
          security: [],
          parameters: [
            { name: 'x-service-signature', in: 'header', required: true, schema: { type: 'string' }, description: 't=<unix seconds>,v1=<hex>' },
            { name: 'x-service-event-id', in: 'header', required: true, schema: { type: 'string' }, description: 'The event id, as in the body.' },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: json(eventEnvelope(event)) } } },
          responses: { '2XX': { description: 'Received; not delivered again.' } },
        },
      },
    ]),
  );
}
