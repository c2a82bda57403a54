// The migration that gave observations their history-port columns (issue 34) backfills rows
// stored before it by the rules the write path now applies (src/store/sql/observation-columns.ts):
// rows of every kind written in the old shape, then the migration, then each row's columns
// compared with what columnsOf derives from its key and value. On SQLite, and on PostgreSQL when
// a server answers.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewObservation } from '../../src/core/ports/store.js';
import { migrationsFor } from '../../src/store/sql/migrations.js';
import { columnsOf } from '../../src/store/sql/observation-columns.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

const OLD: { kind: string; key: string; value: object }[] = [
  { kind: 'search', key: 'lisbon', value: { name: 'A', nightlyPrice: 100, totalPrice: null, lat: 38.71, lng: -9.14, bedrooms: 2 } },
  { kind: 'search', key: 'lisbon@2027-06-01/2027-06-04/2', value: { name: 'A', nightlyPrice: 100, totalPrice: 300 } },
  { kind: 'search', key: 'rua augusta 12@2027-06-01/2027-06-08/10', value: { name: 'B', nightlyPrice: 90, totalPrice: 630, lat: 38.7, lng: -9.1 } },
  { kind: 'search', key: '38.71234,-9.13456', value: { name: 'C', nightlyPrice: null, totalPrice: null, bedrooms: 1 } },
  { kind: 'search', key: 'a@b', value: { name: 'D', nightlyPrice: null, totalPrice: null } },
  { kind: 'listing', key: '', value: { name: 'A', propertyType: null, maxOccupancy: 4, bedrooms: 3, bathrooms: 1, lat: 38.72, lng: -9.15 } },
  { kind: 'listing', key: '', value: { name: 'E', propertyType: null, maxOccupancy: null, bedrooms: null, bathrooms: null } },
  { kind: 'quote', key: '2027-06-01/2027-06-04/2', value: { nightlyPrice: 100, totalPrice: 300, fees: null } },
  { kind: 'day', key: '2027-06-01', value: { available: true, minNights: 2, checkIn: null, checkOut: null, bookable: null } },
  { kind: 'rating', key: '', value: { guestRating: 4.8, ratingScale: 5, reviewCount: 10 } },
];

const INSERT = `INSERT INTO observations (okey, platform, listing_id, kind, key, currency, value, source, first_seen, last_seen, times_seen, latest)
  VALUES ($1, 'airbnb', $2, $3, $4, NULL, $5, 'simulated', 1, 1, 1, 1)`;

/** What each row's columns should be, in the order of OLD. */
const expected = () =>
  OLD.map((o, i) => {
    const c = columnsOf({ platform: 'airbnb', listingId: String(i), currency: null, ...o } as NewObservation);
    return { place: c.place, check_in: c.checkIn, check_out: c.checkOut, lat: c.lat, lng: c.lng, bedrooms: c.bedrooms, nightly: c.nightly };
  });

/** The index of the migration that adds the history columns (later migrations follow it). */
const columnsAt = (all: readonly string[]) => {
  const i = all.findIndex((m) => m.includes('ADD COLUMN place'));
  expect(i).toBeGreaterThan(0);
  return i;
};

const SELECT = 'SELECT place, check_in, check_out, lat, lng, bedrooms, nightly FROM observations ORDER BY id';

describe('the history columns migration', () => {
  it('backfills every kind of stored row as the write path derives it (SQLite)', () => {
    const all = migrationsFor('sqlite');
    const db = new Database(':memory:');
    try {
      for (const m of all.slice(0, columnsAt(all))) db.exec(m);
      OLD.forEach((o, i) => db.prepare(INSERT.replace(/\$(\d)/g, '?')).run(`airbnb|${i}|${o.kind}|${o.key}`, String(i), o.kind, o.key, JSON.stringify(o.value)));
      db.exec(all[columnsAt(all)]!);
      expect(db.prepare(SELECT).all()).toEqual(expected());
      // The plans the port relies on: a listing's night range, a place's listings, a box.
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
      expect(plan("SELECT * FROM observations WHERE platform = 'a' AND listing_id = '1' AND kind = 'day' AND key >= '2027' AND key <= '2028'")).toMatch(/observations_listing/);
      expect(plan("SELECT platform, listing_id FROM observations WHERE kind = 'search' AND place = 'lisbon' GROUP BY platform, listing_id")).toMatch(/observations_place/);
      expect(plan('SELECT * FROM observations WHERE latest = 1 AND lat IS NOT NULL AND lat >= 1 AND lat <= 2 AND lng >= 1 AND lng <= 2')).toMatch(/observations_geo/);
      // What a listing's summary reads of its stays' prices, and the market of a listing's bedrooms.
      expect(
        plan(
          "SELECT id, listing_id, kind, key, currency, value, first_seen, last_seen, check_in, nightly FROM observations WHERE platform = 'a' AND listing_id IN ('1', '2') AND check_in IS NOT NULL AND kind IN ('quote', 'search')",
        ),
      ).toMatch(/INDEX observations_stay/);
      expect(plan("SELECT listing_id, bedrooms FROM observations WHERE platform = 'a' AND listing_id IN ('1', '2') AND kind = 'listing' AND latest = 1")).toMatch(/COVERING INDEX observations_facts/);
    } finally {
      db.close();
    }
  });

  let made: TestDatabase | null = null;
  afterAll(async () => made?.drop());
  it('backfills the same on PostgreSQL', async (ctx) => {
    if (!(await pgAvailable())) return ctx.skip();
    made = await freshDatabase();
    const c = new pg.Client({ connectionString: made.url });
    await c.connect();
    try {
      const all = migrationsFor('postgres');
      for (const m of all.slice(0, columnsAt(all))) await c.query(m);
      for (const [i, o] of OLD.entries()) await c.query(INSERT, [`airbnb|${i}|${o.kind}|${o.key}`, String(i), o.kind, o.key, JSON.stringify(o.value)]);
      await c.query(all[columnsAt(all)]!);
      expect((await c.query(SELECT)).rows).toEqual(expected());
    } finally {
      await c.end();
    }
  });
});
