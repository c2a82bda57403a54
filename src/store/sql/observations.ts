// Observations (issue 26): every answer the live path receives from an upstream, kept as series of
// distinct values (src/core/ports/store/observations.ts). Recording an answer costs a fixed number
// of statements whatever its size: the series' latest rows are read in one, the equal ones
// extended in one, the changed ones retired in one, and the new rows written in batches. The live
// path queues its answers (queueObservations): they are written after its response, a second's
// worth in one transaction, and this store's reads write what is queued first.
import type { HistoryPort } from '../../core/ports/history.js';
import type { HistoryView, NewObservation, ObservationStore } from '../../core/ports/store.js';
import type { Db } from './db.js';
import { historyReader, toObservation } from './history.js';
import { keptSummaries } from './kept-summaries.js';
import { LOCK } from './jobs.js';
import { columnsOf } from './observation-columns.js';

/**
 * Rows of one INSERT, largest first (17 parameters each: well under SQLite's 32,766 and
 * PostgreSQL's 65,535). A fixed few sizes rather than one statement per answer's count: SQLite
 * prepares each statement text once and keeps it, and preparing a new 400-row text for nearly
 * every answer (their counts vary) cost more than the inserts (bench/history.mjs).
 */
const INSERT_SIZES = [100, 10, 1];

/**
 * The series an observation belongs to: its listing, kind and key, and the account whose calls
 * observed it (an account's rows are series of their own; '' : recorded without an account).
 */
const seriesOf = (o: Pick<NewObservation, 'platform' | 'listingId' | 'kind' | 'key'>, account = '') => `${account === '' ? '' : `${account}|`}${o.platform}|${o.listingId}|${o.kind}|${o.key}`;

type Query = Parameters<Parameters<Db['tx']>[0]>[0];

/**
 * A listing's kept summaries (one per reader's scope) are stale once its calendar or prices change
 * (src/store/sql/history.ts, digests): each listing named adds one to its version, in statements
 * of up to 100 listings.
 */
export async function staleSummaries(q: Query, listings: Iterable<string>): Promise<void> {
  const all = [...listings];
  for (let i = 0; i < all.length; i += 100) {
    const params: string[] = [];
    const values = all.slice(i, i + 100).map((k) => {
      const at = k.indexOf('|');
      const n = params.push(k.slice(0, at), k.slice(at + 1));
      return `($${n - 1}, $${n})`;
    });
    await q(
      `INSERT INTO listing_versions (platform, listing_id) VALUES ${values.join(', ')}
       ON CONFLICT (platform, listing_id) DO UPDATE SET version = listing_versions.version + 1`,
      params,
    );
  }
}
type Written = { added: number; extended: number };

/** One answer's observations written inside a transaction that holds LOCK.observations. */
async function write(db: Db, q: Query, list: readonly NewObservation[], source: string, at: number, account: string): Promise<Written> {
  // One observation per series (the last, should an answer repeat one).
  const bySeries = new Map<string, { o: NewObservation; value: string }>();
  for (const o of list) bySeries.set(seriesOf(o, account), { o, value: JSON.stringify(o.value) });
  if (bySeries.size === 0) return { added: 0, extended: 0 };
  // What a listing's summary reads: its calendar, its quotes and dated searches.
  const summarized = new Set<string>();
  for (const { o } of bySeries.values()) if (o.kind === 'day' || o.kind === 'quote' || (o.kind === 'search' && o.key.includes('@'))) summarized.add(`${o.platform}|${o.listingId}`);
  await staleSummaries(q, summarized);
  const keys = JSON.stringify([...bySeries.keys()]);
  const latest = await q(`SELECT okey, currency, value FROM observations WHERE latest = 1 AND ${db.sql.inJsonList('okey', '$1')}`, [keys]);
  const same: string[] = [];
  const changed: string[] = [];
  for (const r of latest) {
    const o = bySeries.get(r.okey as string)!;
    if (o.value === r.value && (o.o.currency ?? null) === ((r.currency as string | null) ?? null)) {
      same.push(r.okey as string);
      bySeries.delete(r.okey as string);
    } else changed.push(r.okey as string);
  }
  if (same.length > 0)
    await q(`UPDATE observations SET last_seen = ${db.sql.greatest}(last_seen, $1), times_seen = times_seen + 1 WHERE latest = 1 AND ${db.sql.inJsonList('okey', '$2')}`, [at, JSON.stringify(same)]);
  if (changed.length > 0) await q(`UPDATE observations SET latest = 0 WHERE latest = 1 AND ${db.sql.inJsonList('okey', '$1')}`, [JSON.stringify(changed)]);
  const fresh = [...bySeries.entries()];
  for (let i = 0; i < fresh.length; ) {
    // The largest statement size that fits: a few statement texts in all, each prepared once.
    const size = INSERT_SIZES.find((n) => n <= fresh.length - i)!;
    const rows = fresh.slice(i, i + size);
    i += size;
    const params: unknown[] = [];
    const values = rows.map(([okey, { o, value }]) => {
      const c = columnsOf(o);
      const n = params.push(okey, account, o.platform, o.listingId, o.kind, o.key, o.currency, value, source, c.place, c.checkIn, c.checkOut, c.lat, c.lng, c.bedrooms, c.nightly, at);
      const p = Array.from({ length: 16 }, (_, i) => `$${n - 16 + i}`);
      return `(${p.join(', ')}, $${n}, $${n}, 1, 1)`;
    });
    await q(
      `INSERT INTO observations (okey, account_id, platform, listing_id, kind, key, currency, value, source, place, check_in, check_out, lat, lng, bedrooms, nightly, first_seen, last_seen, times_seen, latest) VALUES ${values.join(', ')}`,
      params,
    );
  }
  return { added: fresh.length, extended: same.length };
}

/**
 * How long queued answers wait to be written together: one transaction a second rather than one
 * per answer. Random series keys dirty a page of each index per row, and a commit writes every
 * dirty page; a second's answers share many of them. A live search's server time, recording on
 * against off (docs/benchmarks.md, "Issue 26: history"): 3.9x written in the answer's path, 2-3x
 * written per answer just after it (the next requests wait on those commits), 1.08x a second at a time.
 */
const FLUSH_MS = 1000;
/**
 * Written sooner when no answer follows for this long: an idle deployment's observations reach
 * its file (and other processes reading it, such as the CLI) within about this, while a busy one
 * still writes a second's worth at a time.
 */
const IDLE_MS = 50;
/** Past this many queued observations they are written at once (a bound on memory and on one write's length). */
const FLUSH_ROWS = 20_000;

export function observationStore(db: Db): ObservationStore & { history: HistoryPort; historyOf(view: HistoryView): HistoryPort } {
  let queued: { list: readonly NewObservation[]; source: string; at: number; account: string }[] = [];
  let rows = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // When the oldest answer still queued was queued (wall time: how long it has waited).
  let firstQueued = 0;
  // The kept summaries this store's reads parsed (every reader's scope).
  const parsed = keptSummaries();
  // Settles when every batch taken so far is written (or failed).
  let written: Promise<void> = Promise.resolve();
  const writeBatch = (batch: typeof queued) =>
    db.tx(async (q) => {
      await db.sql.lock(q, LOCK.observations);
      // In the order they were queued: a later answer of a series extends or follows an earlier one.
      for (const e of batch) await write(db, q, e.list, e.source, e.at, e.account);
    });
  /** Writes what is queued now; settles when it (and every batch before it) is written. */
  const flush = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (queued.length > 0) {
      const batch = queued;
      queued = [];
      rows = 0;
      // A failed write is a gap in the history, never a failed call.
      written = written.then(() => writeBatch(batch)).catch(() => undefined);
    }
    return written;
  };
  return {
    async recordObservations(list, source, at, account = '') {
      await flush();
      return db.tx(async (q) => {
        // One recorder at a time over a shared database: two never both start a series' new row.
        await db.sql.lock(q, LOCK.observations);
        return write(db, q, list, source, at, account);
      });
    },
    queueObservations(list, source, at, account = '') {
      if (list.length === 0) return;
      queued.push({ list, source, at, account });
      rows += list.length;
      if (rows >= FLUSH_ROWS) {
        void flush();
        return;
      }
      const now = Date.now();
      if (queued.length === 1) firstQueued = now;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(flush, Math.max(0, Math.min(IDLE_MS, firstQueued + FLUSH_MS - now)));
      // A process with nothing else to do may exit: its close writes what is queued.
      timer.unref();
    },
    observationsWritten: flush,
    async observationsSince(q) {
      await flush();
      const view = q.view ?? { account: null, pooled: true };
      // A collection's export: only the listings it ever discovered (a primary-key probe a row).
      const within = (n: number) =>
        q.collectionId === undefined
          ? ''
          : ` AND EXISTS (SELECT 1 FROM collection_listings cl WHERE cl.collection_id = $${n} AND cl.platform = observations.platform AND cl.listing_id = observations.listing_id)`;
      const extra = q.collectionId === undefined ? [] : [q.collectionId];
      // By id, the primary key: each page is an index range however large the store.
      if (view.account === null) {
        const rows = await db.query(`SELECT * FROM observations WHERE id > $1 AND last_seen >= $2${within(4)} ORDER BY id LIMIT $3`, [q.afterId, q.since, q.limit, ...extra]);
        return rows.map((r) => toObservation(r));
      }
      if (view.pooled) {
        // Every account's rows, but another account's searches and quotes (their keys are its queries) never.
        const rows = await db.query(`SELECT * FROM observations WHERE id > $1 AND last_seen >= $2 AND (account_id IN ('', $4) OR kind NOT IN ('search', 'quote'))${within(5)} ORDER BY id LIMIT $3`, [
          q.afterId,
          q.since,
          q.limit,
          view.account,
          ...extra,
        ]);
        return rows.map((r) => toObservation(r));
      }
      // The account's own rows and those recorded without an account: two index ranges (account, id), merged by id.
      const page = (account: string) =>
        db.query(`SELECT * FROM observations WHERE account_id = $4 AND id > $1 AND last_seen >= $2${within(5)} ORDER BY id LIMIT $3`, [q.afterId, q.since, q.limit, account, ...extra]);
      const [own, unowned] = await Promise.all([page(view.account), view.account === '' ? Promise.resolve([]) : page('')]);
      return [...own, ...unowned]
        .sort((a, b) => Number(a.id) - Number(b.id))
        .slice(0, q.limit)
        .map((r) => toObservation(r));
    },
    history: historyReader(db, flush, { account: null, pooled: true }, parsed),
    historyOf: (view) => historyReader(db, flush, view, parsed),
  };
}
