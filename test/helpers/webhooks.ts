// Webhooks over the API for the delivery tests: create one (POST /v1/webhooks), read its log.
import { expect } from 'vitest';
import type { Api as Stays } from './stays.js';

export interface Hook {
  id: string;
  secret: string;
}

export interface DeliveryRow {
  event_id: string;
  event: string;
  attempt: number;
  status_code: number | null;
  response_preview: string | null;
  delivered: boolean;
  attempted_at: string;
}

export async function createHook(s: Stays, key: string, url: string, events: string[]): Promise<Hook> {
  const res = await s.req('/v1/webhooks', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, events }) });
  const body = (await res.json()) as { data: { id: string; signing_secret: string } };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return { id: body.data.id, secret: body.data.signing_secret };
}

export async function deliveries(s: Stays, key: string, id: string): Promise<DeliveryRow[]> {
  const res = await s.req(`/v1/webhooks/${id}/deliveries`, { key });
  const body = (await res.json()) as { data: DeliveryRow[] };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** Polls the attempt log until `n` rows are there (newest first). */
export async function waitForDeliveries(s: Stays, key: string, id: string, n: number, timeoutMs = 30_000): Promise<DeliveryRow[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveries(s, key, id);
    if (rows.length >= n) return rows;
    if (Date.now() > until) throw new Error(`${rows.length} of ${n} attempts logged after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function revokeHook(s: Stays, key: string, id: string): Promise<void> {
  const res = await s.req(`/v1/webhooks/${id}`, { key, method: 'DELETE' });
  expect(res.status).toBe(200);
}
