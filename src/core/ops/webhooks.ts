// Webhooks (spec "Webhook (Family S)", D22, issue 10): register, list, show, revoke, and the
// attempt log. A webhook belongs to the account and to the environment (sandbox or live) of the
// key that created it (issue 21): keys of the other environment do not see it (404), and it gets
// only its own environment's events.
// Free (0 credits). The signing secret is returned once, at creation; at rest it is sealed
// (src/secrets.ts) and never logged.
import { requireScope } from '../auth.js';
import type { RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { type CreateWebhookInput, CreateWebhookBody, type CreatedWebhook, type Delivery, type Webhook } from '../schemas/webhooks.js';
import { type RawInput, parseParams, preview } from '../validate.js';
import { WEBHOOK_EVENTS, type WebhookRow } from '../ports/store.js';

/** Active webhooks one account may have, sandbox and live together (docs/decisions.md, "Webhooks: the routes"). */
const MAX_ACTIVE_WEBHOOKS = 20;
/** The attempt log shows this many, newest first (spec Limits). */
const DELIVERY_LOG_LIMIT = 200;
const SECRET_NOTE = 'Store signing_secret now: it is shown only once and cannot be retrieved again. To replace it, delete this webhook and create another.';

const WEBHOOK_ID = /^wh_[0-9A-HJKMNP-TV-Z]{26}$/;
const iso = (ms: number) => new Date(ms).toISOString();

function webhookView(w: WebhookRow): Webhook {
  const status = w.revokedAt !== null ? 'deleted' : w.disabledAt !== null ? 'disabled' : 'active';
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    active: status === 'active',
    created_at: iso(w.createdAt),
    // A webhook that keeps failing is slowed, then disabled (issue 21).
    status,
    consecutive_failures: w.consecutiveFailures,
    disabled_at: w.disabledAt === null ? null : iso(w.disabledAt),
    disabled_reason: w.disabledReason,
  };
}

/**
 * The create body, typed: url http(s), no credentials, at most 2,048 characters; events known
 * (D22) and at least one, de-duplicated in the order given; description at most 500.
 */
function parseCreateWebhook(raw: RawInput): CreateWebhookInput {
  if (Array.isArray(raw.events) && raw.events.length === 0) {
    throw new ServiceError('invalid_parameter', `events must name at least one event: ${WEBHOOK_EVENTS.join(', ')}.`, { param: 'events' });
  }
  const p = parseParams(CreateWebhookBody, raw);
  if (p.events.length === 0) throw new ServiceError('invalid_parameter', `events must name at least one event: ${WEBHOOK_EVENTS.join(', ')}.`, { param: 'events' });
  let u: URL;
  try {
    u = new URL(p.url);
  } catch {
    throw new ServiceError('invalid_parameter', `url is not an absolute URL (got ${preview(p.url)}).`, { param: 'url' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ServiceError('invalid_parameter', `url must be an http or https URL (got ${preview(u.protocol.replace(/:$/, ''))}).`, { param: 'url' });
  }
  if (u.username !== '' || u.password !== '') {
    throw new ServiceError('invalid_parameter', 'url must not carry a user name or password; put a token in its path or query instead.', { param: 'url' });
  }
  if (u.hostname === '') throw new ServiceError('invalid_parameter', 'url has no host.', { param: 'url' });
  const description = p.description?.trim() ?? '';
  return { url: p.url, events: [...new Set(p.events)], description: description === '' ? null : description };
}

/** Registers a webhook for the account; the only answer that carries the signing secret. */
export async function createWebhook(
  services: Services,
  ctx: RequestContext,
  raw: RawInput,
  /** The network-facing target check (STAYS_WEBHOOK_DENY_PRIVATE), run after the body is valid. */
  checkTarget?: (url: string) => Promise<void>,
): Promise<CreatedWebhook> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'webhooks.write');
  const input = parseCreateWebhook(raw);
  await checkTarget?.(input.url);
  const secret = `whsec_${services.ids.bytes(32).toString('base64url')}`;
  // The cap is checked in the store's transaction: concurrent creations cannot pass it together.
  const row = await services.store.createWebhook(
    {
      id: `wh_${services.ids.ulid()}`,
      accountId: ctx.account.id,
      env: ctx.key.env,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secretEnc: services.webhooks.box().seal(secret),
      createdAt: services.clock.now(),
    },
    MAX_ACTIVE_WEBHOOKS,
  );
  if (!row) {
    throw new ServiceError(
      'webhook_limit_exceeded',
      `This account already has ${MAX_ACTIVE_WEBHOOKS} active webhooks (sandbox and live together), the most it may have; delete one first (DELETE /v1/webhooks/{id}, with a key of its environment).`,
    );
  }
  return { ...webhookView(row), signing_secret: secret, note: SECRET_NOTE };
}

export async function listWebhooks(services: Services, ctx: RequestContext): Promise<Webhook[]> {
  requireScope(ctx, 'stays.read');
  return (await services.store.listWebhooks(ctx.account.id, ctx.key.env)).map(webhookView);
}

/** The caller's webhook, or webhook_not_found (unknown, malformed, another account's or the other environment's). */
export async function ownWebhook(services: Services, ctx: RequestContext, id: string): Promise<WebhookRow> {
  const notFound = () => new ServiceError('webhook_not_found', `No webhook ${preview(id)} on this account.`, { param: 'id' });
  if (!WEBHOOK_ID.test(id)) throw notFound();
  const w = await services.store.getWebhook(id);
  if (!w || w.accountId !== ctx.account.id || w.env !== ctx.key.env) throw notFound();
  return w;
}

export async function getWebhook(services: Services, ctx: RequestContext, id: string): Promise<Webhook> {
  requireScope(ctx, 'stays.read');
  return webhookView(await ownWebhook(services, ctx, id));
}

/** Soft delete: deliveries stop at once, the record stays (GET shows active false). Idempotent. */
export async function deleteWebhook(services: Services, ctx: RequestContext, id: string): Promise<{ id: string; revoked: true }> {
  requireScope(ctx, 'webhooks.write');
  await ownWebhook(services, ctx, id);
  const w = await services.store.revokeWebhook(id, ctx.account.id, services.clock.now());
  if (!w) throw new ServiceError('webhook_not_found', `No webhook ${preview(id)} on this account.`, { param: 'id' });
  return { id: w.id, revoked: true };
}

export async function listWebhookDeliveries(services: Services, ctx: RequestContext, id: string): Promise<Delivery[]> {
  requireScope(ctx, 'stays.read');
  await ownWebhook(services, ctx, id);
  const rows = await services.store.listDeliveries(id, DELIVERY_LOG_LIMIT);
  return rows.map((r) => ({
    event_id: r.eventId,
    event: r.event,
    attempt: r.attempt,
    status_code: r.statusCode,
    response_preview: r.responsePreview,
    delivered: r.delivered,
    attempted_at: iso(r.attemptedAt),
  }));
}
