// Idempotency-Key on every POST of the API (issue 21), as Stripe has it: a retry with the same
// key and the same request gets the first answer again (Idempotent-Replayed: true) and is charged
// once; the same key with another request is a typed 400; a retry while the first still runs is a
// retryable 409. Keys are per account and environment, kept 24 hours, in the store (so every
// instance on one database shares them). Runs after authentication and the rate limit, before
// the handler. docs/decisions.md: "Idempotency keys".
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { RequestContext } from '../core/context.js';
import { ServiceError, isServiceError } from '../core/errors.js';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyRef, type StoredAnswer } from '../core/ports/store.js';
import { renderError } from './render.js';
import { type Env, requestHeader } from './route.js';

const IDEMPOTENCY_KEY_MAX = 255;

/** Printable ASCII only (no control characters, NUL included), 1 to 255 of them. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Headers that belong to one exchange, not to the answer: never stored, never replayed. */
const NOT_REPLAYED = /^(?:x-ratelimit-.*|content-length|connection|keep-alive|date|transfer-encoding|set-cookie|idempotent-replayed)$/i;

/**
 * Whether an answer is kept for replays. Stripe keeps the result of a request that executed,
 * errors included; an answer that says "try again" (rate limited, busy, a 5xx, a timeout) is
 * not kept, so the retry executes.
 */
const storable = (status: number) => status < 500 && status !== 408 && status !== 409 && status !== 429;

/** The request a key is bound to: method, path and query, and the exact body bytes. */
function fingerprint(c: Context<Env>, body: string): string {
  const u = new URL(c.req.url);
  return createHash('sha256').update(`${c.req.method}\n${u.pathname}${u.search}\n`).update(body).digest('hex');
}

/** The key of this request, validated; undefined when it has none (or is not a POST). */
function idempotencyKeyOf(c: Context<Env>): string | undefined {
  if (c.req.method !== 'POST') return undefined;
  const key = requestHeader(c, 'idempotency-key');
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    const why = key.length === 0 ? 'is empty' : key.length > IDEMPOTENCY_KEY_MAX ? `is ${key.length} characters long` : 'contains a character that is not printable ASCII';
    throw new ServiceError('invalid_parameter', `The Idempotency-Key header ${why}: send 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters (a UUID is usual).`, {
      param: 'Idempotency-Key',
    });
  }
  return key;
}

/** Replays a stored answer: its status, headers (X-Request-Id of the first request) and exact body. */
function replay(c: Context<Env>, a: StoredAnswer): Response {
  for (const [k, v] of Object.entries(a.headers)) c.header(k, v);
  c.header('Idempotent-Replayed', 'true');
  return c.body(a.body, a.status as 200);
}

async function answerOf(res: Response): Promise<StoredAnswer> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!NOT_REPLAYED.test(k)) headers[k] = v;
  });
  return { status: res.status, headers, body: await res.clone().text() };
}

/**
 * Runs `handle` under the request's Idempotency-Key, if it has one: claims the key (renewing the
 * claim while the handler runs, so a process that dies mid-request leaves a claim that lapses
 * after STAYS_JOB_LEASE_MS), then stores the answer or, when it is not kept, releases the claim.
 */
export async function withIdempotency(c: Context<Env>, ctx: RequestContext, handle: () => Promise<Response>, logger?: Logger): Promise<Response> {
  const key = idempotencyKeyOf(c);
  if (key === undefined) return handle();
  const s = c.get('services');
  const body = await c.req.text();
  const ref: IdempotencyRef = { accountId: ctx.account.id, env: ctx.key.env, key, owner: ctx.requestId };
  const leaseMs = s.config.jobLeaseMs;
  const now = s.clock.now();
  const claim = await s.store.claimIdempotencyKey({ ...ref, fingerprint: fingerprint(c, body), now, leaseUntil: now + leaseMs, expiresAt: now + IDEMPOTENCY_RETENTION_MS });
  switch (claim.state) {
    case 'done':
      return replay(c, claim.answer);
    case 'mismatch':
      throw new ServiceError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used in the last 24 hours with a different request (another body, path or method); nothing was executed. Send a new key.',
        { param: 'Idempotency-Key' },
      );
    case 'in_progress':
      throw new ServiceError('idempotency_key_in_use', 'Another request with this Idempotency-Key is still being processed; retry with the same key and body after Retry-After seconds.', {
        param: 'Idempotency-Key',
        retryAfter: 1,
      });
    case 'claimed':
      break;
  }

  const renew = setInterval(
    () => {
      s.store.renewIdempotencyKey(ref, s.clock.now() + leaseMs).catch((err: unknown) => logger?.warn({ reqId: ctx.requestId, err }, 'idempotency key renewal failed'));
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  renew.unref();
  let res: Response;
  try {
    try {
      res = await handle();
    } catch (e) {
      // A typed answer of a request that executed is kept like a returned one; anything else
      // (a bug, a client gone, a body over the limit) leaves the key free for a retry.
      if (!isServiceError(e) || e.retryable || !storable(e.status)) throw e;
      res = renderError(c, e);
    }
  } catch (e) {
    clearInterval(renew);
    await s.store.releaseIdempotencyKey(ref).catch(() => undefined);
    throw e;
  }
  clearInterval(renew);
  try {
    if (storable(res.status)) {
      // False: the claim lapsed (the handler outlived several missed renewals) and another request took the key.
      if (!(await s.store.completeIdempotencyKey(ref, await answerOf(res)))) logger?.warn({ reqId: ctx.requestId }, 'idempotency key claim lost before the answer was stored');
    } else {
      await s.store.releaseIdempotencyKey(ref);
    }
  } catch (err) {
    // The request executed and this is its answer: the client gets it. The claim lapses after
    // its lease, and a retry then executes again.
    logger?.error({ reqId: ctx.requestId, err }, 'storing the answer of an idempotent request failed');
  }
  return res;
}
