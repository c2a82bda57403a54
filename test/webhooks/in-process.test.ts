// In-process CLI mode (issue 10): with no server, a command that runs a live job delivers that
// job's events itself before it exits, within its --timeout; what it cannot deliver in time stays
// queued in the store.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime.js';
import type { WebhookEvent } from '../../src/core/ports/store.js';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { type Sandbox, freshSandbox, stays } from '../cli/helpers.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

let box: Sandbox;
let live: string;
let accountId: string;
const receivers: Receiver[] = [];
const env = () => ({ ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '200', STAYS_SIM_FAIL: '' });

beforeAll(async () => {
  box = freshSandbox();
  const acct = await stays(['admin', 'account', 'create', '--plan', 'pro', '--credits', '5000', '--json'], box.env);
  accountId = (JSON.parse(acct.stdout) as { id: string }).id;
  const key = await stays(['admin', 'key', 'create', '--account', accountId, '--env', 'live', '--json'], box.env);
  live = (JSON.parse(key.stdout) as { key: string }).key;
});
afterAll(async () => {
  for (const r of receivers) await r.close();
});

/** Registers a webhook straight in the store of the data directory, as the route would. */
async function hook(url: string, events: WebhookEvent[]): Promise<{ id: string; secret: string }> {
  const rt = createRuntime({ config: { dataDir: box.dataDir } });
  try {
    const id = `wh_${rt.ids.ulid()}`;
    const secret = `whsec_${rt.ids.bytes(32).toString('base64url')}`;
    await rt.store.createWebhook({ id, accountId, env: 'live' as const, url, events, description: null, secretEnc: rt.webhooks.box().seal(secret), createdAt: Date.now() });
    return { id, secret };
  } finally {
    await rt.close();
  }
}

async function revoke(id: string) {
  const rt = createRuntime({ config: { dataDir: box.dataDir } });
  await rt.store.revokeWebhook(id, accountId, Date.now());
  await rt.close();
}

const outbox = (webhookId: string) => {
  const d = new Database(join(box.dataDir, 'stays.db'), { readonly: true });
  try {
    return d.prepare('SELECT status, attempts FROM webhook_outbox WHERE webhook_id = ?').all(webhookId) as { status: string; attempts: number }[];
  } finally {
    d.close();
  }
};

describe('webhook events of in-process commands', () => {
  it('a command that ran a live job has delivered its events by the time it exits', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const h = await hook(r.url, ['job.queued', 'job.running', 'job.succeeded']);
    const run = await stays(['search', 'Lisbon', '--limit', '2', '--api-key', live, '-o', 'json'], env());
    expect(run.code, run.stderr).toBe(0);
    // No waiting: already there when the command exited.
    expect(r.received.map((g) => g.body.event)).toEqual(['job.queued', 'job.running', 'job.succeeded']);
    for (const g of r.received) expect(verifyWebhook(g.raw, g.headers['x-service-signature'] as string, h.secret).ok).toBe(true);
    expect(outbox(h.id)).toEqual([
      { status: 'delivered', attempts: 1 },
      { status: 'delivered', attempts: 1 },
      { status: 'delivered', attempts: 1 },
    ]);
    await revoke(h.id);
  });

  it('retries within --timeout; past it the command exits and the delivery stays queued', async () => {
    const r = await startReceiver(() => ({ status: 500 }));
    receivers.push(r);
    const h = await hook(r.url, ['job.succeeded']);
    const t0 = Date.now();
    const run = await stays(['search', 'Porto', '--limit', '2', '--api-key', live, '-o', 'json', '--timeout', '3s'], env());
    expect(run.code, run.stderr).toBe(0);
    // Attempt 1 at once, attempt 2 a second later; attempt 3 (6 s after) is past the 3 s bound.
    expect(r.received).toHaveLength(2);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(outbox(h.id)).toEqual([{ status: 'pending', attempts: 2 }]);
    await revoke(h.id);
  }, 30_000);
});
