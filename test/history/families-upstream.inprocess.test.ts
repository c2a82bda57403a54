// Issue 37, item 1 on the real path: `stays serve` (HTTP on loopback, its SQLite file) with the
// simulated upstream answering from the calendar families (STAYS_SIM_CALENDARS=families:SEED).
// Listings are observed daily for 60 days as a deployment would (a live key's calendar calls, the
// clock moved a day at a time), half of them with their detail too (whose review count dates
// their reviews); the service's booking inference is then scored against the world's truth
// (familiesTruth), and its reviews against the stays the world reviewed.
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { dateOf, dayNumber } from '../../src/sources/sandbox/calendar.js';
import { reviewsAt } from '../../src/sources/sandbox/calendar-families.js';
import { familiesTruth, familyListingOf } from '../../src/sources/sandbox/families-upstream.js';
import { startServer } from '../../src/server.js';
import { expectError } from '../helpers/assert.js';
import { accountOn } from '../helpers/seed.js';
import { runCli, tempDir } from '../helpers/stays.js';

const SEED = 11;
const WORLD = { kind: 'families' as const, seed: SEED };
const START = Date.UTC(2027, 0, 1, 9);
const DAY_MS = 86_400_000;
const DAYS = 60;
const AHEAD = 120;
/** Listings with the families the inference's new steps read (notice, prep) and without. */
const IDS = Array.from({ length: 400 }, (_, i) => String(71_000_000 + i));
const pick = (has: string, n: number) => IDS.filter((id) => familiesTruth.familiesOf(WORLD, 'airbnb', id).includes(has as never)).slice(0, n);
const LISTINGS = [...new Set([...pick('notice', 4), ...pick('prep', 4), ...IDS])].slice(0, 12);

let stop: (() => Promise<void>) | undefined;
afterAll(async () => stop?.());

interface Night {
  date: string;
  state: string;
  confidence: number;
}
interface Bookings {
  method: string;
  nights: Night[];
  sample: { nights: number; reviews: number | null; lastObserved: string };
}
/** The listings whose detail is read daily too: their review counts are followed. */
const FOLLOWED = (id: string) => Number(id) % 2 === 0;

describe('calendar families on the simulated upstream, observed through stays serve', () => {
  it('calendars and reviews follow the families world; calendar-diff/2 reads it better than /1', async () => {
    const clock = manualClock(START);
    const dataDir = tempDir();
    const env = { STAYS_LOG_LEVEL: 'warn', STAYS_SHUTDOWN_GRACE_MS: '0', STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_CALENDARS: `families:${SEED}` };
    const server = await startServer({ port: 0, config: { dataDir }, env, logger: pino({ level: 'silent' }), clock });
    stop = async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
    const account = await accountOn(server.runtime, { credits: 1_000_000, rpm: 100_000 });
    const get = async <T>(path: string): Promise<{ data: T; meta: Record<string, unknown> }> => {
      const r = await fetch(server.url + path, { headers: { authorization: `Bearer ${account.liveKey}`, prefer: 'wait=30' } });
      const text = await r.text();
      expect(r.status, text).toBe(200);
      return JSON.parse(text) as { data: T; meta: Record<string, unknown> };
    };

    for (let day = 0; day < DAYS; day++) {
      clock.set(START + day * DAY_MS);
      const today = dateOf(Math.floor(clock.now() / DAY_MS));
      const end = dateOf(Math.floor(clock.now() / DAY_MS) + AHEAD);
      for (const id of LISTINGS) {
        const cal = await get<{ dates: { date: string; available: boolean }[] }[]>(`/v1/availability?platform=airbnb&listingId=${id}&startDate=${today}&endDate=${end}`);
        if (FOLLOWED(id)) {
          const detail = await get<{ reviewCount: number }>(`/v1/listing/airbnb/${id}`);
          expect(detail.data.reviewCount).toBe(reviewsAt(familyListingOf(WORLD, 'airbnb', id), clock.now()).length);
        }
        // What the calendar showed is the families world's at that instant: a night taken in
        // truth never shows open (the world's own tests hold the rest of each family's truth).
        if (day % 20 === 0) {
          const truth = familiesTruth.nightsAt(WORLD, 'airbnb', id, clock.now(), today, end);
          for (const d of cal.data[0]!.dates) if (truth.get(d.date) === 'booked' || truth.get(d.date) === 'blocked') expect(d.available, `${id} ${d.date}`).toBe(false);
        }
      }
    }

    // The reviews the upstream gives are the guest stays the world reviewed by now, newest first.
    const withReviews = LISTINGS.map((id) => ({ id, at: reviewsAt(familyListingOf(WORLD, 'airbnb', id), clock.now()) })).filter((x) => x.at.length > 0);
    expect(withReviews.length).toBeGreaterThan(0);
    for (const { id, at } of withReviews.slice(0, 3)) {
      const r = await get<{ date: string }[]>(`/v1/reviews?platform=airbnb&listingId=${id}&limit=100`);
      expect(r.data.map((x) => x.date)).toEqual(
        at
          .slice(-100)
          .map((t) => dateOf(Math.floor(t / DAY_MS)))
          .reverse(),
      );
    }

    // The nights observed as they passed and the nights ahead, scored against the truth now.
    const from = dateOf(Math.floor(START / DAY_MS));
    const to = dateOf(dayNumber(from) + 2 * DAYS);
    const right: Record<string, number> = { 'calendar-diff/1': 0, 'calendar-diff/2': 0 };
    let nights = 0;
    for (const id of LISTINGS) {
      const truth = familiesTruth.nightsAt(WORLD, 'airbnb', id, clock.now(), from, to);
      for (const method of Object.keys(right)) {
        const r = await get<Bookings>(`/v1/history/bookings?platform=airbnb&listingId=${id}&from=${from}&to=${to}&method=${method}`);
        expect(r.data.method).toBe(method);
        expect(r.meta.creditsCharged).toBe(0);
        expect(r.data.nights).toHaveLength(2 * DAYS);
        // calendar-diff/2 reads the reviews its review count dates: those written while followed.
        const written = reviewsAt(familyListingOf(WORLD, 'airbnb', id), clock.now()).filter((t) => t > START).length;
        expect(r.data.sample.reviews, id).toBe(method === 'calendar-diff/2' && FOLLOWED(id) ? written : null);
        if (method === 'calendar-diff/1') nights += r.data.sample.nights;
        for (const n of r.data.nights) if (n.state === truth.get(n.date)) right[method]!++;
      }
    }
    // Every night of the window was observed (the first day's calendar reached past it).
    expect(LISTINGS).toHaveLength(12);
    expect(nights).toBe(LISTINGS.length * 2 * DAYS);
    // The CLI (a child process, remote on the served API) says how many reviews /2 read.
    const followed = LISTINGS.find((id) => FOLLOWED(id) && reviewsAt(familyListingOf(WORLD, 'airbnb', id), clock.now()).some((t) => t > START))!;
    const written = reviewsAt(familyListingOf(WORLD, 'airbnb', followed), clock.now()).filter((t) => t > START).length;
    const cli = await runCli(['history', 'bookings', `airbnb:${followed}`, '--from', from, '--to', to, '--method', 'calendar-diff/2', '-o', 'table'], {
      STAYS_BASE_URL: server.url,
      STAYS_API_KEY: account.liveKey,
      CI: 'true',
      STAYS_CONFIG_DIR: dataDir,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(`${cli.stdout}${cli.stderr}`).toContain(`and ${written} review${written === 1 ? '' : 's'}, observed`);

    // Abstaining: under minConfidence the unsure nights are answered unknown with their likely
    // state, the rest as found; the nights answered are right more often than all of them.
    const min = 0.9;
    let answered = 0;
    let answeredRight = 0;
    for (const id of LISTINGS) {
      const truth = familiesTruth.nightsAt(WORLD, 'airbnb', id, clock.now(), from, to);
      const all = (await get<Bookings>(`/v1/history/bookings?platform=airbnb&listingId=${id}&from=${from}&to=${to}&method=calendar-diff/2`)).data;
      const sure = (
        await get<Bookings & { minConfidence: number; counts: Record<string, number>; bookings: { confidence: number }[] }>(
          `/v1/history/bookings?platform=airbnb&listingId=${id}&from=${from}&to=${to}&method=calendar-diff/2&minConfidence=${min}`,
        )
      ).data;
      expect(sure.minConfidence).toBe(min);
      for (const [i, n] of sure.nights.entries()) {
        const found = all.nights[i]!;
        expect(n.confidence).toBe(found.confidence);
        if (found.confidence < min) expect(n).toEqual({ date: found.date, state: 'unknown', confidence: found.confidence, likely: found.state });
        else {
          expect(n).toEqual({ ...found, likely: null });
          answered++;
          if (n.state === truth.get(n.date)) answeredRight++;
        }
      }
      expect(Object.values(sure.counts).reduce((a, b) => a + b, 0)).toBe(2 * DAYS);
      expect(sure.counts.unknown).toBe(sure.nights.filter((n) => n.state === 'unknown').length);
      expect(sure.bookings.every((b) => b.confidence >= min)).toBe(true);
    }
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(nights);
    expect(answeredRight / answered).toBeGreaterThan(right['calendar-diff/2']! / nights);
    // A bad minConfidence is a typed error, free.
    for (const bad of ['2', '-0.1', 'sure', '0.5x']) {
      const r = await fetch(`${server.url}/v1/history/bookings?platform=airbnb&listingId=${LISTINGS[0]}&from=${from}&to=${to}&minConfidence=${bad}`, {
        headers: { authorization: `Bearer ${account.liveKey}` },
      });
      await expectError(r, 400, 'invalid_parameter', 'minConfidence');
    }
    const unsure = await runCli(['history', 'bookings', `airbnb:${followed}`, '--from', from, '--to', to, '--method', 'calendar-diff/2', '--min-confidence', '0.9', '-o', 'table'], {
      STAYS_BASE_URL: server.url,
      STAYS_API_KEY: account.liveKey,
      CI: 'true',
      STAYS_CONFIG_DIR: dataDir,
    });
    expect(unsure.code, unsure.stderr).toBe(0);
    expect(`${unsure.stdout}${unsure.stderr}`).toContain('(below 0.9 sure: unknown)');

    // The market reads the same classification as history bookings, reviews included: over the
    // listings whose detail placed them (the followed ones), its booked rate is theirs.
    const placed = LISTINGS.filter(FOLLOWED);
    let booked = 0;
    let forRent = 0;
    for (const id of placed) {
      const c = (await get<{ counts: Record<string, number> }>(`/v1/history/bookings?platform=airbnb&listingId=${id}&from=${from}&to=${to}&method=calendar-diff/2`)).data.counts;
      booked += c.booked!;
      forRent += c.booked! + c.available! + c.unbookable!;
    }
    const market = (
      await get<{ bookingMethod: string; overall: { occupancy: { inferredBookedRate: { value: number; method: string; listings: number } } } }>(
        `/v1/market?bbox=-180,-90,180,90&platforms=airbnb&from=${from}&to=${to}&method=calendar-diff/2`,
      )
    ).data;
    expect(market.bookingMethod).toBe('calendar-diff/2');
    expect(market.overall.occupancy.inferredBookedRate.listings).toBe(placed.length);
    expect(market.overall.occupancy.inferredBookedRate.value).toBeCloseTo(booked / forRent, 4);

    // calendar-diff/2 reads the advance notice and preparation nights /1 takes for bookings.
    expect(right['calendar-diff/2']!).toBeGreaterThan(right['calendar-diff/1']!);
    expect(right['calendar-diff/2']! / nights).toBeGreaterThan(0.8);
  }, 180_000);

  it('answered days after the last observation, calendar-diff/2 reads the nights the booking window opened since as available', async () => {
    const clock = manualClock(START);
    const dataDir = tempDir();
    const env = { STAYS_LOG_LEVEL: 'warn', STAYS_SHUTDOWN_GRACE_MS: '0', STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_CALENDARS: `families:${SEED}:window` };
    const server = await startServer({ port: 0, config: { dataDir }, env, logger: pino({ level: 'silent' }), clock });
    try {
      const account = await accountOn(server.runtime, { credits: 1_000_000, rpm: 100_000 });
      const get = async <T>(path: string): Promise<T> => {
        const r = await fetch(server.url + path, { headers: { authorization: `Bearer ${account.liveKey}`, prefer: 'wait=30' } });
        const text = await r.text();
        expect(r.status, text).toBe(200);
        return (JSON.parse(text) as { data: T }).data;
      };
      // Two listings whose window is shorter than the calendar read (so nights past it show closed).
      const ids = IDS.filter((id) => (familyListingOf({ kind: 'families', seed: SEED, families: ['window'] }, 'airbnb', id).params.windowDays ?? 999) <= 90).slice(0, 2);
      expect(ids).toHaveLength(2);
      // Observed weekly for eight weeks, then asked five days after the last observation.
      const WEEKS = 8;
      for (let week = 0; week < WEEKS; week++) {
        clock.set(START + week * 7 * DAY_MS);
        const today = Math.floor(clock.now() / DAY_MS);
        for (const id of ids) await get(`/v1/availability?platform=airbnb&listingId=${id}&startDate=${dateOf(today)}&endDate=${dateOf(today + AHEAD)}`);
      }
      const lastDay = Math.floor(clock.now() / DAY_MS);
      clock.set(clock.now() + 5 * DAY_MS);
      const nowDay = Math.floor(clock.now() / DAY_MS);
      let opened = 0;
      for (const id of ids) {
        const w = familyListingOf({ kind: 'families', seed: SEED, families: ['window'] }, 'airbnb', id).params.windowDays!;
        const from = dateOf(lastDay + w - 10);
        const to = dateOf(nowDay + w + 10);
        const r = await get<Bookings>(`/v1/history/bookings?platform=airbnb&listingId=${id}&from=${from}&to=${to}&method=calendar-diff/2`);
        // Asked five days after the last observation.
        expect(Date.parse(r.sample.lastObserved) + 5 * DAY_MS).toBeLessThanOrEqual(clock.now());
        const state = new Map(r.nights.map((n) => [n.date, n.state]));
        const truth = familiesTruth.nightsAt({ kind: 'families', seed: SEED, families: ['window'] }, 'airbnb', id, clock.now(), from, to);
        // Past the window when last observed, within it now: free and open to guests, as the truth says.
        for (let d = lastDay + w; d < nowDay + w; d++) {
          if (truth.get(dateOf(d)) !== 'available') continue;
          expect([dateOf(d), state.get(dateOf(d))]).toEqual([dateOf(d), 'available']);
          opened++;
        }
        // Still past the window now: not yet bookable.
        for (let d = nowDay + w; d < nowDay + w + 10; d++) if (truth.get(dateOf(d)) === 'unbookable') expect(state.get(dateOf(d))).toBe('unbookable');
      }
      expect(opened).toBeGreaterThan(0);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
