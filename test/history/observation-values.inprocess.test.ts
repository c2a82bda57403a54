// What the live path records is what the history port's types say (issue 34): after live calls of
// every kind that records (an undated and a dated search, a listing, a quote, a calendar) on the
// simulated upstream, every stored value parses with its kind's schema (strict: no key the type
// does not name), and the derived columns the port reads by agree with the row's key and value.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import type { ObservationKind } from '../../src/core/ports/store.js';
import { observationValueSchemas } from '../../src/core/schemas/observations.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const clock = manualClock(Date.UTC(2027, 0, 1));
let t: TestApp;
let a: TestAccount;

const get = async (path: string) => {
  const res = await t.req(path, { key: a.liveKey, headers: { prefer: 'wait=30' } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as { data: unknown };
};

beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  a = await t.account({ credits: 100_000, rpm: 100_000 });
  await get('/v1/search?location=Lisbon&platforms=airbnb,vrbo');
  const dated = (await get('/v1/search?location=Lisbon&platforms=airbnb&checkIn=2027-02-01&checkOut=2027-02-04&adults=2')).data as { platformListingId: string }[];
  const id = dated[0]?.platformListingId ?? '';
  expect(id).not.toBe('');
  await get(`/v1/listing/airbnb/${id}`);
  await get(`/v1/price?platform=airbnb&listingId=${id}&checkIn=2027-02-01&checkOut=2027-02-04&adults=2`);
  await get(`/v1/availability?platform=airbnb&listingId=${id}&startDate=2027-02-01&endDate=2027-02-15`);
  await t.runtime.store.observationsWritten();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

describe('stored observation values', () => {
  it('every kind is recorded, and every value is exactly its kind’s schema', async () => {
    const rows = await t.runtime.store.observationsSince({ since: 0, afterId: 0, limit: 100_000 });
    const kinds = new Set(rows.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['day', 'listing', 'quote', 'rating', 'search']);
    for (const r of rows) {
      const parsed = observationValueSchemas[r.kind as ObservationKind]().safeParse(r.value);
      expect(parsed.success, `${r.kind} ${JSON.stringify(r.value)}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('the columns the history port reads by agree with each row’s key and value', async () => {
    const db = new Database(`${t.dataDir}/stays.db`, { readonly: true });
    try {
      const rows = db.prepare('SELECT kind, key, value, place, check_in, check_out, lat, lng, bedrooms, nightly FROM observations').all() as Record<string, unknown>[];
      let dated = 0;
      for (const r of rows) {
        const v = JSON.parse(r.value as string) as { lat?: number; lng?: number; bedrooms?: number | null; nightlyPrice?: number | null };
        const key = r.key as string;
        if (r.kind === 'search') {
          const at = key.lastIndexOf('@');
          expect(r.place).toBe(at < 0 ? key : key.slice(0, at));
          if (at >= 0) dated++;
          expect(r.check_in).toBe(at < 0 ? null : key.slice(at + 1, at + 11));
        } else expect(r.place).toBeNull();
        if (r.kind === 'quote') expect([r.check_in, r.check_out]).toEqual(key.split('/').slice(0, 2));
        expect(r.nightly).toBe(r.kind === 'quote' || r.kind === 'search' ? (v.nightlyPrice ?? null) : null);
        if (r.kind === 'search' || r.kind === 'listing') {
          expect(r.lat).toBe(v.lat ?? null);
          expect(r.lng).toBe(v.lng ?? null);
          expect(r.bedrooms).toBe(v.bedrooms ?? null);
        } else expect([r.lat, r.lng, r.bedrooms]).toEqual([null, null, null]);
      }
      expect(dated).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
