// GET /v1/history/bookings (issue 27, item 1), the suite both stores run: a listing's nights
// classified from the calendar live calls observed (method calendar-diff/1) and the bookings
// inferred, the last price seen beside each; the sandbox's fixed synthetic history; typed errors,
// free; the same answer over loopback HTTP (`stays serve`) as in-process on the same store. The
// calendars are written straight into the store as the live path records them
// (src/core/observe.ts). Run by bookings.inprocess.test.ts (SQLite) and bookings.pg.test.ts.
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeCalendar, observeQuote } from '../../src/core/observe.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { accountOn } from '../helpers/seed.js';
import { type TestAccount, tempDir } from '../helpers/stays.js';

/** The suite on the store `store()` names (its STAYS_* settings; {} for the data directory's SQLite file), or skipped. */
export function bookingsSuite(title: string, store: () => Promise<{ env: NodeJS.ProcessEnv; drop?: () => Promise<void> }>, skip = false): void {
  describe.skipIf(skip)(title, () => {
    const HOUR = 3_600_000;
    const T0 = Date.UTC(2026, 10, 1);
    let dataDir = '';
    let t: TestApp;
    let server: RunningServer;
    let a: TestAccount;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      dataDir = tempDir();
      const s = await store();
      drop = s.drop;
      const env = { STAYS_LOG_LEVEL: 'warn', STAYS_SHUTDOWN_GRACE_MS: '0', ...s.env };
      server = await startServer({ port: 0, config: { dataDir }, env, logger: pino({ level: 'silent' }) });
      t = await startApp(env, { dataDir, deliver: false });
      a = await accountOn(server.runtime, { credits: 1000, rpm: 100_000 });
    });
    afterAll(async () => {
      await t?.stop({ keepData: true });
      await server?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      await drop?.();
    });

    const date = (i: number) => `2027-01-${String(i + 1).padStart(2, '0')}`;
    /** Ten nights from 2027-01-01 as airbnb states them: taken ones unavailable, check-in where a free run of the minimum stay starts. */
    function calendar(taken: readonly number[], minNights = 2) {
      const free = (i: number) => !taken.includes(i);
      return {
        platform: 'airbnb',
        listingId: '5150',
        dates: Array.from({ length: 10 }, (_v, i) => {
          let run = 0;
          while (run < minNights && free(i + run)) run++;
          const checkIn = free(i) && run >= minNights;
          return { date: date(i), available: free(i), minNights, checkIn, checkOut: i === 0 || free(i - 1), bookable: free(i) && checkIn };
        }),
      };
    }
    const record = (taken: number[], at: number, minNights = 3) => server.runtime.store.recordObservations(observeCalendar(calendar(taken, minNights)), 'simulated', at);
    const stay = { checkIn: '2027-01-03', checkOut: '2027-01-07', adults: 2, children: 0, childAges: [], currency: 'USD' };
    const quote = (nightly: number, at: number) =>
      server.runtime.store.recordObservations(
        observeQuote(stay)({ platform: 'airbnb', listingId: '5150', currency: 'USD', nightlyPrice: nightly, totalPrice: nightly * 4, fees: null }),
        'simulated',
        at,
      );

    type Inference = {
      method: string;
      nights: { date: string; state: string; confidence: number }[];
      bookings: Record<string, unknown>[];
      counts: Record<string, number>;
      sample: Record<string, unknown>;
    };
    const inProcess = async (query: string, key = a.liveKey) => {
      const r = await t.req(`/v1/history/bookings?${query}`, { key });
      return { status: r.status, body: JSON.parse(await r.text()) as { data: Inference; meta: Record<string, unknown> } };
    };
    const remote = async (query: string, key = a.liveKey) => {
      const r = await fetch(`${server.url}/v1/history/bookings?${query}`, { headers: { authorization: `Bearer ${key}` } });
      return { status: r.status, body: JSON.parse(await r.text()) as { data: Inference; meta: Record<string, unknown> } };
    };

    describe('GET /v1/history/bookings', () => {
      it('live: a stay booked between observations is a booking (lead time, last price seen); a run shorter than the minimum stay a block; a gap no stay fits unbookable; free', async () => {
        await record([], T0);
        await quote(110, T0 + HOUR);
        await record([], T0 + 6 * HOUR);
        await quote(125, T0 + 7 * HOUR);
        // Nights 3-6 (2027-01-03..06) booked; night 9 (a one-night run, minimum 3) blocked; night 8 is left between them.
        await record([2, 3, 4, 5], T0 + 12 * HOUR);
        await quote(999, T0 + 13 * HOUR);
        await record([2, 3, 4, 5, 8], T0 + 18 * HOUR);
        const h = await inProcess('platform=airbnb&listingId=5150&from=2027-01-01&to=2027-01-11');
        expect(h.status, JSON.stringify(h.body)).toBe(200);
        expect(h.body.data.method).toBe('calendar-diff/1');
        expect(h.body.data.nights.map((n) => n.state)).toEqual([
          'available',
          'available',
          'booked',
          'booked',
          'booked',
          'booked',
          // 01-07 and 01-08: two free nights between stays, a 3-night minimum: no stay includes them.
          'unbookable',
          'unbookable',
          'blocked',
          // 01-10: free, and a check-in day (the nights after it, not read here, are free).
          'available',
        ]);
        expect(h.body.data.bookings).toEqual([
          {
            checkIn: '2027-01-03',
            checkOut: '2027-01-07',
            nights: 4,
            bookedAfter: new Date(T0 + 6 * HOUR).toISOString(),
            bookedBefore: new Date(T0 + 12 * HOUR).toISOString(),
            leadTimeDays: 62,
            lastPriceSeen: 125,
            currency: 'USD',
            confidence: 0.9,
            pricedNights: 4,
            meanNightlyPriceSeen: 125,
          },
        ]);
        expect(h.body.data.counts).toEqual({ available: 3, booked: 4, blocked: 1, unbookable: 2, unknown: 0 });
        expect(h.body.data.sample).toMatchObject({ nights: 10, firstObserved: new Date(T0).toISOString(), lastObserved: new Date(T0 + 18 * HOUR).toISOString() });
        expect(h.body.meta).toMatchObject({ creditsCharged: 0, platforms: ['airbnb'] });
      });

      it('a booked night is priced only by a stay that includes it: a quote of another stay prices none, one across part of it those nights', async () => {
        const calendarOf = (taken: readonly number[]) => observeCalendar({ ...calendar(taken, 1), listingId: '5151' });
        const quoteOf = (checkIn: string, checkOut: string, nightly: number, at: number) =>
          server.runtime.store.recordObservations(
            observeQuote({ ...stay, checkIn, checkOut })({ platform: 'airbnb', listingId: '5151', currency: 'USD', nightlyPrice: nightly, totalPrice: nightly * 3, fees: null }),
            'simulated',
            at,
          );
        await server.runtime.store.recordObservations(calendarOf([]), 'simulated', T0);
        // A stay after the booking (never its nights), and one across its last two nights (01-05 and 01-06).
        await quoteOf('2027-01-08', '2027-01-10', 300, T0 + HOUR);
        await quoteOf('2027-01-05', '2027-01-08', 90, T0 + 2 * HOUR);
        await server.runtime.store.recordObservations(calendarOf([2, 3, 4, 5]), 'simulated', T0 + 12 * HOUR);
        const h = await inProcess('platform=airbnb&listingId=5151&from=2027-01-01&to=2027-01-11');
        expect(h.status, JSON.stringify(h.body)).toBe(200);
        expect(h.body.data.bookings).toEqual([expect.objectContaining({ checkIn: '2027-01-03', nights: 4, lastPriceSeen: null, currency: 'USD', pricedNights: 2, meanNightlyPriceSeen: 90 })]);
      });

      it('remote and in-process answers are identical', async () => {
        for (const [q, key] of [
          ['platform=airbnb&listingId=5150&from=2027-01-01&to=2027-01-11', a.liveKey],
          ['platform=airbnb&listingId=4242&from=2027-03-01&to=2027-05-01', a.sandboxKey],
          ['platform=airbnb&listingId=5150&from=2027-01-11&to=2027-01-01', a.liveKey],
          ['platform=airbnb&listingId=99999&from=2027-01-01&to=2027-01-11', a.liveKey],
        ] as const) {
          const [x, y] = [await inProcess(q, key), await remote(q, key)];
          expect(y.status, q).toBe(x.status);
          const strip = (b: Record<string, unknown>) => {
            const { meta, error, ...rest } = b as { meta?: Record<string, unknown>; error?: Record<string, unknown> };
            const { requestId: _r, ...m } = meta ?? {};
            const { requestId: _e, docUrl: _d, ...e } = error ?? {};
            return { ...rest, meta: m, error: e };
          };
          expect(strip(y.body), q).toEqual(strip(x.body));
        }
      });

      it('sandbox: a fixed synthetic history, the same on every call, with bookings and each night classified', async () => {
        const q = 'platform=airbnb&listingId=4242&from=2027-03-01&to=2027-06-01';
        const h = await inProcess(q, a.sandboxKey);
        expect(h.status, JSON.stringify(h.body)).toBe(200);
        expect(h.body.data.nights).toHaveLength(92);
        expect(h.body.data.counts.unknown).toBe(0);
        expect(h.body.data.counts.booked).toBeGreaterThan(0);
        expect(h.body.data.bookings.length).toBeGreaterThan(0);
        // Its taken nights are the sandbox calendar's.
        const cal = await t.req('/v1/availability?platform=airbnb&listingId=4242&startDate=2027-03-01&endDate=2027-06-01', { key: a.sandboxKey });
        const dates = (JSON.parse(await cal.text()) as { data: { dates: { date: string; available: boolean }[] }[] }).data[0]!.dates;
        expect(h.body.data.nights.map((n) => n.state === 'booked' || n.state === 'blocked')).toEqual(dates.map((d) => !d.available));
        for (const b of h.body.data.bookings) expect(String(b.bookedBefore) < `${b.checkIn}T00:00:00.000Z`).toBe(true);
        expect((await inProcess(q, a.sandboxKey)).body.data).toEqual(h.body.data);
        expect(h.body.meta).toMatchObject({ creditsCharged: 0, environment: 'test' });
      });

      it('bad input: typed errors, free, never a 500; nothing observed is no_observations', async () => {
        const cases: [string, number, string, string][] = [
          ['platform=airbnb&listingId=99999&from=2027-01-01&to=2027-01-11', 404, 'no_observations', 'listingId'],
          // Observed, but not in this window.
          ['platform=airbnb&listingId=5150&from=2028-01-01&to=2028-01-11', 404, 'no_observations', 'listingId'],
          ['platform=airbnb&listingId=5150&from=2027-01-11&to=2027-01-01', 400, 'invalid_date_range', 'to'],
          ['platform=airbnb&listingId=5150&from=2027-01-01&to=2027-01-01', 400, 'invalid_date_range', 'to'],
          ['platform=airbnb&listingId=5150&from=2027-01-01&to=2028-06-01', 400, 'window_too_long', 'to'],
          ['platform=airbnb&listingId=5150&from=2027-01-01', 400, 'missing_parameter', 'to'],
          ['platform=airbnb&listingId=5150&from=2027-13-01&to=2027-01-11', 400, 'invalid_parameter', 'from'],
          ['platform=airbnb&from=2027-01-01&to=2027-01-11', 400, 'missing_parameter', 'listingId'],
          ['platform=nope&listingId=5150&from=2027-01-01&to=2027-01-11', 400, 'invalid_parameter', 'platform'],
        ];
        for (const [query, status, code, param] of cases) {
          const e = await expectError(await t.req(`/v1/history/bookings?${query}`, { key: a.liveKey }), status, code, param);
          expect(JSON.stringify(e), query).not.toContain('internal_error');
        }
      });
    });
  });
}
