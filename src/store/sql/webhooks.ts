// Webhooks (issue 10): registrations, a durable outbox of deliveries claimed with a lease (like a
// job, so two processes on one store never send one twice) and the attempt log; a webhook that
// keeps failing is slowed, then disabled (issue 21).
import { type WebhookStore, WEBHOOK_DISABLE_AFTER, disabledReason, webhookPauseMs } from '../../core/ports/store.js';
import { type Row, toDelivery, toDeliveryLog, toWebhook } from '../rows.js';
import type { Db } from './db.js';
import { LOCK } from './jobs.js';

const CANCEL_QUEUED = `UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL WHERE webhook_id = $1 AND status = 'pending'`;

export function webhookStore(db: Db): WebhookStore {
  const seq = db.sql.outboxOrder;
  // A delivery that may be claimed now: due, unowned or its lease expired, of a webhook not deleted.
  const due = `o.status = 'pending' AND o.next_attempt_at <= $1 AND (o.owner IS NULL OR o.lease_expires_at <= $1) AND w.revoked_at IS NULL`;
  // ... and its webhook has none in flight (held under a current lease).
  const idle = `NOT EXISTS (SELECT 1 FROM webhook_outbox b WHERE b.webhook_id = o.webhook_id AND b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > $1)`;
  const claim = {
    any: `SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, w.url, w.secret FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
          WHERE ${due} ORDER BY o.next_attempt_at, o.${seq} LIMIT $2${db.sql.skipLocked}`,
    // The first due delivery of each webhook that has none in flight.
    serial: `SELECT id, webhook_id, event, body, attempts, url, secret FROM (
               SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, o.next_attempt_at, o.${seq} AS seq, w.url, w.secret,
                      ROW_NUMBER() OVER (PARTITION BY o.webhook_id ORDER BY o.next_attempt_at, o.${seq}) AS n
               FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id WHERE ${due} AND ${idle}
             ) d WHERE n = 1 ORDER BY next_attempt_at, seq LIMIT $2`,
    // Fair (issue 21): as serial (and not of a paused or disabled webhook), then each account in
    // turn: `turn` is the account's deliveries in flight (any process) plus the delivery's rank
    // among the account's, oldest first; at most $3.
    fair: `WITH busy AS (
             SELECT w.account_id, COUNT(*) AS n FROM webhook_outbox b JOIN webhooks w ON w.id = b.webhook_id
             WHERE b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > $1 GROUP BY w.account_id
           ), heads AS (
             SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, o.next_attempt_at, o.${seq} AS seq, w.url, w.secret, w.account_id,
                    ROW_NUMBER() OVER (PARTITION BY o.webhook_id ORDER BY o.next_attempt_at, o.${seq}) AS n
             FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
             WHERE ${due} AND w.disabled_at IS NULL AND (w.paused_until IS NULL OR w.paused_until <= $1) AND ${idle}
           ), ranked AS (
             SELECT h.*, COALESCE(busy.n, 0) + ROW_NUMBER() OVER (PARTITION BY h.account_id ORDER BY h.next_attempt_at, h.seq) AS turn
             FROM heads h LEFT JOIN busy ON busy.account_id = h.account_id WHERE h.n = 1
           )
           SELECT id, webhook_id, event, body, attempts, url, secret FROM ranked WHERE turn <= $3 ORDER BY turn, next_attempt_at, seq LIMIT $2`,
  };

  return {
    async createWebhook(w, maxActive = Number.POSITIVE_INFINITY) {
      return db.tx(async (q) => {
        // The account row's lock orders concurrent creations, so the cap holds.
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [w.accountId]);
        const n = (await q(`SELECT COUNT(*) AS n FROM webhooks WHERE account_id = $1 AND revoked_at IS NULL`, [w.accountId]))[0]!.n as number;
        if (n >= maxActive) return null;
        const r = (
          await q(`INSERT INTO webhooks (id, account_id, url, events, description, secret, created_at, env) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`, [
            w.id,
            w.accountId,
            w.url,
            JSON.stringify(w.events),
            w.description,
            w.secretEnc,
            w.createdAt,
            w.env,
          ])
        )[0]!;
        return toWebhook(r);
      });
    },
    async listWebhooks(accountId, env) {
      return (await db.query(`SELECT * FROM webhooks WHERE account_id = $1 AND env = $2 ORDER BY created_at DESC, id DESC`, [accountId, env])).map(toWebhook);
    },
    async getWebhook(id) {
      const r = (await db.query(`SELECT * FROM webhooks WHERE id = $1`, [id]))[0];
      return r ? toWebhook(r) : null;
    },
    async revokeWebhook(id, accountId, at) {
      return db.tx(async (q) => {
        const r = (await q(`UPDATE webhooks SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND account_id = $3 RETURNING *`, [at, id, accountId]))[0];
        if (!r) return null;
        await q(CANCEL_QUEUED, [id]);
        return toWebhook(r);
      });
    },
    async webhooksFor(accountId, event, env) {
      return (await db.query(`SELECT * FROM webhooks WHERE account_id = $1 AND env = $2 AND revoked_at IS NULL AND disabled_at IS NULL ORDER BY created_at, id`, [accountId, env]))
        .map(toWebhook)
        .filter((w) => w.events.includes(event));
    },
    async enqueueDeliveries(list) {
      if (list.length === 0) return;
      await db.tx(async (q) => {
        for (const d of list) {
          await q(`INSERT INTO webhook_outbox (id, webhook_id, event, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $5)`, [d.id, d.webhookId, d.event, d.body, d.createdAt]);
        }
      });
    },
    async claimDeliveries(owner, now, leaseUntil, limit, opts) {
      return db.tx(async (q) => {
        let rows: Row[];
        if (opts?.onePerWebhook) {
          // "None of this webhook in flight" spans rows, which a row lock cannot see: serial
          // claims take turns under a lock held for this short transaction only.
          await db.sql.lock(q, LOCK.deliveries);
          rows = opts.perAccount !== undefined ? await q(claim.fair, [now, limit, opts.perAccount]) : await q(claim.serial, [now, limit]);
        } else {
          rows = await q(claim.any, [now, limit]);
        }
        await q(
          `UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL
           WHERE status = 'pending' AND webhook_id IN (SELECT id FROM webhooks WHERE revoked_at IS NOT NULL OR disabled_at IS NOT NULL)`,
        );
        if (rows.length === 0) return [];
        // The serial reads lock nothing: a row another transaction ended, cancelled (its webhook
        // revoked) or claimed since then is left out here, re-checked under the row lock.
        const claimed = await q(
          `UPDATE webhook_outbox SET owner = $1, lease_expires_at = $2
           WHERE ${db.sql.inJsonList('id', '$3')} AND status = 'pending' AND (owner IS NULL OR lease_expires_at <= $4) RETURNING id`,
          [owner, leaseUntil, JSON.stringify(rows.map((r) => r.id)), now],
        );
        const ids = new Set(claimed.map((r) => r.id as string));
        return rows.filter((r) => ids.has(r.id as string)).map(toDelivery);
      });
    },
    async recordAttempt(a) {
      return db.tx(async (q) => {
        const held = (await q(`SELECT webhook_id, event FROM webhook_outbox WHERE id = $1 AND owner = $2 AND status = 'pending'${db.sql.forUpdate}`, [a.deliveryId, a.owner]))[0];
        if (!held) return false;
        const hook = held.webhook_id as string;
        await q(`INSERT INTO webhook_deliveries (webhook_id, event, attempt, status_code, response_preview, delivered, attempted_at, event_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          hook,
          held.event,
          a.attempt,
          a.statusCode,
          a.responsePreview,
          a.delivered ? 1 : 0,
          a.at,
          a.deliveryId,
        ]);
        const status = a.delivered ? 'delivered' : a.retryAt === null ? 'failed' : 'pending';
        await q(`UPDATE webhook_outbox SET attempts = $1, status = $2, next_attempt_at = $3, owner = NULL, lease_expires_at = NULL WHERE id = $4`, [a.attempt, status, a.retryAt, a.deliveryId]);
        // Failures in a row (issue 21): a delivery resets them; past a few the webhook pauses; at disableAfter it is disabled.
        if (a.delivered) {
          await q(`UPDATE webhooks SET consecutive_failures = 0, paused_until = NULL WHERE id = $1`, [hook]);
          return true;
        }
        const n = (await q(`UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures`, [hook]))[0]!.consecutive_failures as number;
        if (n >= (a.disableAfter ?? WEBHOOK_DISABLE_AFTER)) {
          await q(`UPDATE webhooks SET paused_until = NULL, disabled_at = COALESCE(disabled_at, $1), disabled_reason = COALESCE(disabled_reason, $2) WHERE id = $3`, [
            a.at,
            disabledReason(n, a.failure),
            hook,
          ]);
          await q(CANCEL_QUEUED, [hook]);
        } else if (webhookPauseMs(n) > 0) {
          await q(`UPDATE webhooks SET paused_until = $1 WHERE id = $2`, [(a.endedAt ?? a.at) + webhookPauseMs(n), hook]);
        }
        return true;
      });
    },
    async nextDeliveryAt() {
      const r = await db.query(
        `SELECT MIN(${db.sql.greatest}(o.next_attempt_at, COALESCE(w.paused_until, 0))) AS t FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
         WHERE o.status = 'pending' AND w.revoked_at IS NULL AND w.disabled_at IS NULL`,
      );
      return (r[0]?.t as number | null) ?? null;
    },
    async pendingDeliveries(ids) {
      if (ids.length === 0) return [];
      return (await db.query(`SELECT id FROM webhook_outbox WHERE status = 'pending' AND ${db.sql.inJsonList('id', '$1')}`, [JSON.stringify(ids)])).map((r) => r.id as string);
    },
    async resendDelivery(webhookId, deliveryId, now) {
      const changed = await db.query(
        `UPDATE webhook_outbox SET status = 'pending', attempts = 0, next_attempt_at = $1, owner = NULL, lease_expires_at = NULL
         WHERE id = $2 AND webhook_id = $3 AND status <> 'pending' RETURNING id`,
        [now, deliveryId, webhookId],
      );
      if (changed.length === 1) return 'queued';
      return (await db.query(`SELECT 1 FROM webhook_outbox WHERE id = $1 AND webhook_id = $2`, [deliveryId, webhookId])).length === 0 ? 'missing' : 'pending';
    },
    async listDeliveries(webhookId, limit) {
      return (await db.query(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`, [webhookId, limit])).map(toDeliveryLog);
    },
  };
}
