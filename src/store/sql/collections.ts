// Collections (issue 38, item 1): an account's standing orders to cover a market
// (src/core/ports/store/collections.ts). Created under the account row's lock, so the cap and the
// names hold against concurrent creations; deleted ones are kept (soft) for the ledger's sake and
// never listed.
import type { CollectionArea, CollectionItemRow, CollectionListing, CollectionRow, CollectionStore, CollectionWorkStore } from '../../core/ports/store.js';
import type { Row } from '../rows.js';
import type { Db } from './db.js';

const toCollection = (r: Row): CollectionRow => ({
  id: r.id as string,
  accountId: r.account_id as string,
  env: r.env as CollectionRow['env'],
  name: r.name as string,
  area: JSON.parse(r.area as string) as CollectionArea,
  platforms: JSON.parse(r.platforms as string) as string[],
  horizonNights: Number(r.horizon_nights),
  cadence: r.cadence as CollectionRow['cadence'],
  rates: r.rates as CollectionRow['rates'],
  maxCreditsPerDay: Number(r.max_credits_per_day),
  status: r.status as CollectionRow['status'],
  keyId: (r.key_id as string | null) ?? null,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const LIVE = `account_id = $1 AND env = $2 AND status <> 'deleted'`;

const toItem = (r: Row): CollectionItemRow => ({
  collectionId: r.collection_id as string,
  pass: Number(r.pass),
  item: r.item as string,
  dueAt: Number(r.due_at),
  claimedBy: (r.claimed_by as string | null) ?? null,
  leaseUntil: r.lease_until === null || r.lease_until === undefined ? null : Number(r.lease_until),
  attempts: Number(r.attempts),
  doneAt: r.done_at === null || r.done_at === undefined ? null : Number(r.done_at),
  outcome: (r.outcome as string | null) ?? null,
  charged: Number(r.charged),
});

/** Rows of one INSERT of a pass's items (5 parameters each). */
const PLAN_BATCH = 500;

export function collectionStore(db: Db): CollectionStore & CollectionWorkStore {
  return {
    async createCollection(c, maxCount) {
      return db.tx(async (q) => {
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [c.accountId]);
        if ((await q(`SELECT 1 FROM collections WHERE ${LIVE} AND name = $3`, [c.accountId, c.env, c.name])).length > 0) return 'name_taken' as const;
        if (Number((await q(`SELECT COUNT(*) AS n FROM collections WHERE ${LIVE}`, [c.accountId, c.env]))[0]!.n) >= maxCount) return 'limit' as const;
        const r = (
          await q(
            `INSERT INTO collections (id, account_id, env, name, area, platforms, horizon_nights, cadence, rates, max_credits_per_day, status, key_id, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING *`,
            [c.id, c.accountId, c.env, c.name, JSON.stringify(c.area), JSON.stringify(c.platforms), c.horizonNights, c.cadence, c.rates, c.maxCreditsPerDay, c.status, c.keyId, c.createdAt],
          )
        )[0]!;
        return toCollection(r);
      });
    },
    async listCollections(accountId, env) {
      return (await db.query(`SELECT * FROM collections WHERE ${LIVE} ORDER BY created_at DESC, id DESC`, [accountId, env])).map(toCollection);
    },
    async getCollection(id) {
      const r = (await db.query(`SELECT * FROM collections WHERE id = $1 AND status <> 'deleted'`, [id]))[0];
      return r ? toCollection(r) : null;
    },
    async updateCollection(id, accountId, patch, at) {
      return db.tx(async (q) => {
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [accountId]);
        const was = (await q(`SELECT * FROM collections WHERE id = $1 AND account_id = $2 AND status <> 'deleted'`, [id, accountId]))[0];
        if (!was) return null;
        const c = toCollection(was);
        if (patch.name !== undefined && patch.name !== c.name) {
          if ((await q(`SELECT 1 FROM collections WHERE ${LIVE} AND name = $3 AND id <> $4`, [accountId, c.env, patch.name, id])).length > 0) return 'name_taken' as const;
        }
        const next = { ...c, ...patch };
        const r = (
          await q(
            `UPDATE collections SET name = $1, platforms = $2, horizon_nights = $3, cadence = $4, rates = $5, max_credits_per_day = $6, status = $7, updated_at = $8
             WHERE id = $9 RETURNING *`,
            [next.name, JSON.stringify(next.platforms), next.horizonNights, next.cadence, next.rates, next.maxCreditsPerDay, next.status, at, id],
          )
        )[0]!;
        return toCollection(r);
      });
    },
    async planCollectionItems(collectionId, pass, items) {
      let added = 0;
      for (let i = 0; i < items.length; i += PLAN_BATCH) {
        const params: unknown[] = [];
        const values = items.slice(i, i + PLAN_BATCH).map((x) => {
          const n = params.push(collectionId, pass, x.item, x.dueAt);
          return `($${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
        });
        const r = await db.query(
          `INSERT INTO collection_items (collection_id, pass, item, due_at) VALUES ${values.join(', ')} ON CONFLICT (collection_id, pass, item) DO NOTHING RETURNING item`,
          params,
        );
        added += r.length;
      }
      return added;
    },
    async claimCollectionItems(owner, now, leaseUntil, limit, only = {}) {
      return db.tx(async (q) => {
        // The due items no live lease holds, earliest first; rows another claimer has locked are
        // skipped (PostgreSQL), so two instances claiming at once take different items.
        const of = only.collectionIds === undefined ? '' : ` AND ${db.sql.inJsonList('o.collection_id', '$4')}`;
        const due = await q(
          `SELECT o.collection_id, o.pass, o.item FROM collection_items o
           WHERE o.done_at IS NULL AND o.due_at <= $3 AND (o.lease_until IS NULL OR o.lease_until < $1)${of}
           ORDER BY o.due_at, o.collection_id, o.pass, o.item LIMIT $2${db.sql.skipLocked}`,
          [now, limit, only.dueBy ?? now, ...(only.collectionIds === undefined ? [] : [JSON.stringify(only.collectionIds)])],
        );
        const out: CollectionItemRow[] = [];
        for (const d of due) {
          const r = await q(
            `UPDATE collection_items SET claimed_by = $1, lease_until = $2, attempts = attempts + 1
             WHERE collection_id = $3 AND pass = $4 AND item = $5 RETURNING *`,
            [owner, leaseUntil, d.collection_id, d.pass, d.item],
          );
          out.push(toItem(r[0]!));
        }
        return out;
      });
    },
    async renewCollectionItems(owner, items, leaseUntil) {
      const held = [];
      for (const k of items) {
        const r = await db.query(
          `UPDATE collection_items SET lease_until = $1 WHERE collection_id = $2 AND pass = $3 AND item = $4 AND claimed_by = $5 AND attempts = $6 AND done_at IS NULL RETURNING item`,
          [leaseUntil, k.collectionId, k.pass, k.item, owner, k.attempts],
        );
        if (r.length > 0) held.push({ collectionId: k.collectionId, pass: k.pass, item: k.item });
      }
      return held;
    },
    async finishCollectionItem(k, owner, done) {
      const r = await db.query(
        `UPDATE collection_items SET done_at = $1, outcome = $2, charged = $3, claimed_by = NULL, lease_until = NULL
         WHERE collection_id = $4 AND pass = $5 AND item = $6 AND claimed_by = $7 AND attempts = $8 AND done_at IS NULL RETURNING item`,
        [done.at, done.outcome, done.charged, k.collectionId, k.pass, k.item, owner, k.attempts],
      );
      return r.length > 0;
    },
    async releaseCollectionItem(k, owner, dueAt) {
      const r = await db.query(
        `UPDATE collection_items SET claimed_by = NULL, lease_until = NULL, due_at = $1
         WHERE collection_id = $2 AND pass = $3 AND item = $4 AND claimed_by = $5 AND attempts = $6 AND done_at IS NULL RETURNING item`,
        [dueAt, k.collectionId, k.pass, k.item, owner, k.attempts],
      );
      return r.length > 0;
    },
    async collectionPasses(collectionId) {
      const rows = await db.query(
        `SELECT pass, COUNT(*) AS items, COUNT(done_at) AS done, SUM(charged) AS charged, MAX(done_at) AS ended
         FROM collection_items WHERE collection_id = $1 GROUP BY pass ORDER BY pass DESC`,
        [collectionId],
      );
      return rows.map((r) => {
        const items = Number(r.items);
        const done = Number(r.done);
        return { pass: Number(r.pass), items, done, charged: Number(r.charged ?? 0), endedAt: done === items && r.ended !== null ? Number(r.ended) : null };
      });
    },
    async keepCollectionPage(collectionId, pass, requestId, page, charged, at) {
      await db.query(`INSERT INTO collection_pages (collection_id, pass, request_id, page, charged, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, [
        collectionId,
        pass,
        requestId,
        page,
        charged,
        at,
      ]);
    },
    async collectionPages(collectionId, requestIds) {
      if (requestIds.length === 0) return [];
      const rows = await db.query(`SELECT request_id, page, charged FROM collection_pages WHERE collection_id = $1 AND ${db.sql.inJsonList('request_id', '$2')}`, [
        collectionId,
        JSON.stringify(requestIds),
      ]);
      return rows.map((r) => ({ requestId: String(r.request_id), page: String(r.page), charged: Number(r.charged) }));
    },
    async dropCollectionPages(collectionId, pass) {
      await db.query(`DELETE FROM collection_pages WHERE collection_id = $1 AND pass = $2`, [collectionId, pass]);
    },
    async lastDiscovery(collectionId) {
      const r = (
        await db.query(`SELECT pass, charged FROM collection_items WHERE collection_id = $1 AND item = 'discover' AND done_at IS NOT NULL AND outcome = 'done' ORDER BY pass DESC LIMIT 1`, [
          collectionId,
        ])
      )[0];
      return r ? { pass: Number(r.pass), charged: Number(r.charged) } : null;
    },
    async deleteCollection(id, accountId, at) {
      const r = (await db.query(`UPDATE collections SET status = 'deleted', updated_at = $1 WHERE id = $2 AND account_id = $3 AND status <> 'deleted' RETURNING *`, [at, id, accountId]))[0];
      return r ? toCollection(r) : null;
    },
    async activeCollections() {
      return (await db.query(`SELECT * FROM collections WHERE status = 'active' ORDER BY created_at, id`, [])).map(toCollection);
    },
    async reserveCollectionBudget(collectionId, day, amount, max) {
      // One statement: the day's reservations so far (none if the row's day is an earlier one) plus this one, if within max.
      const used = `(CASE WHEN budget_day = $2 THEN budget_used ELSE 0 END)`;
      const r = await db.query(`UPDATE collections SET budget_used = ${used} + $3, budget_day = $2 WHERE id = $1 AND ${used} + $3 <= $4 RETURNING id`, [collectionId, day, amount, max]);
      return r.length > 0;
    },
    async returnCollectionBudget(collectionId, day, amount) {
      if (amount <= 0) return;
      await db.query(`UPDATE collections SET budget_used = CASE WHEN budget_used > $3 THEN budget_used - $3 ELSE 0 END WHERE id = $1 AND budget_day = $2`, [collectionId, day, amount]);
    },
    async collectionBudgetUsed(collectionId, day) {
      const r = (await db.query(`SELECT budget_used FROM collections WHERE id = $1 AND budget_day = $2`, [collectionId, day]))[0];
      return r ? Number(r.budget_used) : 0;
    },
    async recordCollectionListings(collectionId, pass, listings) {
      for (let i = 0; i < listings.length; i += PLAN_BATCH) {
        const params: unknown[] = [collectionId, pass];
        const values = listings.slice(i, i + PLAN_BATCH).map((l) => {
          const n = params.push(l.platform, l.listingId, l.bedrooms);
          return `($1, $${n - 2}, $${n - 1}, $${n}, $2, $2)`;
        });
        await db.query(
          `INSERT INTO collection_listings (collection_id, platform, listing_id, bedrooms, first_pass, last_pass) VALUES ${values.join(', ')}
           ON CONFLICT (collection_id, platform, listing_id) DO UPDATE SET last_pass = CASE WHEN excluded.last_pass > collection_listings.last_pass THEN excluded.last_pass ELSE collection_listings.last_pass END,
             bedrooms = COALESCE(excluded.bedrooms, collection_listings.bedrooms)`,
          params,
        );
      }
    },
    async collectionListings(collectionId) {
      const rows = await db.query(`SELECT platform, listing_id, bedrooms, first_pass, last_pass FROM collection_listings WHERE collection_id = $1 ORDER BY platform, listing_id`, [collectionId]);
      return rows.map(
        (r): CollectionListing => ({
          platform: r.platform as string,
          listingId: r.listing_id as string,
          bedrooms: r.bedrooms === null || r.bedrooms === undefined ? null : Number(r.bedrooms),
          firstPass: Number(r.first_pass),
          lastPass: Number(r.last_pass),
        }),
      );
    },
    async chargedForRequests(accountId, requestIds) {
      if (requestIds.length === 0) return [];
      const rows = await db.query(
        `SELECT request_id, COALESCE(-SUM(amount), 0) AS charged FROM credit_ledger WHERE account_id = $1 AND kind = 'charge' AND ${db.sql.inJsonList('request_id', '$2')} GROUP BY request_id`,
        [accountId, JSON.stringify(requestIds)],
      );
      return rows.map((r) => ({ requestId: r.request_id as string, charged: Number(r.charged) }));
    },
  };
}
