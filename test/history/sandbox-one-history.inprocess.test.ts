// One sandbox history for every endpoint (issue 34): a sandbox listing's calendar history is the
// same whether /v1/history/availability, /v1/history/bookings or /v1/market reads it, and whatever
// window is asked (src/sources/sandbox/history.ts). Before, each endpoint made its own fake with
// other rules, so one listing had three booking histories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const FROM = '2027-03-01';
const TO = '2027-03-15';

type Change = { date: string; observedAt: string; available: { from: boolean | null; to: boolean } };
type Calendar = { changes: Change[]; latest: { date: string; available: boolean }[] };
type Bookings = { nights: { date: string; state: string }[]; bookings: { checkIn: string; bookedBefore: string; nights: number }[]; counts: Record<string, number> };

let t: TestApp;
let a: TestAccount;

const get = async <T>(path: string): Promise<T> => {
  const res = await t.req(path, { key: a.sandboxKey });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = JSON.parse(text) as { data: T; meta: { creditsCharged: number } };
  expect(body.meta.creditsCharged).toBe(0);
  return body.data;
};

const calendar = (id: string, start: string, end: string) =>
  get<Calendar>(`/v1/history/availability?platform=airbnb&listingId=${id}&startDate=${start}&endDate=${end}&from=2026-09-01&to=2027-06-01&limit=1000`);

let ids: string[] = [];

beforeAll(async () => {
  t = await startApp();
  a = await t.account();
  const listings = await get<{ listingId: string }[]>('/v1/history/listings?location=Lisbon&platforms=airbnb&limit=1000');
  ids = listings.map((l) => l.listingId);
});
afterAll(async () => t.stop());

describe('the sandbox history is one history', () => {
  it('a night reads the same whatever window holds it', async () => {
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids.slice(0, 6)) {
      const narrow = await calendar(id, FROM, TO);
      const wide = await calendar(id, '2027-02-10', '2027-04-01');
      const inNarrow = (c: { date: string }) => c.date >= FROM && c.date < TO;
      expect(wide.changes.filter(inNarrow)).toEqual(narrow.changes);
      expect(wide.latest.filter(inNarrow)).toEqual(narrow.latest);
    }
  });

  it('the bookings endpoint reads the calendar the availability endpoint shows: taken nights, and when each booking was taken', async () => {
    let booked = 0;
    for (const id of ids.slice(0, 10)) {
      const cal = await calendar(id, '2027-01-29', '2027-04-16');
      const inf = await get<Bookings>(`/v1/history/bookings?platform=airbnb&listingId=${id}&from=${FROM}&to=${TO}`);
      const latest = new Map(cal.latest.map((d) => [d.date, d.available]));
      for (const n of inf.nights) {
        // Booked and blocked nights are the nights the calendar shows taken; the rest it shows free.
        expect(['booked', 'blocked'].includes(n.state), `${id} ${n.date} ${n.state}`).toBe(latest.get(n.date) === false);
      }
      for (const b of inf.bookings) {
        booked++;
        const taken = cal.changes.find((c) => c.date === b.checkIn && c.available.to === false);
        expect(taken?.observedAt, `${id} ${b.checkIn}`).toBe(b.bookedBefore);
      }
    }
    expect(booked).toBeGreaterThan(0);
  });

  it("the market's calendar-unavailable rate and inferred booked rate are the listings' calendars and bookings, night by night", async () => {
    let nights = 0;
    let unavailable = 0;
    let bookedNights = 0;
    let forRent = 0;
    for (const id of ids) {
      const cal = await calendar(id, FROM, TO);
      nights += cal.latest.length;
      unavailable += cal.latest.filter((d) => !d.available).length;
      const inf = await get<Bookings>(`/v1/history/bookings?platform=airbnb&listingId=${id}&from=${FROM}&to=${TO}`);
      bookedNights += inf.counts.booked ?? 0;
      forRent += (inf.counts.available ?? 0) + (inf.counts.unbookable ?? 0);
    }
    type Figure = { value: number | null; sampleSize: number };
    const m = await get<{ overall: { occupancy: { calendarUnavailableRate: Figure; inferredBookedRate: Figure } } }>(`/v1/market?location=Lisbon&platforms=airbnb&from=${FROM}&to=${TO}`);
    const round = (x: number) => Math.round(x * 10_000) / 10_000;
    expect(m.overall.occupancy.calendarUnavailableRate).toMatchObject({ sampleSize: nights, value: round(unavailable / nights) });
    expect(m.overall.occupancy.inferredBookedRate).toMatchObject({ sampleSize: bookedNights + forRent, value: round(bookedNights / (bookedNights + forRent)) });
  });
});
