// The webhook half of the SQLite store: registrations, the outbox of deliveries (claimed with a
// lease, like jobs) and the attempt log. Merged into the Store by store.ts.
import type Database from 'better-sqlite3';
import {
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryLogRow,
  type NewDelivery,
  type NewWebhook,
  type Store,
  WEBHOOK_DISABLE_AFTER,
  type WebhookEvent,
  type WebhookRow,
  disabledReason,
  webhookPauseMs,
} from '../../core/ports/store.js';
import type { Row } from '../rows.js';

/** Ended outbox rows and attempt-log rows older than `before`, at most `batch` of each. */
export function purgeWebhookLog(db: Database.Database) {
  const outbox = db.prepare(`DELETE FROM webhook_outbox WHERE id IN (SELECT id FROM webhook_outbox WHERE status != 'pending' AND created_at <= ? LIMIT ?)`);
  const log = db.prepare(`DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE attempted_at <= ? LIMIT ?)`);
  return (before: number, batch: number) => outbox.run(before, batch).changes + log.run(before, batch).changes;
}

type WebhookPart = Pick<
  Store,
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'revokeWebhook'
  | 'webhooksFor'
  | 'enqueueDeliveries'
  | 'claimDeliveries'
  | 'recordAttempt'
  | 'nextDeliveryAt'
  | 'pendingDeliveries'
  | 'listDeliveries'
  | 'resendDelivery'
>;

function toWebhook(r: Row): WebhookRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    env: r.env as WebhookRow['env'],
    url: r.url as string,
    events: JSON.parse(r.events as string) as WebhookEvent[],
    description: (r.description as string | null) ?? null,
    secretEnc: r.secret as string,
    revokedAt: (r.revoked_at as number | null) ?? null,
    createdAt: r.created_at as number,
    consecutiveFailures: (r.consecutive_failures as number | null) ?? 0,
    disabledAt: (r.disabled_at as number | null) ?? null,
    disabledReason: (r.disabled_reason as string | null) ?? null,
  };
}

export function webhookStore(db: Database.Database): WebhookPart {
  const q = {
    insert: db.prepare(`INSERT INTO webhooks (id, account_id, env, url, events, description, secret, created_at) VALUES (@id, @accountId, @env, @url, @events, @description, @secretEnc, @createdAt)`),
    get: db.prepare(`SELECT * FROM webhooks WHERE id = ?`),
    list: db.prepare(`SELECT * FROM webhooks WHERE account_id = ? AND env = ? ORDER BY created_at DESC, id DESC`),
    active: db.prepare(`SELECT * FROM webhooks WHERE account_id = ? AND env = ? AND revoked_at IS NULL AND disabled_at IS NULL ORDER BY created_at, id`),
    revoke: db.prepare(`UPDATE webhooks SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND account_id = ?`),
    cancelQueued: db.prepare(`UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL WHERE webhook_id = ? AND status = 'pending'`),
    resend: db.prepare(
      `UPDATE webhook_outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, owner = NULL, lease_expires_at = NULL
       WHERE id = ? AND webhook_id = ? AND status != 'pending'`,
    ),
    outboxStatus: db.prepare(`SELECT status FROM webhook_outbox WHERE id = ? AND webhook_id = ?`).pluck(),
    enqueue: db.prepare(`INSERT INTO webhook_outbox (id, webhook_id, event, body, next_attempt_at, created_at) VALUES (@id, @webhookId, @event, @body, @createdAt, @createdAt)`),
    cancelRevoked: db.prepare(
      `UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL
       WHERE status = 'pending' AND webhook_id IN (SELECT id FROM webhooks WHERE revoked_at IS NOT NULL OR disabled_at IS NOT NULL)`,
    ),
    due: db.prepare(
      `SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, w.url, w.secret FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
       WHERE o.status = 'pending' AND o.next_attempt_at <= @now AND (o.owner IS NULL OR o.lease_expires_at <= @now) AND w.revoked_at IS NULL
       ORDER BY o.next_attempt_at, o.rowid LIMIT @limit`,
    ),
    // The first due delivery of each webhook that has none in flight (held under a current lease).
    dueSerial: db.prepare(
      `SELECT id, webhook_id, event, body, attempts, url, secret FROM (
         SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, o.next_attempt_at, o.rowid AS seq, w.url, w.secret,
                ROW_NUMBER() OVER (PARTITION BY o.webhook_id ORDER BY o.next_attempt_at, o.rowid) AS n
         FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
         WHERE o.status = 'pending' AND o.next_attempt_at <= @now AND (o.owner IS NULL OR o.lease_expires_at <= @now) AND w.revoked_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM webhook_outbox b WHERE b.webhook_id = o.webhook_id AND b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > @now)
       ) WHERE n = 1 ORDER BY next_attempt_at, seq LIMIT @limit`,
    ),
    // Fair (issue 21): the first due delivery of each claimable webhook (none in flight, not
    // paused), then each account's in turn: `turn` is the account's deliveries in flight (any
    // process) plus the delivery's rank among the account's, oldest first; at most @perAccount.
    dueFair: db.prepare(
      `WITH busy AS (
         SELECT w.account_id, COUNT(*) AS n FROM webhook_outbox b JOIN webhooks w ON w.id = b.webhook_id
         WHERE b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > @now GROUP BY w.account_id
       ), heads AS (
         SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, o.next_attempt_at, o.rowid AS seq, w.url, w.secret, w.account_id,
                ROW_NUMBER() OVER (PARTITION BY o.webhook_id ORDER BY o.next_attempt_at, o.rowid) AS n
         FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
         WHERE o.status = 'pending' AND o.next_attempt_at <= @now AND (o.owner IS NULL OR o.lease_expires_at <= @now)
           AND w.revoked_at IS NULL AND w.disabled_at IS NULL AND (w.paused_until IS NULL OR w.paused_until <= @now)
           AND NOT EXISTS (SELECT 1 FROM webhook_outbox b WHERE b.webhook_id = o.webhook_id AND b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > @now)
       ), ranked AS (
         SELECT h.*, COALESCE(busy.n, 0) + ROW_NUMBER() OVER (PARTITION BY h.account_id ORDER BY h.next_attempt_at, h.seq) AS turn
         FROM heads h LEFT JOIN busy ON busy.account_id = h.account_id WHERE h.n = 1
       )
       SELECT id, webhook_id, event, body, attempts, url, secret FROM ranked WHERE turn <= @perAccount ORDER BY turn, next_attempt_at, seq LIMIT @limit`,
    ),
    pending: db.prepare(`SELECT id FROM webhook_outbox WHERE status = 'pending' AND id IN (SELECT value FROM json_each(?))`).pluck(),
    claim: db.prepare(`UPDATE webhook_outbox SET owner = ?, lease_expires_at = ? WHERE id = ?`),
    owned: db.prepare(`SELECT o.webhook_id, o.event, w.consecutive_failures FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id WHERE o.id = ? AND o.owner = ? AND o.status = 'pending'`),
    healthy: db.prepare(`UPDATE webhooks SET consecutive_failures = 0, paused_until = NULL WHERE id = ?`),
    failing: db.prepare(`UPDATE webhooks SET consecutive_failures = ?, paused_until = ? WHERE id = ?`),
    disable: db.prepare(`UPDATE webhooks SET consecutive_failures = ?, paused_until = NULL, disabled_at = COALESCE(disabled_at, ?), disabled_reason = COALESCE(disabled_reason, ?) WHERE id = ?`),
    log: db.prepare(
      `INSERT INTO webhook_deliveries (webhook_id, event, attempt, status_code, response_preview, delivered, attempted_at, event_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    advance: db.prepare(`UPDATE webhook_outbox SET attempts = ?, status = ?, next_attempt_at = ?, owner = NULL, lease_expires_at = NULL WHERE id = ?`),
    next: db
      .prepare(
        `SELECT MIN(MAX(o.next_attempt_at, COALESCE(w.paused_until, 0))) FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
       WHERE o.status = 'pending' AND w.revoked_at IS NULL AND w.disabled_at IS NULL`,
      )
      .pluck(),
    deliveries: db.prepare(`SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?`),
  };

  const countActive = db.prepare(`SELECT COUNT(*) FROM webhooks WHERE account_id = ? AND revoked_at IS NULL`).pluck();
  const createTx = db.transaction((w: NewWebhook, maxActive: number): WebhookRow | null => {
    if ((countActive.get(w.accountId) as number) >= maxActive) return null;
    q.insert.run({ ...w, events: JSON.stringify(w.events) });
    return toWebhook(q.get.get(w.id) as Row);
  });

  const revokeTx = db.transaction((id: string, accountId: string, at: number): WebhookRow | null => {
    if (q.revoke.run(at, id, accountId).changes === 0) return null;
    q.cancelQueued.run(id);
    return toWebhook(q.get.get(id) as Row);
  });

  const enqueueTx = db.transaction((list: NewDelivery[]) => {
    for (const d of list) q.enqueue.run(d);
  });

  const claimTx = db.transaction((owner: string, now: number, leaseUntil: number, limit: number, serial: boolean, perAccount: number | undefined): ClaimedDelivery[] => {
    q.cancelRevoked.run();
    const rows = (serial && perAccount !== undefined ? q.dueFair.all({ now, limit, perAccount }) : (serial ? q.dueSerial : q.due).all({ now, limit })) as Row[];
    for (const r of rows) q.claim.run(owner, leaseUntil, r.id);
    return rows.map((r) => ({
      id: r.id as string,
      webhookId: r.webhook_id as string,
      event: r.event as WebhookEvent,
      body: r.body as string,
      attempts: r.attempts as number,
      url: r.url as string,
      secretEnc: r.secret as string,
    }));
  });

  const attemptTx = db.transaction((a: DeliveryAttempt): boolean => {
    const held = q.owned.get(a.deliveryId, a.owner) as Row | undefined;
    if (!held) return false;
    q.log.run(held.webhook_id, held.event, a.attempt, a.statusCode, a.responsePreview, a.delivered ? 1 : 0, a.at, a.deliveryId);
    const status = a.delivered ? 'delivered' : a.retryAt === null ? 'failed' : 'pending';
    q.advance.run(a.attempt, status, a.retryAt, a.deliveryId);
    const hook = held.webhook_id as string;
    if (a.delivered) {
      q.healthy.run(hook);
      return true;
    }
    const n = (held.consecutive_failures as number) + 1;
    if (n >= (a.disableAfter ?? WEBHOOK_DISABLE_AFTER)) {
      q.disable.run(n, a.at, disabledReason(n, a.failure), hook);
      q.cancelQueued.run(hook);
    } else {
      q.failing.run(n, webhookPauseMs(n) > 0 ? (a.endedAt ?? a.at) + webhookPauseMs(n) : null, hook);
    }
    return true;
  });

  return {
    async createWebhook(w: NewWebhook, maxActive = Number.POSITIVE_INFINITY) {
      return createTx.immediate(w, maxActive);
    },
    async listWebhooks(accountId, env) {
      return (q.list.all(accountId, env) as Row[]).map(toWebhook);
    },
    async getWebhook(id) {
      const r = q.get.get(id) as Row | undefined;
      return r ? toWebhook(r) : null;
    },
    async revokeWebhook(id, accountId, at) {
      return revokeTx(id, accountId, at);
    },
    async webhooksFor(accountId, event, env) {
      return (q.active.all(accountId, env) as Row[]).map(toWebhook).filter((w) => w.events.includes(event));
    },
    async enqueueDeliveries(list) {
      if (list.length) enqueueTx(list);
    },
    async claimDeliveries(owner, now, leaseUntil, limit, opts) {
      return claimTx.immediate(owner, now, leaseUntil, limit, opts?.onePerWebhook === true, opts?.perAccount);
    },
    async recordAttempt(a) {
      return attemptTx.immediate(a);
    },
    async nextDeliveryAt() {
      return (q.next.get() as number | null) ?? null;
    },
    async pendingDeliveries(ids) {
      return ids.length === 0 ? [] : (q.pending.all(JSON.stringify(ids)) as string[]);
    },
    async resendDelivery(webhookId, deliveryId, now) {
      if (q.resend.run(now, deliveryId, webhookId).changes === 1) return 'queued';
      return q.outboxStatus.get(deliveryId, webhookId) === undefined ? 'missing' : 'pending';
    },
    async listDeliveries(webhookId, limit): Promise<DeliveryLogRow[]> {
      return (q.deliveries.all(webhookId, limit) as Row[]).map((r) => ({
        eventId: (r.event_id as string | null) ?? '',
        event: r.event as WebhookEvent,
        attempt: r.attempt as number,
        statusCode: (r.status_code as number | null) ?? null,
        responsePreview: (r.response_preview as string | null) ?? null,
        delivered: r.delivered === 1,
        attemptedAt: r.attempted_at as number,
      }));
    },
  };
}
