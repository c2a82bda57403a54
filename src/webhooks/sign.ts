// Webhook signatures (spec "Events"): `x-service-signature: t=<unix>,v1=<hex>`, where v1 is the
// lowercase hex HMAC-SHA256 of `t + '.' + rawBody` keyed with the webhook's signing secret.
// `verifyWebhook` is what receivers call (exported from the package root); it has no dependency
// beyond node:crypto so a receiver can import it without loading the service.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_ID_HEADER = 'x-service-event-id';
/** Receivers reject deliveries older than this (spec: 5 minutes). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** How old (or how far in the future) `t` may be, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time in unix seconds (tests). Default now. */
  now?: number;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'stale' | 'future' | 'mismatch' };

const digest = (secret: string, t: number, rawBody: string | Uint8Array) => createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');

/** The header value for a body signed at unix time `t`. */
export function signatureHeader(rawBody: string | Uint8Array, secret: string, t: number = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${digest(secret, t, rawBody)}`;
}

/**
 * Checks a delivery: the header's t is within the tolerance of now (a replay of an old delivery
 * fails), and one of its v1 values is the HMAC of `t.rawBody` (compared in constant time). Pass
 * the body exactly as received (bytes or string), before any JSON parsing.
 */
export function verifyWebhook(rawBody: string | Uint8Array, header: string | null | undefined, secret: string, opts: VerifyOptions = {}): VerifyResult {
  if (typeof header !== 'string' || header.length > 4096) return { ok: false, reason: 'malformed' };
  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) candidates.push(v);
  }
  if (t === null || candidates.length === 0) return { ok: false, reason: 'malformed' };
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (t < now - tolerance) return { ok: false, reason: 'stale' };
  if (t > now + tolerance) return { ok: false, reason: 'future' };
  const expected = Buffer.from(digest(secret, t, rawBody), 'hex');
  const match = candidates.some((c) => timingSafeEqual(Buffer.from(c, 'hex'), expected));
  return match ? { ok: true, timestamp: t } : { ok: false, reason: 'mismatch' };
}
