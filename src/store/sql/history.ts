// The history port over the store (issue 34, src/core/ports/history.ts): every read an index
// range of one listing, one place or one box (the indexes and their query plans:
// docs/architecture.md, "The history port"). Reads of many listings go a batch of listings at a
// time and yield the event loop between batches: on SQLite a statement runs on the event loop, so
// a city's read in one statement would hold every other request behind it. Values are parsed once
// per distinct text within a read (a calendar has a handful of distinct nights), and typed by kind
// here, the one place that casts them.
import { type HistoryPort, type ListingDigest, type ListingFacts, type ListingRef, type ListingSummary, type PriceRow, SUMMARY_FORM, type WindowPrice } from '../../core/ports/history.js';
import type { HistoryView, ObservationKind, ObservationRow, PlacedListing } from '../../core/ports/store.js';
import type { ListingValue, ObservationValues, SearchValue } from '../../core/schemas/observations.js';
import type { Row } from '../rows.js';
import type { Db } from './db.js';
import type { KeptPrice, KeptSummaries } from './kept-summaries.js';
import { mergeAccounts } from './merge-runs.js';

/** Listings a statement of a many-listing read of rows covers: its rows stay a few thousand, its time a few milliseconds. */
const BATCH = 10;
/** Milliseconds of work between two yields of the event loop when summaries are made. */
const STEP_MS = 4;
/**
 * Listings a statement of a digest read covers (a few index entries and one kept summary each):
 * on SQLite a statement runs on the event loop, so a few milliseconds' worth; PostgreSQL's run on
 * the server, and each statement is a round trip, so more.
 */
const DIGEST_BATCH = { sqlite: 100, postgres: 1000 } as const;

const COLUMNS = 'id, account_id, platform, listing_id, kind, key, currency, value, source, first_seen, last_seen, times_seen';

/** Which rows a reader sees (HistoryView): a condition on `account_id` with parameter `$i`, and that parameter (none when it sees every row). */
interface Rows {
  where(i: number): string;
  params: string[];
}
const EVERY_ROW: Rows = { where: () => '1 = 1', params: [] };

/** JSON.parse, once per distinct text of one read. */
function parser(): (text: string) => unknown {
  const seen = new Map<string, unknown>();
  return (text) => {
    let v = seen.get(text);
    if (v === undefined) {
      v = JSON.parse(text) as unknown;
      if (seen.size < 10_000) seen.set(text, v);
    }
    return v;
  };
}

/** A stored row, its value typed by its kind (the store wrote it from that kind's schema). */
export function toObservation<K extends ObservationKind = ObservationKind>(r: Row, parse: (text: string) => unknown = JSON.parse): ObservationRow<K> {
  return {
    id: Number(r.id),
    platform: r.platform as string,
    listingId: r.listing_id as string,
    kind: r.kind as K,
    key: r.key as string,
    currency: (r.currency as string | null) ?? null,
    value: parse(r.value as string) as ObservationValues[K],
    source: r.source as string,
    firstSeen: Number(r.first_seen),
    lastSeen: Number(r.last_seen),
    timesSeen: Number(r.times_seen),
  } as ObservationRow<K>;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Listings grouped by platform, in batches of at most `size`. */
function batches(listings: readonly ListingRef[], size = BATCH): { platform: string; ids: string[] }[] {
  const by = new Map<string, Set<string>>();
  for (const l of listings) {
    const ids = by.get(l.platform) ?? new Set<string>();
    ids.add(l.listingId);
    by.set(l.platform, ids);
  }
  const out: { platform: string; ids: string[] }[] = [];
  for (const [platform, set] of by) {
    const ids = [...set];
    for (let i = 0; i < ids.length; i += size) out.push({ platform, ids: ids.slice(i, i + size) });
  }
  return out;
}

const keptPrice = (r: Row): KeptPrice => [r.check_in as string, (r.currency as string | null) ?? null, r.nightly === null ? null : Number(r.nightly), Number(r.first_seen), Number(r.last_seen)];

const nameOf = (text: unknown) => (typeof text === 'string' ? ((JSON.parse(text) as Partial<SearchValue>).name ?? null) : null);

export function historyReader(db: Db, flush: () => Promise<void>, view: HistoryView, parsed: KeptSummaries): HistoryPort {
  const inIds = db.sql.inJsonList('listing_id', '$2');
  const anyIds = db.sql.anyOfList('listing_id', '$2');
  const digestBatch = DIGEST_BATCH[db.kind];
  const account = view.account;
  // Rows whose key is a query (a search's location and stay, a quote's stay and party): the
  // reader's own account's, and those recorded without an account.
  const queries: Rows = account === null ? EVERY_ROW : { where: (i) => `account_id IN ('', $${i})`, params: [account] };
  // Rows of what a listing is (its calendar, facts, rating, where it is, its prices): every
  // account's when the history is pooled.
  const facts: Rows = view.pooled ? EVERY_ROW : queries;
  // The summaries this reader keeps: one per account, or the pool's.
  const scope = view.pooled || account === null ? '*' : account;

  /** The bedrooms of a batch of one platform's listings: the listing read's, else the latest search row's that stated them. */
  async function bedroomsOf(platform: string, ids: readonly string[]): Promise<Map<string, number | null>> {
    const found = new Map<string, number | null>();
    // A listing read a listing and account (its latest), the latest of them wins: from the covering index, sorted here.
    const reads = await db.query(`SELECT listing_id, bedrooms, last_seen, id FROM observations WHERE platform = $1 AND ${inIds} AND kind = 'listing' AND latest = 1 AND ${facts.where(3)}`, [
      platform,
      JSON.stringify(ids),
      ...facts.params,
    ]);
    reads.sort((a, b) => Number(a.last_seen) - Number(b.last_seen) || Number(a.id) - Number(b.id));
    for (const r of reads) found.set(r.listing_id as string, r.bedrooms === null ? null : Number(r.bedrooms));
    // Listings whose own read did not state them: the latest search row that did.
    const rest = ids.filter((id) => (found.get(id) ?? null) === null);
    if (rest.length > 0) {
      const searched = new Map<string, { bedrooms: number; seen: number; id: number }>();
      for (const r of await db.query(
        `SELECT listing_id, bedrooms, last_seen, id FROM observations WHERE platform = $1 AND ${inIds} AND kind = 'search' AND latest = 1 AND bedrooms IS NOT NULL AND ${facts.where(3)}`,
        [platform, JSON.stringify(rest), ...facts.params],
      )) {
        const id = r.listing_id as string;
        const had = searched.get(id);
        const seen = Number(r.last_seen);
        if (!had || seen > had.seen || (seen === had.seen && Number(r.id) > had.id)) searched.set(id, { bedrooms: Number(r.bedrooms), seen, id: Number(r.id) });
      }
      for (const [id, s] of searched) found.set(id, s.bedrooms);
    }
    return new Map(ids.map((id) => [id, found.get(id) ?? null]));
  }

  return {
    async quoteSeries(s) {
      await flush();
      // The series of the stay recorded without an account and, for an account, its own (a
      // stay's quotes are its query); every account's for the operator. Index ranges of okey.
      const series = account === null ? 'platform = $7 AND listing_id = $8 AND kind = $9 AND key = $1' : `okey IN ($1, $7)`;
      const own = `${s.platform}|${s.listingId}|quote|${s.key}`;
      const rows = await db.query(`SELECT ${COLUMNS} FROM observations WHERE ${series} AND last_seen >= $2 AND first_seen <= $3 AND (first_seen, id) > ($4, $5) ORDER BY first_seen, id LIMIT $6`, [
        account === null ? s.key : own,
        s.from,
        s.to,
        s.after?.firstSeen ?? -1,
        s.after?.id ?? -1,
        s.limit ?? 1_000_000_000,
        ...(account === null ? [s.platform, s.listingId, 'quote'] : [account === '' ? own : `${account}|${own}`]),
      ]);
      return rows.map((r) => toObservation<'quote'>(r));
    },
    async calendar(l, nights) {
      await flush();
      const parse = parser();
      const rows = await db.query(
        `SELECT ${COLUMNS} FROM observations WHERE platform = $1 AND listing_id = $2 AND kind = 'day' AND key >= $3 AND key <= $4 AND ${facts.where(5)} ORDER BY key, first_seen, id`,
        [l.platform, l.listingId, nights.from, nights.to, ...facts.params],
      );
      return mergeAccounts(rows).map((r) => toObservation<'day'>(r, parse));
    },
    async observedFor(l) {
      await flush();
      const parse = parser();
      const days = mergeAccounts(
        await db.query(`SELECT ${COLUMNS} FROM observations WHERE platform = $1 AND listing_id = $2 AND kind = 'day' AND ${facts.where(3)} ORDER BY key, first_seen, id`, [
          l.platform,
          l.listingId,
          ...facts.params,
        ]),
      ).map((r) => toObservation<'day'>(r, parse));
      const prices = (
        await db.query(
          `SELECT ${COLUMNS} FROM observations WHERE platform = $1 AND listing_id = $2 AND check_in IS NOT NULL AND kind IN ('quote', 'search') AND ${facts.where(3)} ORDER BY kind, key, first_seen, id`,
          [l.platform, l.listingId, ...facts.params],
        )
      ).map((r) => toObservation(r, parse) as PriceRow);
      const ratings = (
        await db.query(`SELECT ${COLUMNS} FROM observations WHERE platform = $1 AND listing_id = $2 AND kind = 'rating' AND key = '' AND ${facts.where(3)} ORDER BY first_seen, id`, [
          l.platform,
          l.listingId,
          ...facts.params,
        ])
      ).map((r) => toObservation<'rating'>(r, parse));
      return { days, prices, span: days.length === 0 ? null : { from: days[0]!.key, to: days.at(-1)!.key }, ratings };
    },
    async digests(listings, nights, summarize, each) {
      await flush();
      const parse = parser();
      for (const b of batches(listings, digestBatch)) {
        const ids = JSON.stringify(b.ids);
        // The two reads of a batch at once: PostgreSQL serves them on two connections (SQLite in turn).
        // Each listing's version (none yet: 0): a summary this process parsed from a row made from
        // that version is the row's still (kept summaries are never removed, and a row made again
        // from the same version is the same summary: src/store/sql/kept-summaries.ts); the rest are
        // read from this scope's kept summaries.
        const [versions, bedrooms] = await Promise.all([
          db.query(`SELECT listing_id, version FROM listing_versions WHERE platform = $1 AND ${inIds}`, [b.platform, ids]),
          bedroomsOf(b.platform, b.ids),
        ]);
        const versionOf = new Map(versions.map((r) => [r.listing_id as string, Number(r.version)]));
        const kept = new Map<string, { version: number; summary: ListingSummary; prices: KeptPrice[] }>();
        const unread: string[] = [];
        for (const id of b.ids) {
          const version = versionOf.get(id) ?? 0;
          const had = parsed.get(`${scope}|${b.platform}|${id}`);
          if (had?.computedVersion === version) kept.set(id, { version, summary: had.summary, prices: had.prices });
          else unread.push(id);
        }
        if (unread.length > 0) {
          for (const r of await db.query(`SELECT listing_id, computed_version, summary, states, seen, prices FROM listing_summaries WHERE platform = $1 AND ${anyIds} AND scope = $3`, [
            b.platform,
            db.sql.list(unread),
            scope,
          ])) {
            // The long per-night strings are columns of their own: read as they are, never parsed.
            const summary = r.summary === null ? null : (JSON.parse(r.summary as string) as ListingSummary);
            if (summary !== null) {
              summary.states = r.states as string;
              summary.seen = r.seen as string;
            }
            // A summary made from an earlier version, of another form (kept by an earlier build:
            // SUMMARY_FORM) or kept before its prices were is made again.
            const id = r.listing_id as string;
            const version = versionOf.get(id) ?? 0;
            if (summary === null || Number(r.computed_version) !== version || summary.form !== SUMMARY_FORM || r.prices === null) continue;
            const prices = JSON.parse(r.prices as string) as KeptPrice[];
            kept.set(id, { version, summary, prices });
            const bytes = 2 * ((r.summary as string).length + (r.prices as string).length) + summary.states.length + summary.seen.length;
            parsed.set(`${scope}|${b.platform}|${id}`, { computedVersion: version, summary, prices, bytes });
          }
        }
        // Summaries to make: never made, or made before the listing's observations last changed;
        // from all of its calendar and price rows, a few listings between two yields.
        const stale = b.ids.filter((id) => !kept.has(id));
        for (let i = 0; i < stale.length; i += BATCH) {
          const part = stale.slice(i, i + BATCH);
          const some = JSON.stringify(part);
          const rows = {
            days: mergeAccounts(
              await db.query(`SELECT ${COLUMNS} FROM observations WHERE platform = $1 AND ${inIds} AND kind = 'day' AND ${facts.where(3)} ORDER BY listing_id, key, first_seen, id`, [
                b.platform,
                some,
                ...facts.params,
              ]),
            ),
            prices: await db.query(
              `SELECT ${COLUMNS}, check_in, nightly FROM observations WHERE platform = $1 AND ${inIds} AND check_in IS NOT NULL AND kind IN ('quote', 'search') AND ${facts.where(3)}`,
              [b.platform, some, ...facts.params],
            ),
          };
          const params: unknown[] = [];
          const values: string[] = [];
          let since = performance.now();
          for (const id of part) {
            // A listing's inference takes a millisecond or two: yield between them once a step's time is spent.
            if (performance.now() - since > STEP_MS) {
              await yieldLoop();
              since = performance.now();
            }
            const days = rows.days.filter((r) => r.listing_id === id).map((r) => toObservation<'day'>(r, parse));
            const priceRows = rows.prices.filter((r) => r.listing_id === id);
            const summary = summarize(
              days,
              priceRows.map((r) => toObservation(r, parse) as PriceRow),
            );
            const prices = priceRows.map(keptPrice).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
            // The version read before its rows: should a write change them meanwhile, the version
            // moves past it and the next read makes the summary again.
            const version = versionOf.get(id) ?? 0;
            kept.set(id, { version, summary, prices });
            const { states, seen, ...rest } = summary;
            const n = params.push(scope, b.platform, id, version, JSON.stringify(rest), states, seen, JSON.stringify(prices));
            values.push(`(${Array.from({ length: 8 }, (_, i) => `$${n - 7 + i}`).join(', ')})`);
          }
          // Never over a summary made from a later version (two reads making it at once).
          await db.query(
            `INSERT INTO listing_summaries (scope, platform, listing_id, computed_version, summary, states, seen, prices) VALUES ${values.join(', ')}
             ON CONFLICT (platform, listing_id, scope) DO UPDATE SET computed_version = excluded.computed_version, summary = excluded.summary, states = excluded.states, seen = excluded.seen, prices = excluded.prices
             WHERE listing_summaries.computed_version <= excluded.computed_version`,
            params,
          );
          await yieldLoop();
        }
        each(
          b.ids.map((id): ListingDigest => {
            const k = kept.get(id);
            // The prices of stays checking in within the nights asked (both ends included).
            const prices: WindowPrice[] = [];
            for (const p of k?.prices ?? []) {
              if (p[0] < nights.from || p[0] > nights.to) continue;
              prices.push({ checkIn: p[0], currency: p[1], nightly: p[2], firstSeen: p[3], lastSeen: p[4] });
            }
            return { platform: b.platform, listingId: id, bedrooms: bedrooms.get(id) ?? null, summary: k?.summary ?? null, prices };
          }),
        );
        await yieldLoop();
      }
    },
    async listingsOfPlace(q) {
      await flush();
      const rows = await db.query(
        `SELECT DISTINCT platform, listing_id FROM observations WHERE kind = 'search' AND place = $1 AND ${queries.where(3)} AND ${db.sql.inJsonList('platform', '$2')} ORDER BY platform, listing_id`,
        [q.place, JSON.stringify(q.platforms), ...queries.params],
      );
      return rows.map((r) => ({ platform: r.platform as string, listingId: r.listing_id as string }));
    },
    async listingsShownIn(q) {
      await flush();
      const n = 2 + queries.params.length;
      const where = `kind = 'search' AND place = $1 AND ${queries.where(3)} AND ${db.sql.inJsonList('platform', '$2')}`;
      const platforms = JSON.stringify(q.platforms);
      const rows = await db.query(
        `SELECT platform, listing_id, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen, CAST(SUM(times_seen) AS BIGINT) AS times_seen,
                MAX(CASE WHEN latest = 1 THEN value END) AS value
         FROM observations WHERE ${where} GROUP BY platform, listing_id
         HAVING MAX(last_seen) >= $${n + 1} AND MIN(first_seen) <= $${n + 2} ORDER BY first_seen, platform, listing_id`,
        [q.place, platforms, ...queries.params, q.from, q.to],
      );
      const last = await db.query(`SELECT platform, MAX(last_seen) AS t FROM observations WHERE ${where} GROUP BY platform`, [q.place, platforms, ...queries.params]);
      return {
        listings: rows.map((r) => ({
          platform: r.platform as string,
          listingId: r.listing_id as string,
          name: nameOf(r.value),
          firstSeen: Number(r.first_seen),
          lastSeen: Number(r.last_seen),
          timesSeen: Number(r.times_seen),
        })),
        lastSearched: Object.fromEntries(last.map((r) => [r.platform as string, Number(r.t)])),
      };
    },
    async listingsWithin(q) {
      await flush();
      const platforms = JSON.stringify(q.platforms);
      // The listings with a latest coordinate in the box (an index range on latitude), then every
      // latest coordinate of those: a listing's own facts win over a search row's wherever they put it.
      const near = await db.query(
        `SELECT DISTINCT platform, listing_id FROM observations
         WHERE latest = 1 AND lat IS NOT NULL AND lat >= $1 AND lat <= $2 AND lng >= $3 AND lng <= $4 AND kind IN ('listing', 'search') AND ${db.sql.inJsonList('platform', '$5')} AND ${facts.where(6)}`,
        [q.minLat, q.maxLat, q.minLng, q.maxLng, platforms, ...facts.params],
      );
      const best = new Map<string, { rank: number; seen: number; place: PlacedListing }>();
      for (const b of batches(
        near.map((r) => ({ platform: r.platform as string, listingId: r.listing_id as string })),
        digestBatch,
      )) {
        const rows = await db.query(
          `SELECT platform, listing_id, kind, lat, lng, bedrooms, last_seen FROM observations
           WHERE platform = $1 AND ${inIds} AND latest = 1 AND lat IS NOT NULL AND kind IN ('listing', 'search') AND ${facts.where(3)}`,
          [b.platform, JSON.stringify(b.ids), ...facts.params],
        );
        for (const r of rows) {
          const k = `${r.platform as string}|${r.listing_id as string}`;
          const rank = r.kind === 'listing' ? 1 : 0;
          const seen = Number(r.last_seen);
          const bedrooms = r.bedrooms === null ? null : Number(r.bedrooms);
          const had = best.get(k);
          if (!had || rank > had.rank || (rank === had.rank && seen > had.seen)) {
            best.set(k, {
              rank,
              seen,
              place: { platform: r.platform as string, listingId: r.listing_id as string, lat: Number(r.lat), lng: Number(r.lng), bedrooms: bedrooms ?? had?.place.bedrooms ?? null },
            });
          } else if (had.place.bedrooms === null && bedrooms !== null) had.place.bedrooms = bedrooms;
        }
        await yieldLoop();
      }
      return [...best.values()]
        .map((b) => b.place)
        .filter((p) => p.lat >= q.minLat && p.lat <= q.maxLat && p.lng >= q.minLng && p.lng <= q.maxLng)
        .sort((a, b) => a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId));
    },
    async placeOf(l) {
      await flush();
      const r = (
        await db.query(
          `SELECT lat, lng FROM observations WHERE platform = $1 AND listing_id = $2 AND kind IN ('listing', 'search') AND lat IS NOT NULL AND ${facts.where(3)}
           ORDER BY last_seen DESC, CASE WHEN kind = 'listing' THEN 0 ELSE 1 END LIMIT 1`,
          [l.platform, l.listingId, ...facts.params],
        )
      )[0];
      return r ? { lat: Number(r.lat), lng: Number(r.lng) } : null;
    },
    async listingFacts(listings) {
      await flush();
      const found = new Map<string, ListingFacts>();
      // A listing read is one row a listing: a digest batch's worth of listings a statement.
      for (const b of batches(listings, digestBatch)) {
        const ids = JSON.stringify(b.ids);
        const rows = await db.query(
          `SELECT listing_id, value, lat, lng FROM observations WHERE platform = $1 AND ${inIds} AND kind = 'listing' AND latest = 1 AND ${facts.where(3)} ORDER BY last_seen, id`,
          [b.platform, ids, ...facts.params],
        );
        for (const r of rows) {
          const v = JSON.parse(r.value as string) as ListingValue;
          const id = r.listing_id as string;
          found.set(`${b.platform}|${id}`, {
            platform: b.platform,
            listingId: id,
            name: v.name ?? null,
            lat: r.lat === null ? null : Number(r.lat),
            lng: r.lng === null ? null : Number(r.lng),
            bedrooms: v.bedrooms ?? null,
            bathrooms: v.bathrooms ?? null,
            maxOccupancy: v.maxOccupancy ?? null,
          });
        }
        // What the listing's own read did not state (or never made): the latest search row that
        // stated coordinates, and the latest that stated bedrooms (the columns the write path
        // keeps). Only for those listings: most have a listing read that states both.
        const rest = b.ids.filter((id) => {
          const f = found.get(`${b.platform}|${id}`);
          return f === undefined || f.lat === null || f.bedrooms === null;
        });
        if (rest.length === 0) continue;
        const placed = new Map<string, { lat: number | null; lng: number | null; bedrooms: number | null; latAt: number; bedAt: number }>();
        for (const r of await db.query(
          `SELECT listing_id, lat, lng, bedrooms, last_seen FROM observations WHERE platform = $1 AND ${inIds} AND kind = 'search' AND latest = 1 AND (lat IS NOT NULL OR bedrooms IS NOT NULL) AND ${facts.where(3)} ORDER BY last_seen, id`,
          [b.platform, JSON.stringify(rest), ...facts.params],
        )) {
          const id = r.listing_id as string;
          const p = placed.get(id) ?? { lat: null, lng: null, bedrooms: null, latAt: -1, bedAt: -1 };
          const at = Number(r.last_seen);
          if (r.lat !== null && at >= p.latAt) Object.assign(p, { lat: Number(r.lat), lng: Number(r.lng), latAt: at });
          if (r.bedrooms !== null && at >= p.bedAt) Object.assign(p, { bedrooms: Number(r.bedrooms), bedAt: at });
          placed.set(id, p);
        }
        for (const [id, p] of placed) {
          const k = `${b.platform}|${id}`;
          const f = found.get(k);
          if (!f) {
            // No listing read: its name is the one the searches showed (the caller has it).
            found.set(k, { platform: b.platform, listingId: id, name: null, lat: p.lat, lng: p.lng, bedrooms: p.bedrooms, bathrooms: null, maxOccupancy: null });
            continue;
          }
          if (f.lat === null) Object.assign(f, { lat: p.lat, lng: p.lng });
          f.bedrooms ??= p.bedrooms;
        }
      }
      return listings.flatMap((l) => found.get(`${l.platform}|${l.listingId}`) ?? []);
    },
    async shownWith(l, q) {
      await flush();
      // The searches (series keys) that showed the listing, then every listing of the other
      // platforms those same keys showed: two index ranges, never a scan per key.
      const rows = await db.query(
        `SELECT platform, listing_id, MAX(CASE WHEN latest = 1 THEN value END) AS value FROM observations
         WHERE kind = 'search' AND ${db.sql.inJsonList('platform', '$3')} AND ${queries.where(5)}
           AND key IN (SELECT DISTINCT key FROM observations WHERE platform = $1 AND listing_id = $2 AND kind = 'search' AND ${queries.where(5)})
         GROUP BY platform, listing_id ORDER BY platform, listing_id LIMIT $4`,
        [l.platform, l.listingId, JSON.stringify(q.platforms), q.limit, ...queries.params],
      );
      const own = await db.query(
        `SELECT value FROM observations WHERE platform = $1 AND listing_id = $2 AND kind = 'search' AND ${queries.where(3)} ORDER BY key DESC, first_seen DESC, id DESC LIMIT 1`,
        [l.platform, l.listingId, ...queries.params],
      );
      return { name: nameOf(own[0]?.value), listings: rows.map((r) => ({ platform: r.platform as string, listingId: r.listing_id as string, name: nameOf(r.value) })) };
    },
    async observedListing(l) {
      await flush();
      return (await db.query(`SELECT 1 FROM observations WHERE platform = $1 AND listing_id = $2 AND ${facts.where(3)} LIMIT 1`, [l.platform, l.listingId, ...facts.params])).length > 0;
    },
  };
}
