// GET /v1/history/availability (issue 26, item 3): night by night, the calendar changes live calls
// observed, oldest first and cursor-paged, with each night as last seen; the sandbox's fixed
// synthetic history; typed errors, free. In-process on SQLite; the calendars are written straight
// into the store as the live path records them (src/core/observe.ts), so the test chooses what
// changed and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeCalendar } from '../../src/core/observe.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({});
  a = await t.account({ credits: 1000, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

const calendar = (available: boolean[], minNights = 2) => ({
  platform: 'vrbo',
  listingId: '777',
  dates: available.map((v, i) => ({ date: `2027-01-0${i + 1}`, available: v, minNights, checkIn: null, checkOut: null, bookable: null })),
});
const record = (cal: ReturnType<typeof calendar>, at: number) => t.runtime.store.recordObservations(observeCalendar(cal), 'simulated', at);
const get = async (query: string, key = a.liveKey) => {
  const r = await t.req(`/v1/history/availability?${query}`, { key });
  return { status: r.status, body: JSON.parse(await r.text()) as { data: { changes: Record<string, unknown>[]; latest: Record<string, unknown>[] }; meta: Record<string, unknown> } };
};

describe('GET /v1/history/availability', () => {
  it('a change of a rule alone (check-out) names what changed, never an unchanged available or minimum stay as the change (issue 36, item 11)', async () => {
    const night = (checkOut: boolean) => ({ platform: 'vrbo', listingId: '778', dates: [{ date: '2027-02-01', available: true, minNights: 3, checkIn: true, checkOut, bookable: true }] });
    await t.runtime.store.recordObservations(observeCalendar(night(true)), 'simulated', T0);
    await t.runtime.store.recordObservations(observeCalendar(night(false)), 'simulated', T0 + HOUR);
    const h = await get('platform=vrbo&listingId=778&startDate=2027-02-01&endDate=2027-02-02&from=2026-10-01');
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    expect(h.body.data.changes.map((c) => c.changed)).toEqual([['observed'], ['checkOut']]);
    expect(h.body.data.changes[1]).toMatchObject({ available: { from: true, to: true }, minNights: { from: 3, to: 3 }, checkOut: { from: true, to: false }, checkIn: { from: true, to: true } });
  });

  it('live: each change once, from → to, oldest first; the latest state of each night; from/to select; free', async () => {
    await record(calendar([true, true, true]), T0);
    await record(calendar([true, true, true]), T0 + HOUR); // unchanged: extends, no change
    await record(calendar([true, false, false]), T0 + 2 * HOUR); // nights 2 and 3 booked
    await record(calendar([true, true, false], 3), T0 + 3 * HOUR); // night 2 freed, minimum stay 3
    const h = await get('platform=vrbo&listingId=777&startDate=2027-01-01&endDate=2027-01-04&from=2026-10-01');
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    const at = (n: number) => new Date(T0 + n * HOUR).toISOString();
    // The rules the calendar did not state stay null on both sides.
    const rules = (from: null | false, changed: string[]) => ({
      checkIn: { from: null, to: null },
      checkOut: { from: null, to: null },
      bookable: { from: null, to: null },
      changed: from === null ? ['observed'] : changed,
    });
    expect(h.body.data.changes).toEqual([
      { date: '2027-01-01', observedAt: at(0), available: { from: null, to: true }, minNights: { from: null, to: 2 }, price: null, ...rules(null, []) },
      { date: '2027-01-02', observedAt: at(0), available: { from: null, to: true }, minNights: { from: null, to: 2 }, price: null, ...rules(null, []) },
      { date: '2027-01-03', observedAt: at(0), available: { from: null, to: true }, minNights: { from: null, to: 2 }, price: null, ...rules(null, []) },
      { date: '2027-01-02', observedAt: at(2), available: { from: true, to: false }, minNights: { from: 2, to: 2 }, price: null, ...rules(false, ['available']) },
      { date: '2027-01-03', observedAt: at(2), available: { from: true, to: false }, minNights: { from: 2, to: 2 }, price: null, ...rules(false, ['available']) },
      { date: '2027-01-01', observedAt: at(3), available: { from: true, to: true }, minNights: { from: 2, to: 3 }, price: null, ...rules(false, ['minNights']) },
      { date: '2027-01-02', observedAt: at(3), available: { from: false, to: true }, minNights: { from: 2, to: 3 }, price: null, ...rules(false, ['available', 'minNights']) },
      { date: '2027-01-03', observedAt: at(3), available: { from: false, to: false }, minNights: { from: 2, to: 3 }, price: null, ...rules(false, ['minNights']) },
    ]);
    expect(h.body.data.latest.map((n) => [n.date, n.available, n.minNights])).toEqual([
      ['2027-01-01', true, 3],
      ['2027-01-02', true, 3],
      ['2027-01-03', false, 3],
    ]);
    expect(h.body.meta).toMatchObject({ creditsCharged: 0, platforms: ['vrbo'] });
    // Up to just after the bookings: their changes, and the nights as they were then.
    const then = await get(`platform=vrbo&listingId=777&startDate=2027-01-02&endDate=2027-01-04&from=${at(1)}&to=${at(2)}`);
    expect(then.status, JSON.stringify(then.body)).toBe(200);
    expect(then.body.data.changes.map((c) => [c.date, c.available])).toEqual([
      ['2027-01-02', { from: true, to: false }],
      ['2027-01-03', { from: true, to: false }],
    ]);
    expect(then.body.data.latest.map((n) => n.available)).toEqual([false, false]);
    // Paged two at a time: the same changes, no gaps, no repeats; latest on every page.
    const pages: unknown[] = [];
    let cursor: string | null = null;
    do {
      const p = await get(`platform=vrbo&listingId=777&startDate=2027-01-01&endDate=2027-01-04&from=2026-10-01&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(...p.body.data.changes);
      expect(p.body.data.latest).toEqual(h.body.data.latest);
      cursor = (p.body.meta.pagination as { nextCursor: string | null }).nextCursor;
    } while (cursor);
    expect(pages).toEqual(h.body.data.changes);
  });

  it('sandbox: a fixed synthetic history whose latest state is the sandbox calendar', async () => {
    const q = 'platform=vrbo&listingId=321&startDate=2027-02-01&endDate=2027-02-15';
    const h = await get(`${q}&from=2026-11-01&to=2027-03-01`, a.sandboxKey);
    expect(h.status).toBe(200);
    const cal = await t.req(`/v1/availability?${q}`, { key: a.sandboxKey });
    const dates = (JSON.parse(await cal.text()) as { data: { dates: { date: string; available: boolean }[] }[] }).data[0]!.dates;
    expect(h.body.data.latest.map((n) => [n.date, n.available])).toEqual(dates.map((d) => [d.date, d.available]));
    // Each taken night was booked once: a change from available to taken, before the night.
    const taken = dates.filter((d) => !d.available).map((d) => d.date);
    const bookings = h.body.data.changes.filter((c) => {
      const a = c.available as { from: boolean | null; to: boolean };
      return a.from === true && a.to === false;
    });
    expect(bookings.map((c) => c.date).sort()).toEqual(taken);
    for (const b of bookings) expect(String(b.observedAt) < `${b.date}T00:00:00.000Z`).toBe(true);
    expect((await get(`${q}&from=2026-11-01&to=2027-03-01`, a.sandboxKey)).body.data).toEqual(h.body.data);
  });

  it('bad input: typed errors, free, never a 500', async () => {
    const cases: [string, number, string, string][] = [
      ['platform=vrbo&listingId=404404&startDate=2027-01-01&endDate=2027-01-04', 404, 'listing_not_found', 'listingId'],
      ['platform=vrbo&listingId=777&startDate=2027-01-04&endDate=2027-01-01', 400, 'invalid_date_range', 'endDate'],
      ['platform=vrbo&listingId=777&startDate=2027-01-01&endDate=2028-06-01', 400, 'window_too_long', 'endDate'],
      ['platform=vrbo&listingId=777&startDate=2027-01-01&endDate=2027-01-04&from=2025-01-01&to=2027-01-01', 400, 'window_too_long', 'from'],
      ['platform=vrbo&listingId=777&startDate=2027-01-01', 400, 'missing_parameter', 'endDate'],
      ['platform=vrbo&listingId=777&startDate=2027-01-01&endDate=2027-01-04&cursor=zz', 400, 'invalid_cursor', 'cursor'],
    ];
    for (const [query, status, code, param] of cases) await expectError(await t.req(`/v1/history/availability?${query}`, { key: a.liveKey }), status, code, param);
  });
});
