// Where events enter the webhook system: `emit` queues an event for every active webhook of the
// account subscribed to it (durably, in the store's outbox) and wakes the dispatcher, which
// delivers it (src/webhooks/dispatcher.ts). Emitting never fails the call that caused the event:
// a store error is reported to `onError` and the call goes on.
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { Store, WebhookEvent } from '../store/types.js';
import { type SecretBox, serverSecretBox } from './secrets.js';

export interface WebhookHub {
  /** Queues `event` with `data` for the account's subscribed webhooks; resolves once it is queued. */
  emit(accountId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void>;
  /** The server key's box for signing secrets (loaded, or generated into the data dir, on first use). */
  box(): SecretBox;
  /** Called after events are queued (the dispatcher's wake-up); one listener. */
  onQueued(listener: (() => void) | null): void;
}

export interface HubDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  config: { secretKey?: string; dataDir: string };
  onError?(e: unknown): void;
}

export function createWebhookHub(d: HubDeps): WebhookHub {
  let box: SecretBox | null = null;
  let listener: (() => void) | null = null;
  return {
    async emit(accountId, event, data) {
      try {
        const hooks = await d.store.webhooksFor(accountId, event);
        if (hooks.length === 0) return;
        const at = d.clock.now();
        // One event id per webhook: each receiver de-duplicates its own deliveries.
        await d.store.enqueueDeliveries(
          hooks.map((w) => {
            const id = `evt_${d.ids.ulid()}`;
            return { id, webhookId: w.id, event, createdAt: at, body: JSON.stringify({ id, event, created_at: new Date(at).toISOString(), data }) };
          }),
        );
        listener?.();
      } catch (e) {
        d.onError?.(e);
      }
    },
    box: () => (box ??= serverSecretBox(d.config)),
    onQueued(l) {
      listener = l;
    },
  };
}
