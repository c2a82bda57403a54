// Collections (issue 38, item 1): an account's standing orders to cover a market
// (src/core/ports/store/collections.ts). Created under the account row's lock, so the cap and the
// names hold against concurrent creations; deleted ones are kept (soft) for the ledger's sake and
// never listed.
import type { CollectionArea, CollectionRow, CollectionStore } from '../../core/ports/store.js';
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
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const LIVE = `account_id = $1 AND env = $2 AND status <> 'deleted'`;

export function collectionStore(db: Db): CollectionStore {
  return {
    async createCollection(c, maxCount) {
      return db.tx(async (q) => {
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [c.accountId]);
        if ((await q(`SELECT 1 FROM collections WHERE ${LIVE} AND name = $3`, [c.accountId, c.env, c.name])).length > 0) return 'name_taken' as const;
        if (Number((await q(`SELECT COUNT(*) AS n FROM collections WHERE ${LIVE}`, [c.accountId, c.env]))[0]!.n) >= maxCount) return 'limit' as const;
        const r = (
          await q(
            `INSERT INTO collections (id, account_id, env, name, area, platforms, horizon_nights, cadence, rates, max_credits_per_day, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING *`,
            [c.id, c.accountId, c.env, c.name, JSON.stringify(c.area), JSON.stringify(c.platforms), c.horizonNights, c.cadence, c.rates, c.maxCreditsPerDay, c.status, c.createdAt],
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
    async deleteCollection(id, accountId, at) {
      const r = (await db.query(`UPDATE collections SET status = 'deleted', updated_at = $1 WHERE id = $2 AND account_id = $3 AND status <> 'deleted' RETURNING *`, [at, id, accountId]))[0];
      return r ? toCollection(r) : null;
    },
  };
}
