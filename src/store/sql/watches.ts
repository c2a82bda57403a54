// Watches (issue 26, item 4): the calls the server makes again on an interval, claimed by moving
// their next run in one statement (two processes never run one watch twice for one interval), and
// the events their rules raised. JSON columns hold the call, the rules and the state a run compares with.
import { WATCH_EVENTS_KEPT, type WatchEventRow, type WatchRow, type WatchStore } from '../../core/ports/store.js';
import type { Row } from '../rows.js';
import type { Db } from './db.js';

const json = (v: unknown) => (v === null || v === undefined ? null : (JSON.parse(v as string) as unknown));

const toWatch = (r: Row): WatchRow => ({
  id: r.id as string,
  accountId: r.account_id as string,
  keyId: r.key_id as string,
  env: r.env as WatchRow['env'],
  name: (r.name as string | null) ?? null,
  call: json(r.call) as WatchRow['call'],
  rules: json(r.rules) as WatchRow['rules'],
  intervalMinutes: Number(r.interval_minutes),
  maxCreditsPerDay: r.max_credits_per_day === null ? null : Number(r.max_credits_per_day),
  status: r.status as WatchRow['status'],
  endedReason: (r.ended_reason as string | null) ?? null,
  createdAt: Number(r.created_at),
  nextRunAt: Number(r.next_run_at),
  lastRunAt: r.last_run_at === null ? null : Number(r.last_run_at),
  lastOutcome: (r.last_outcome as WatchRow['lastOutcome']) ?? null,
  lastCharged: Number(r.last_charged),
  lastError: json(r.last_error) as WatchRow['lastError'],
  state: json(r.state),
  creditsDay: (r.credits_day as string | null) ?? null,
  creditsToday: Number(r.credits_today),
  runs: Number(r.runs),
  triggers: Number(r.triggers),
});

const toEvent = (r: Row): WatchEventRow => ({
  id: r.id as string,
  watchId: r.watch_id as string,
  occurredAt: Number(r.occurred_at),
  rule: json(r.rule) as Record<string, unknown>,
  before: json(r.before_value),
  after: json(r.after_value),
  changes: json(r.changes) as unknown[],
});

export function watchStore(db: Db): WatchStore {
  return {
    async createWatch(w, maxActive) {
      return db.tx(async (q) => {
        // The account row's lock orders concurrent creations, so the cap holds.
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [w.accountId]);
        // What the account keeps counts: active and ended watches (a deleted one left with its events).
        const n = Number((await q(`SELECT COUNT(*) AS n FROM watches WHERE account_id = $1 AND status <> 'deleted'`, [w.accountId]))[0]!.n);
        if (n >= maxActive) return null;
        const r = (
          await q(
            `INSERT INTO watches (id, account_id, key_id, env, name, call, rules, interval_minutes, max_credits_per_day, created_at, next_run_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
            [w.id, w.accountId, w.keyId, w.env, w.name, JSON.stringify(w.call), JSON.stringify(w.rules), w.intervalMinutes, w.maxCreditsPerDay, w.createdAt, w.nextRunAt],
          )
        )[0]!;
        return toWatch(r);
      });
    },
    async listWatches(accountId, env, after, limit) {
      const rows = after
        ? await db.query(
            `SELECT * FROM watches WHERE account_id = $1 AND env = $2 AND status <> 'deleted' AND (created_at < $3 OR (created_at = $3 AND id < $4))
             ORDER BY created_at DESC, id DESC LIMIT $5`,
            [accountId, env, after.createdAt, after.id, limit],
          )
        : await db.query(`SELECT * FROM watches WHERE account_id = $1 AND env = $2 AND status <> 'deleted' ORDER BY created_at DESC, id DESC LIMIT $3`, [accountId, env, limit]);
      return rows.map(toWatch);
    },
    async getWatch(id) {
      const r = (await db.query(`SELECT * FROM watches WHERE id = $1`, [id]))[0];
      return r ? toWatch(r) : null;
    },
    async deleteWatch(id, accountId) {
      // Gone at once, its events with it (issue 35, item 2): nothing of a deleted watch is kept.
      return db.tx(async (q) => {
        const r = (await q(`SELECT * FROM watches WHERE id = $1 AND account_id = $2${db.sql.forUpdate}`, [id, accountId]))[0];
        if (!r) return null;
        await q(`DELETE FROM watch_events WHERE watch_id = $1`, [id]);
        await q(`DELETE FROM watches WHERE id = $1`, [id]);
        return { ...toWatch(r), status: 'deleted' as const };
      });
    },
    async claimDueWatches(now, limit, o = {}) {
      // Due from `slackMs` before a nominal time; the next run is the nominal time after the one this
      // claim serves (created_at + k × interval, the watch's phase), so a tick a little early or late
      // neither skips an interval nor moves the phase (issue 36, item 3).
      const until = `(CAST($1 AS BIGINT) + CAST($5 AS BIGINT))`;
      const every = '(interval_minutes * 60000)';
      // At most `perAccount` of one account per claim, each account's first before anyone's second
      // (issue 35, item 4); none of `skipAccounts` (their runs in flight are at the caller's bound).
      // The outer condition is checked again on the row being updated: a watch another process
      // claimed meanwhile (its next run moved on) is not claimed twice.
      const rows = await db.query(
        `UPDATE watches SET next_run_at = created_at + ((${until} - created_at) / ${every} + 1) * ${every}
         WHERE id IN (SELECT id FROM (SELECT id, next_run_at AS due, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY next_run_at, id) AS nth
                                      FROM watches WHERE status = 'active' AND next_run_at <= ${until}
                                      AND ($3 = '' OR account_id = $3) AND ($4 = '' OR env = $4) AND NOT ${db.sql.inJsonList('account_id', '$7')}) d
                      WHERE nth <= $6 ORDER BY nth, due, id LIMIT $2)
           AND status = 'active' AND next_run_at <= ${until}
         RETURNING *`,
        [now, limit, o.accountId ?? '', o.env ?? '', o.slackMs ?? 0, o.perAccount ?? limit, JSON.stringify(o.skipAccounts ?? [])],
      );
      // RETURNING gives the rows as updated: the run is of the interval that was due.
      return rows.map(toWatch).sort((a, b) => a.nextRunAt - b.nextRunAt || a.id.localeCompare(b.id));
    },
    async finishWatchRun(id, run, events) {
      await db.tx(async (q) => {
        const state = run.state === undefined ? null : JSON.stringify(run.state);
        await q(
          `UPDATE watches SET last_run_at = $1, last_outcome = $2, last_charged = $3, last_error = $4, state = CASE WHEN $5 = 1 THEN $6 ELSE state END,
             credits_day = $7, credits_today = $8, runs = runs + 1, triggers = triggers + $9,
             status = CASE WHEN $10 = '' OR status <> 'active' THEN status ELSE 'ended' END,
             ended_reason = CASE WHEN $10 = '' OR status <> 'active' THEN ended_reason ELSE $10 END
           WHERE id = $11`,
          [
            run.at,
            run.outcome,
            run.charged,
            run.error === null ? null : JSON.stringify(run.error),
            run.state === undefined ? 0 : 1,
            state,
            run.creditsDay,
            run.creditsToday,
            events.length,
            run.endedReason ?? '',
            id,
          ],
        );
        // A watch deleted while it ran is gone: its events are not kept either.
        for (const e of events) {
          await q(
            `INSERT INTO watch_events (id, watch_id, occurred_at, rule, before_value, after_value, changes)
             SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM watches WHERE id = $2)`,
            [e.id, id, run.at, JSON.stringify(e.rule), JSON.stringify(e.before ?? null), JSON.stringify(e.after ?? null), JSON.stringify(e.changes)],
          );
        }
        // Its newest WATCH_EVENTS_KEPT only.
        if (events.length > 0) {
          await q(`DELETE FROM watch_events WHERE id IN (SELECT id FROM watch_events WHERE watch_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT 1000000000 OFFSET $2)`, [id, WATCH_EVENTS_KEPT]);
        }
      });
    },
    async watchEvents(watchId, after, limit) {
      const rows = after
        ? await db.query(`SELECT * FROM watch_events WHERE watch_id = $1 AND (occurred_at > $2 OR (occurred_at = $2 AND id > $3)) ORDER BY occurred_at, id LIMIT $4`, [
            watchId,
            after.occurredAt,
            after.id,
            limit,
          ])
        : await db.query(`SELECT * FROM watch_events WHERE watch_id = $1 ORDER BY occurred_at, id LIMIT $2`, [watchId, limit]);
      return rows.map(toEvent);
    },
  };
}
