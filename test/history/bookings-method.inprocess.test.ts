// The booking-inference method a reader asks for (issue 37, item 2), over loopback HTTP (`stays
// serve` on port 0): GET /v1/history/bookings and GET /v1/market take `method` (calendar-diff/1 or
// calendar-diff/2), name the one they used, and refuse another with a typed, free 400. The live
// calendar is written straight into the store as the live path records it: a listing with a
// day's advance notice (each night closes on its own day, free as it is), observed daily.
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_METHOD } from '../../src/core/analytics/bookings.js';
import { observeCalendar } from '../../src/core/observe.js';
import type { MarketView } from '../../src/core/schemas/market.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { expectError } from '../helpers/assert.js';
import { accountOn } from '../helpers/seed.js';
import { type TestAccount, tempDir } from '../helpers/stays.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2027, 0, 1);
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let dataDir = '';
let server: RunningServer;
let a: TestAccount;

/** The calendar at 06:00 of day `i`: 30 nights from today, today's closed by the notice, nights 24-26 booked from day 10 on. */
function calendarOn(i: number) {
  const today = T0 + i * DAY;
  return {
    platform: 'airbnb',
    listingId: '3737',
    dates: Array.from({ length: 30 }, (_v, k) => {
      const n = i + k;
      const free = k > 0 && !(i >= 10 && n >= 24 && n <= 26);
      return { date: dateOf(today + k * DAY), available: free, minNights: 1, checkIn: free, checkOut: true, bookable: free };
    }),
  };
}

beforeAll(async () => {
  dataDir = tempDir();
  server = await startServer({ port: 0, config: { dataDir }, env: { STAYS_LOG_LEVEL: 'warn', STAYS_SHUTDOWN_GRACE_MS: '0' }, logger: pino({ level: 'silent' }) });
  a = await accountOn(server.runtime, { credits: 1000, rpm: 100_000 });
  for (let i = 0; i < 20; i++) await server.runtime.store.recordObservations(observeCalendar(calendarOn(i)), 'simulated', T0 + i * DAY + 6 * 3_600_000);
});
afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, key = a.liveKey) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
type Inference = { method: string; nights: { date: string; state: string; confidence: number }[]; bookings: { checkIn: string; checkOut: string }[] };
const bookings = async (query: string) => {
  const res = await get(`/v1/history/bookings?platform=airbnb&listingId=3737&from=2027-01-01&to=2027-01-31${query}`);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as { data: Inference; meta: { creditsCharged: number } };
};

describe('GET /v1/history/bookings?method', () => {
  it('names the method it used: the default, or the one asked for', async () => {
    expect((await bookings('')).data.method).toBe(BOOKING_METHOD);
    expect((await bookings('&method=calendar-diff/1')).data.method).toBe('calendar-diff/1');
    const two = await bookings('&method=CALENDAR-DIFF/2');
    expect(two.data.method).toBe('calendar-diff/2');
    expect(two.meta.creditsCharged).toBe(0);
  });

  it('calendar-diff/2 reads the advance notice: the nights it closed were free; calendar-diff/1 calls each a one-night hold', async () => {
    const one = await bookings('&method=calendar-diff/1');
    const two = await bookings('&method=calendar-diff/2');
    // The nights that passed (2027-01-01 .. 01-19), each closed on its own day by the notice.
    const passed = (d: Inference) => d.nights.filter((n) => n.date >= '2027-01-02' && n.date < '2027-01-20');
    expect(passed(one.data).every((n) => n.state === 'booked' || n.state === 'blocked')).toBe(true);
    expect(passed(two.data).every((n) => n.state === 'available')).toBe(true);
    // The one guest booking (nights 24-26) is found by both; /1 adds a one-night booking a day.
    expect(two.data.bookings.map((b) => `${b.checkIn}/${b.checkOut}`)).toEqual(['2027-01-25/2027-01-28']);
    expect(one.data.bookings.length).toBeGreaterThan(10);
  });

  it('another method is a typed 400 naming the parameter, free', async () => {
    for (const m of ['calendar-diff/3', 'calendar-diff', 'booked-over-for-rent/1']) {
      const res = await get(`/v1/history/bookings?platform=airbnb&listingId=3737&from=2027-01-01&to=2027-01-31&method=${encodeURIComponent(m)}`);
      await expectError(res, 400, 'invalid_parameter', 'method');
    }
  });
});

describe('GET /v1/market?method', () => {
  const market = async (query: string) => {
    const res = await get(`/v1/market?location=Lisbon&from=2027-06-01&to=2027-07-01${query}`, a.sandboxKey);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as { data: MarketView; meta: { creditsCharged: number } };
  };

  it('names the method, describes it, and gives the booked rate an interval around it', async () => {
    for (const method of ['calendar-diff/1', 'calendar-diff/2'] as const) {
      const { data, meta } = await market(`&method=${method}`);
      expect(meta.creditsCharged).toBe(0);
      expect(data.bookingMethod).toBe(method);
      expect(data.methods[method]).toMatch(/Booking inference/);
      expect(data.overall.occupancy.inferredBookedRate.method).toContain(method);
      const rate = data.overall.occupancy.inferredBookedRate.value!;
      const band = data.overall.occupancy.inferredBookedRateInterval;
      expect(band.method).toContain(method);
      expect(band.low!).toBeLessThanOrEqual(rate);
      expect(band.high!).toBeGreaterThanOrEqual(rate);
      expect(band.high! - band.low!).toBeGreaterThan(0);
    }
    expect((await market('')).data.bookingMethod).toBe(BOOKING_METHOD);
  });

  it('another method is a typed 400 naming the parameter, free', async () => {
    await expectError(await get('/v1/market?location=Lisbon&from=2027-06-01&to=2027-07-01&method=airdna', a.sandboxKey), 400, 'invalid_parameter', 'method');
    await expectError(await get('/v1/market?location=Lisbon&from=2027-06-01&to=2027-07-01&method=calendar-diff/9', a.liveKey), 400, 'invalid_parameter', 'method');
  });
});
