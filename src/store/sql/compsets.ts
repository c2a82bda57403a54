// Comp sets (issue 27, item 2): an account's saved sets of comparable listings. The listings a
// comp set holds are read through the history port (src/store/sql/history.ts, listingsWithin).
import type { CompSetRow, CompSetStore } from '../../core/ports/store.js';
import type { Row } from '../rows.js';
import type { Db } from './db.js';

const toCompSet = (r: Row): CompSetRow => ({
  id: r.id as string,
  accountId: r.account_id as string,
  env: r.env as CompSetRow['env'],
  name: r.name as string,
  anchorPlatform: r.anchor_platform as string,
  anchorListingId: r.anchor_listing_id as string,
  anchorLat: Number(r.anchor_lat),
  anchorLng: Number(r.anchor_lng),
  radiusMeters: Number(r.radius_m),
  bedrooms: r.bedrooms === null || r.bedrooms === undefined ? null : Number(r.bedrooms),
  platforms: r.platforms === null || r.platforms === undefined ? null : (JSON.parse(r.platforms as string) as string[]),
  createdAt: Number(r.created_at),
});

export function compSetStore(db: Db): CompSetStore {
  return {
    async createCompSet(c, maxCount) {
      return db.tx(async (q) => {
        // The account row's lock orders concurrent creations: the cap and the names hold.
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [c.accountId]);
        const live = `account_id = $1 AND env = $2 AND deleted_at IS NULL`;
        if ((await q(`SELECT 1 FROM compsets WHERE ${live} AND name = $3`, [c.accountId, c.env, c.name])).length > 0) return 'name_taken' as const;
        if (Number((await q(`SELECT COUNT(*) AS n FROM compsets WHERE ${live}`, [c.accountId, c.env]))[0]!.n) >= maxCount) return 'limit' as const;
        const r = (
          await q(
            `INSERT INTO compsets (id, account_id, env, name, anchor_platform, anchor_listing_id, anchor_lat, anchor_lng, radius_m, bedrooms, platforms, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
            [
              c.id,
              c.accountId,
              c.env,
              c.name,
              c.anchorPlatform,
              c.anchorListingId,
              c.anchorLat,
              c.anchorLng,
              c.radiusMeters,
              c.bedrooms,
              c.platforms === null ? null : JSON.stringify(c.platforms),
              c.createdAt,
            ],
          )
        )[0]!;
        return toCompSet(r);
      });
    },
    async listCompSets(accountId, env) {
      const rows = await db.query(`SELECT * FROM compsets WHERE account_id = $1 AND env = $2 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC`, [accountId, env]);
      return rows.map(toCompSet);
    },
    async getCompSet(id) {
      const r = (await db.query(`SELECT * FROM compsets WHERE id = $1 AND deleted_at IS NULL`, [id]))[0];
      return r ? toCompSet(r) : null;
    },
    async deleteCompSet(id, accountId, at) {
      const r = (await db.query(`UPDATE compsets SET deleted_at = $1 WHERE id = $2 AND account_id = $3 AND deleted_at IS NULL RETURNING *`, [at, id, accountId]))[0];
      return r ? toCompSet(r) : null;
    },
  };
}
