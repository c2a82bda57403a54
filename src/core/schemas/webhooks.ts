// Webhooks (spec "Webhook (Family S)", D22): the create body, the path id, and the shapes the
// routes answer with (snake_case, Family S).
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../ports/store.js';
import { list, str } from './fields.js';

const MAX_WEBHOOK_DESCRIPTION = 500;

export const CreateWebhookBody = z.object({
  url: str().describe('Where deliveries are POSTed: an http(s) URL of at most 2,048 characters, without user:password.'),
  events: list(z.enum(WEBHOOK_EVENTS)).describe(`The events to deliver, at least one of: ${WEBHOOK_EVENTS.join(', ')}. Duplicates are ignored.`),
  description: str(z.string().max(MAX_WEBHOOK_DESCRIPTION)).nullish().describe(`A note for yourself, at most ${MAX_WEBHOOK_DESCRIPTION} characters.`),
});

export const WebhookIdPath = z.object({
  id: z.string().describe('wh_-prefixed webhook id.'),
});

export const WebhookSchema = z.object({
  id: z.string().describe('wh_-prefixed id.'),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string().nullable(),
  active: z.boolean().describe('Whether deliveries are sent: false once deleted (revoked) or disabled; the record stays for audit.'),
  created_at: z.string().describe('ISO 8601, UTC.'),
  status: z
    .enum(['active', 'disabled', 'deleted'])
    .describe(
      'active; disabled: its deliveries failed too many times in a row (disabled_reason), nothing is sent any more and it keeps its place among the 20 until deleted (to resume, delete it and create another); deleted.',
    ),
  consecutive_failures: z
    .number()
    .int()
    .describe("Delivery attempts in a row that failed; a delivered one resets it. From 3, the webhook's next delivery waits 1 s, then 2, 4… up to 5 min; at 20 (the server's setting) it is disabled."),
  disabled_at: z.string().nullable().describe('When it was disabled (ISO 8601, UTC); null unless status is disabled.'),
  disabled_reason: z.string().nullable().describe('Why it was disabled; null unless status is disabled.'),
});

export const CreatedWebhookSchema = WebhookSchema.extend({
  signing_secret: z.string().describe('whsec_… key of the HMAC-SHA256 signature (x-service-signature). Returned only in this response.'),
  note: z.string(),
});

export const RevokedWebhookSchema = z.object({ id: z.string(), revoked: z.literal(true) });

export const DeliverySchema = z.object({
  event_id: z.string().describe('evt_… id, the same on every attempt of one delivery (x-service-event-id).'),
  event: z.enum(WEBHOOK_EVENTS),
  attempt: z.number().int().describe('1, 2 or 3.'),
  status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when it did not answer (timeout, connection error)."),
  response_preview: z
    .string()
    .nullable()
    .describe("The first 500 bytes of the receiver's answer, or why there was none; null when the answer came from a loopback, private or link-local address (never shown)."),
  delivered: z.boolean().describe('Whether this attempt got a 2xx.'),
  attempted_at: z.string().describe('ISO 8601, UTC.'),
});

/** The events `POST /v1/webhooks/trigger` makes (issue 22, item 20): a sandbox job's, or a stay.cached. */
export const TRIGGER_EVENTS = ['job.succeeded', 'job.failed', 'stay.cached'] as const;

export const TriggerBody = z.object({
  event: z
    .enum(TRIGGER_EVENTS)
    .describe(
      `What to make happen, for free, with a sandbox key: job.succeeded (a sandbox job that sends job.queued, job.running, job.succeeded), job.failed (job.queued, job.running, job.failed) or stay.cached.`,
    ),
});

export const TriggeredSchema = z.object({
  event: z.enum(TRIGGER_EVENTS),
  job_id: z.string().nullable().describe('The sandbox job made (job events), pollable like any job; null for stay.cached.'),
  poll_url: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).describe('The events queued, in order, for each active sandbox webhook of the account subscribed to them.'),
  webhooks: z.number().int().describe('Active sandbox webhooks subscribed to at least one of those events.'),
});

export const DeliveryPath = z.object({
  id: z.string().describe('wh_-prefixed webhook id.'),
  deliveryId: z.string().describe('The evt_… event id of the delivery (event_id in the attempt log).'),
});

export const ResentSchema = z.object({
  id: z.string().describe('The evt_… id: the same as before, so receivers that de-duplicate see the same event.'),
  webhook_id: z.string(),
  status: z.literal('queued'),
});

export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;
export type Webhook = z.infer<typeof WebhookSchema>;
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;
export type Delivery = z.infer<typeof DeliverySchema>;
