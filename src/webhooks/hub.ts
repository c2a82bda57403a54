// Where events enter the webhook system: `emit` queues an event for every active webhook of the
// account, in the event's environment (sandbox or live: separate worlds), subscribed to it (durably, in the store's outbox) and wakes the dispatcher, which
// delivers it (src/webhooks/dispatcher.ts). Emitting never fails the call that caused the event:
// while the store is away (a retryable 503) queueing is retried for QUEUE_RETRY_MS, so an outage
// loses no event; any other store error is reported to `onError` and the call goes on.
//
// Emits are queued one after another, in the order they were made, so a job's events reach the
// outbox (and each receiver) as job.queued, job.running, then job.succeeded or job.failed, even
// when the caller fires them without waiting.
import type { Clock } from '../core/clock.js';
import { isServiceError } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Store, WebhookEvent } from '../core/ports/store.js';
import type { EventOwner, EventSink } from '../core/ports/runtime.js';
import { type SecretBox, serverSecretBox } from '../secrets.js';

/** The core's event sink (core/ports/runtime.ts), and the dispatcher's wake-up. */
export interface WebhookHub extends EventSink {
  /** Called with the delivery ids after events are queued (the dispatcher's wake-up); one listener. */
  onQueued(listener: ((deliveryIds: string[]) => void) | null): void;
}

export interface HubDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  config: { secretKey?: string; dataDir: string };
  onError?(e: unknown): void;
}

/** How long queueing an event keeps retrying while the store is away (503 database_unavailable), so an outage loses no event. */
const QUEUE_RETRY_MS = 15_000;

/** `f`, retried with back-off while the store answers a retryable error, for at most QUEUE_RETRY_MS. */
async function untilStored<T>(f: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      if (!(isServiceError(e) && e.retryable) || Date.now() - started > QUEUE_RETRY_MS) throw e;
      await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
    }
  }
}

export function createWebhookHub(d: HubDeps): WebhookHub {
  let box: SecretBox | null = null;
  let listener: ((deliveryIds: string[]) => void) | null = null;
  let tail: Promise<void> = Promise.resolve();
  const queue = async (owner: EventOwner, event: WebhookEvent, data: Record<string, unknown>, at: number) => {
    try {
      const hooks = await untilStored(() => d.store.webhooksFor(owner.accountId, event, owner.env));
      if (hooks.length === 0) return;
      // One event id per webhook: each receiver de-duplicates its own deliveries.
      const list = hooks.map((w) => {
        const id = `evt_${d.ids.ulid()}`;
        return { id, webhookId: w.id, event, createdAt: at, body: JSON.stringify({ id, event, created_at: new Date(at).toISOString(), data }) };
      });
      // The same ids on every attempt: an attempt whose commit landed but whose answer was lost
      // makes the next one meet its own rows, which means queued.
      let attempted = false;
      await untilStored(async () => {
        try {
          await d.store.enqueueDeliveries(list);
        } catch (e) {
          if (attempted && (e as { code?: unknown }).code === '23505') return;
          throw e;
        } finally {
          attempted = true;
        }
      });
      listener?.(list.map((x) => x.id));
    } catch (e) {
      d.onError?.(e);
    }
  };
  return {
    emit(owner, event, data) {
      // The event's time is when it happened, not when its turn in the queue came.
      const at = d.clock.now();
      const p = tail.then(() => queue(owner, event, data, at));
      tail = p;
      return p;
    },
    box: () => (box ??= serverSecretBox(d.config)),
    onQueued(l) {
      listener = l;
    },
    idle: () => tail,
    announce: (ids) => listener?.(ids),
  };
}
