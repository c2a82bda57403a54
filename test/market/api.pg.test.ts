// GET /v1/market and comp sets on PostgreSQL (the e2e tier: skipped, saying so, without a server
// unless STAYS_TEST_PG_REQUIRED=1): the same live simulated calls made on a manual clock against an
// app on PostgreSQL and one on SQLite; every market answer (location, bbox, comp set, series) the same.
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { HOUR_MS } from '../../src/sources/sandbox/moving.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

const available = await pgAvailable();
const T0 = Date.UTC(2027, 0, 1);
const FROM = '2027-01-20';
const TO = '2027-02-03';
let db: TestDatabase | undefined;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.stop();
  await db?.drop();
});

async function drive(env: Record<string, string>) {
  const clock = manualClock(T0);
  const t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', ...env }, { clock });
  apps.push(t);
  const a = await t.account({ credits: 100_000, rpm: 100_000 });
  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await t.req(path, {
      key: a.liveKey,
      method: init.method,
      headers: { prefer: 'wait=30', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    expect(res.status, text).toBeLessThan(300);
    return JSON.parse(text) as { data: Record<string, unknown> };
  };
  await call('/v1/search?location=Lisbon&platforms=airbnb,vrbo&checkIn=2027-01-20&checkOut=2027-01-23&adults=2');
  const seen = (await call('/v1/history/listings?location=Lisbon&platforms=airbnb&limit=1000')).data as unknown as { listingId: string }[];
  const ids = seen.slice(0, 5).map((l) => l.listingId);
  for (let i = 0; i < 12; i++) {
    if (i > 0) clock.advance(24 * HOUR_MS);
    for (const id of ids) await call(`/v1/availability?platform=airbnb&listingId=${id}&startDate=${FROM}&endDate=${TO}`);
  }
  const cs = (await call('/v1/compsets', { method: 'POST', body: { name: 'near', near: `airbnb:${ids[0]}`, radiusMeters: 3000 } })).data as { id: string };
  const answers = [];
  for (const q of [`location=Lisbon&interval=week`, 'bbox=-10,38,-8,39.5&platforms=airbnb', `compSet=near&bedrooms=1`, 'location=Lisbon&platforms=vrbo']) {
    // The comp set's id is each store's own; everything else is the same.
    answers.push(JSON.parse(JSON.stringify((await call(`/v1/market?${q}&from=${FROM}&to=${TO}`)).data).replaceAll(cs.id, 'cs_')));
  }
  return { answers, compSet: { ...cs, id: undefined, createdAt: undefined } };
}

describe.skipIf(!available)('market metrics on PostgreSQL', () => {
  it('the same live calls give the same market answers on PostgreSQL as on SQLite', async () => {
    db = await freshDatabase();
    const pg = await drive({ STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'ab'.repeat(32) });
    const sqlite = await drive({});
    expect(pg.answers).toEqual(sqlite.answers);
    expect(pg.compSet).toEqual(sqlite.compSet);
    expect((pg.answers[0] as { overall: { occupancy: { calendarUnavailableRate: { sampleSize: number } } } }).overall.occupancy.calendarUnavailableRate.sampleSize).toBe(5 * 14);
  }, 120_000);
});
