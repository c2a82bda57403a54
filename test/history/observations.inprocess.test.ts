// Issue 26, item 1: the live path records what the upstream answered (search rows, listings,
// quotes, calendar days, ratings), one row per distinct value of a series; a cache hit records
// nothing; an unchanged answer fetched again extends the rows it matches; the sandbox and
// STAYS_HISTORY=off record nothing. Through the app in-process on the SQLite store, with the
// simulated upstream and a manual clock (a cache entry expires when the clock passes it).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';

const MIN = 60_000;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.stop();
});

async function app(env: Record<string, string> = {}) {
  const clock = manualClock(Date.UTC(2026, 10, 26, 12));
  const t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', ...env }, { clock });
  apps.push(t);
  const a = await t.account({ credits: 100_000, rpm: 100_000 });
  const get = async (path: string, key = a.liveKey) => {
    const r = await t.req(path, { key, headers: { prefer: 'wait=30' } });
    const text = await r.text();
    expect(r.status, text).toBe(200);
    return JSON.parse(text) as { data: unknown; meta: { cached: boolean } };
  };
  return { t, a, clock, get };
}

type Counted = { kind: string; rows: number; seen: number; sources: string };
/** The rows by kind, as another connection to the file reads them once the answers queued so far are written (the live path writes after its response). */
async function counts(t: TestApp): Promise<Counted[]> {
  await t.runtime.store.observationsWritten();
  const db = new Database(join(t.dataDir, 'stays.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT kind, COUNT(*) AS rows, SUM(times_seen) AS seen, GROUP_CONCAT(DISTINCT source) AS sources FROM observations GROUP BY kind ORDER BY kind`).all() as Counted[];
  } finally {
    db.close();
  }
}

describe('observations from the live path', () => {
  it('a live search records its rows and ratings once; a cache hit adds nothing; the same answer fetched again extends them', async () => {
    const { t, clock, get } = await app();
    const first = await get('/v1/search?location=Lisbon&platforms=airbnb,vrbo');
    expect(first.meta.cached).toBe(false);
    const rows = (first.data as unknown[]).length;
    const after1 = await counts(t);
    const search = after1.find((c) => c.kind === 'search')!;
    // Every platform's candidate set is recorded (the page shows only some of them).
    expect(search.rows).toBeGreaterThanOrEqual(rows);
    expect(search.seen).toBe(search.rows);
    expect(search.sources).toBe('simulated');
    expect(after1.find((c) => c.kind === 'rating')?.rows).toBeGreaterThan(0);

    const hit = await get('/v1/search?location=Lisbon&platforms=airbnb,vrbo');
    expect(hit.meta.cached).toBe(true);
    expect(await counts(t)).toEqual(after1);

    // Past the search cache's 15 minutes the upstream is asked again; the world has not changed.
    clock.advance(16 * MIN);
    const again = await get('/v1/search?location=Lisbon&platforms=airbnb,vrbo');
    expect(again.meta.cached).toBe(false);
    expect(await counts(t)).toEqual(after1.map((c) => ({ ...c, seen: c.rows * 2 })));
  });

  it('a quote, a calendar and a listing each record their kind, keyed by the stay and the day', async () => {
    const { t, get } = await app();
    const found = (await get('/v1/search?location=Porto&platforms=airbnb')).data as { platformListingId: string }[];
    const id = found[0]!.platformListingId;
    await get(`/v1/price?platform=airbnb&listingId=${id}&checkIn=2027-03-01&checkOut=2027-03-04&adults=2`);
    await get(`/v1/availability?platform=airbnb&listingId=${id}&startDate=2027-03-01&endDate=2027-03-10`);
    await get(`/v1/listing/airbnb/${id}`);
    await t.runtime.store.observationsWritten();
    const db = new Database(join(t.dataDir, 'stays.db'), { readonly: true, fileMustExist: true });
    try {
      const of = (kind: string) =>
        db.prepare(`SELECT key, currency, value FROM observations WHERE listing_id = ? AND kind = ? ORDER BY key`).all(id, kind) as { key: string; currency: string; value: string }[];
      const [quote] = of('quote');
      expect(quote?.key).toBe('2027-03-01/2027-03-04/2');
      expect(Object.keys(JSON.parse(quote!.value))).toEqual(['nightlyPrice', 'totalPrice', 'fees']);
      // The window's nights: endDate is the morning after the last one.
      expect(of('day').map((d) => d.key)).toEqual(['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04', '2027-03-05', '2027-03-06', '2027-03-07', '2027-03-08', '2027-03-09']);
      expect(of('listing')).toHaveLength(1);
      expect(of('search').map((s) => s.key)).toEqual(['porto']);
    } finally {
      db.close();
    }
  });

  it('sandbox keys and STAYS_HISTORY=off record nothing', async () => {
    const sandbox = await app();
    await sandbox.get('/v1/search?location=Lisbon&platforms=airbnb', sandbox.a.sandboxKey);
    expect(await counts(sandbox.t)).toEqual([]);
    const off = await app({ STAYS_HISTORY: 'off' });
    await off.get('/v1/search?location=Lisbon&platforms=airbnb');
    expect(await counts(off.t)).toEqual([]);
  });
});
