// Match decisions (issue 27, item 4): an account's pins and rejections of cross-platform matches,
// one row per pair (its two listings in order), replaced by a later decision.
import type { MatchDecisionRow, MatchDecisionStore, MatchListing } from '../../core/ports/store.js';
import type { Row } from '../rows.js';
import type { Db } from './db.js';

const keyOf = (l: MatchListing) => `${l.platform}\u0000${l.listingId}`;
/** The pair in its stored order. */
const ordered = (a: MatchListing, b: MatchListing): [MatchListing, MatchListing] => (keyOf(a) <= keyOf(b) ? [a, b] : [b, a]);

const toRow = (r: Row): MatchDecisionRow => ({
  a: { platform: r.a_platform as string, listingId: r.a_id as string },
  b: { platform: r.b_platform as string, listingId: r.b_id as string },
  decision: r.decision as MatchDecisionRow['decision'],
  decidedAt: Number(r.decided_at),
});

export function matchDecisionStore(db: Db): MatchDecisionStore {
  return {
    async setMatchDecision(accountId, env, x, y, decision, at, maxCount) {
      const [a, b] = ordered(x, y);
      return db.tx(async (q) => {
        // The account row's lock orders concurrent decisions: the cap holds.
        await q(`SELECT 1 FROM accounts WHERE id = $1${db.sql.forUpdate}`, [accountId]);
        const pair = [accountId, env, a.platform, a.listingId, b.platform, b.listingId];
        const known = await q('SELECT 1 FROM match_decisions WHERE account_id = $1 AND env = $2 AND a_platform = $3 AND a_id = $4 AND b_platform = $5 AND b_id = $6', pair);
        if (known.length === 0 && Number((await q('SELECT COUNT(*) AS n FROM match_decisions WHERE account_id = $1 AND env = $2', [accountId, env]))[0]!.n) >= maxCount) return 'limit' as const;
        const rows = await q(
          `INSERT INTO match_decisions (account_id, env, a_platform, a_id, b_platform, b_id, decision, decided_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (account_id, env, a_platform, a_id, b_platform, b_id) DO UPDATE SET decision = excluded.decision, decided_at = excluded.decided_at RETURNING *`,
          [...pair, decision, at],
        );
        return toRow(rows[0]!);
      });
    },
    async clearMatchDecision(accountId, env, x, y) {
      const [a, b] = ordered(x, y);
      const rows = await db.query('DELETE FROM match_decisions WHERE account_id = $1 AND env = $2 AND a_platform = $3 AND a_id = $4 AND b_platform = $5 AND b_id = $6 RETURNING 1', [
        accountId,
        env,
        a.platform,
        a.listingId,
        b.platform,
        b.listingId,
      ]);
      return rows.length > 0;
    },
    async matchDecisionsOf(accountId, env, l) {
      const rows = await db.query(
        `SELECT * FROM match_decisions WHERE account_id = $1 AND env = $2 AND ((a_platform = $3 AND a_id = $4) OR (b_platform = $3 AND b_id = $4))
         ORDER BY decided_at, a_platform, a_id, b_platform, b_id`,
        [accountId, env, l.platform, l.listingId],
      );
      return rows.map(toRow);
    },
  };
}
