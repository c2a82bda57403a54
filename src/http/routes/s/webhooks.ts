// Webhook routes (Family S, spec "Webhook (Family S)", D9, D22): snake_case bodies
// `{ data, request_id }`, errors `{ error, request_id }`. Free. Reading needs stays.read; creating
// needs webhooks.write too, deleting webhooks.write (an OAuth token, read-only, has neither write).
// A webhook belongs to the environment (sandbox or live) of the key that created it.
import { z } from 'zod';
import { createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks } from '../../../core/ops/webhooks.js';
import { resendDelivery, triggerEvent } from '../../../core/ops/webhook-tools.js';
import {
  CreateWebhookBody,
  CreatedWebhookSchema,
  DeliveryPath,
  DeliverySchema,
  ResentSchema,
  RevokedWebhookSchema,
  TriggerBody,
  TriggeredSchema,
  WebhookIdPath,
  WebhookSchema,
} from '../../../core/schemas/webhooks.js';
import { assertPublicTarget, denyPrivateTargets } from '../../../webhooks/targets.js';
import { renderS } from '../../render.js';
import { type RouteDef, jsonBody } from '../../route.js';

const TAGS = ['Webhooks'];
const READ = 'Needs the stays.read scope (else 403 scope_insufficient). Free (0 credits).';
const WRITE = (scopes: string) => `Needs the ${scopes} scope${scopes.includes(' and ') ? 's' : ''} (else 403 scope_insufficient; an OAuth token, read-only, has no webhooks.write). Free (0 credits).`;

export const webhookCreate: RouteDef = {
  method: 'post',
  scopes: ['stays.read', 'webhooks.write'],
  family: 'S',
  path: '/v1/webhooks',
  doc: {
    operationId: 'createWebhook',
    summary: 'Register a webhook',
    description:
      `201 with the webhook and its signing_secret, which is never shown again. Events: job.queued, job.running, job.succeeded, job.failed, stay.cached; ` +
      `an unknown one is 400 invalid_parameter. The webhook belongs to the key's environment (sandbox or live): it gets that environment's events only, and only keys of that environment see it. At most 20 active webhooks per account, both environments together (else 403 webhook_limit_exceeded). ${WRITE('stays.read and webhooks.write')}`,
    tags: TAGS,
    body: CreateWebhookBody,
    data: CreatedWebhookSchema,
    envelope: 's',
    created: true,
    errors: [400, 403, 415],
    auth: true,
  },
  handle: async (c, ctx) => {
    const s = c.get('services');
    const check = denyPrivateTargets(s.config) ? (url: string) => assertPublicTarget(url) : undefined;
    return renderS(c, await createWebhook(s, ctx, await jsonBody(c), check), undefined, 201);
  },
};

export const webhookList: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/webhooks',
  doc: {
    operationId: 'listWebhooks',
    summary: 'List your webhooks',
    description: `The account's webhooks of the key's environment (sandbox or live), newest first, revoked ones too (active false); never their secrets. ${READ}`,
    tags: TAGS,
    data: z.array(WebhookSchema),
    envelope: 's',
    errors: [403],
    auth: true,
  },
  handle: async (c, ctx) => renderS(c, await listWebhooks(c.get('services'), ctx)),
};

const id = (c: Parameters<RouteDef['handle']>[0]) => c.req.param('id') ?? '';

export const webhookGet: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/webhooks/{id}',
  doc: {
    operationId: 'getWebhook',
    summary: 'Show one webhook',
    description: `Without its secret. Another account's id, or a webhook of the other environment, is 404 webhook_not_found. ${READ}`,
    tags: TAGS,
    path: WebhookIdPath,
    data: WebhookSchema,
    envelope: 's',
    errors: [403, 404],
    auth: true,
  },
  handle: async (c, ctx) => renderS(c, await getWebhook(c.get('services'), ctx, id(c))),
};

export const webhookDelete: RouteDef = {
  method: 'delete',
  scopes: ['webhooks.write'],
  family: 'S',
  path: '/v1/webhooks/{id}',
  doc: {
    operationId: 'deleteWebhook',
    summary: 'Delete (revoke) a webhook',
    description: `Soft delete: queued deliveries are cancelled and none are sent any more; the record stays (active false). Deleting again answers the same. ${WRITE('webhooks.write')}`,
    tags: TAGS,
    path: WebhookIdPath,
    data: RevokedWebhookSchema,
    envelope: 's',
    errors: [403, 404],
    auth: true,
  },
  handle: async (c, ctx) => renderS(c, await deleteWebhook(c.get('services'), ctx, id(c))),
};

export const webhookDeliveries: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/webhooks/{id}/deliveries',
  doc: {
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's delivery attempts",
    description: `The most recent 200 attempts, newest first: event, attempt (1-3), status_code, the first 500 bytes of the answer, delivered, attempted_at. ${READ}`,
    tags: TAGS,
    path: WebhookIdPath,
    data: z.array(DeliverySchema),
    envelope: 's',
    errors: [403, 404],
    auth: true,
  },
  handle: async (c, ctx) => renderS(c, await listWebhookDeliveries(c.get('services'), ctx, id(c))),
};

export const webhookTrigger: RouteDef = {
  method: 'post',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/webhooks/trigger',
  doc: {
    operationId: 'triggerWebhookEvent',
    summary: 'Make a test event happen (sandbox keys)',
    description:
      'For testing a receiver, as `stripe trigger` does, free: job.succeeded makes a sandbox job (a small sandbox search) that goes through the store like a live one and queues ' +
      'job.queued, job.running and job.succeeded; job.failed the same ending failed (as a sandbox search of location fail does); stay.cached a stay.cached for a sandbox listing. ' +
      "The events go to the account's active sandbox webhooks subscribed to them, queued in order before the answer; the job is pollable (GET /v1/jobs/{jobId}). " +
      `A live key: 403 sandbox_key_required (live webhooks never get test events). ${READ}`,
    tags: TAGS,
    body: TriggerBody,
    data: TriggeredSchema,
    envelope: 's',
    errors: [400, 403],
    auth: true,
  },
  handle: async (c, ctx) => renderS(c, await triggerEvent(c.get('services'), ctx, await jsonBody(c))),
};

export const webhookResend: RouteDef = {
  method: 'post',
  scopes: ['webhooks.write'],
  family: 'S',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/resend',
  doc: {
    operationId: 'resendWebhookDelivery',
    summary: 'Queue one delivery again',
    description:
      'The delivery (its event_id from the attempt log) is queued again, due now, with 3 fresh attempts and the same event id and body (receivers that de-duplicate on the id see the same event). ' +
      'A delivery still queued stays as it is. Unknown, or older than 30 days: 404 delivery_not_found; a deleted or disabled webhook: 404 webhook_not_found. ' +
      WRITE('webhooks.write'),
    tags: TAGS,
    path: DeliveryPath,
    data: ResentSchema,
    envelope: 's',
    errors: [403, 404],
    auth: true,
  },
  handle: async (c, ctx) => renderS(c, await resendDelivery(c.get('services'), ctx, id(c), c.req.param('deliveryId') ?? '')),
};
