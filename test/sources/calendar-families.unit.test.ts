// The calendar families (issue 37, item 1): each family's behaviour and its truth, night by night,
// read from the world itself (src/sources/sandbox/calendar-families.ts).
import { describe, expect, it } from 'vitest';
import {
  type Family,
  type FamilyListing,
  REVIEW_WINDOW_DAYS,
  bookingsAt,
  calendarAt,
  familyListing,
  minNightsAt,
  reviewRate,
  reviewsAt,
  truthAt,
  weekdayOf,
} from '../../src/sources/sandbox/calendar-families.js';

const DAY = 86_400_000;
const START = Date.UTC(2027, 0, 1) / DAY;
const SPAN = { from: START - 60, to: START + 240 };

function listings(family: Family, n = 20): FamilyListing[] {
  return Array.from({ length: n }, (_v, i) => familyListing(3, i, [family], SPAN));
}

/** The calendar shown at t, by day. */
const shown = (l: FamilyListing, t: number) => new Map(calendarAt(l, t, 150).map((d) => [d.day, d]));

describe('calendar families', () => {
  it('is deterministic by seed, and another seed is another world', () => {
    expect(familyListing(3, 1, ['owner', 'cancel'], SPAN)).toEqual(familyListing(3, 1, ['owner', 'cancel'], SPAN));
    expect(familyListing(4, 1, ['owner', 'cancel'], SPAN).items).not.toEqual(familyListing(3, 1, ['owner', 'cancel'], SPAN).items);
  });

  it('advance notice: nights within the notice show closed though they are free in truth', () => {
    let seen = 0;
    for (const l of listings('notice').filter((l) => l.params.noticeDays >= 1)) {
      const t = (START + 30) * DAY + 13 * 3_600_000;
      const today = START + 30;
      const cal = shown(l, t);
      const truth = truthAt(l, t, today, today + 10);
      for (let d = today; d < today + l.params.noticeDays; d++) {
        expect(cal.get(d)!.available).toBe(false);
        if (truth.get(d) === 'available') seen++;
      }
      // Past the notice, a free night in truth shows free.
      for (let d = today + l.params.noticeDays + 1; d < today + 10; d++) if (truth.get(d) === 'available') expect(cal.get(d)!.available).toBe(true);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('preparation time: the nights around a live booking are blocked in truth, not booked, and shown closed', () => {
    let seen = 0;
    for (const l of listings('prep')) {
      const t = (START + 100) * DAY;
      const truth = truthAt(l, t, START, START + 200);
      const cal = shown(l, t);
      for (const b of bookingsAt(l, t, START + 100, START + 200)) {
        const before = b.start - 1;
        if (l.items.some((it) => it !== b && it.start <= before && before < it.end)) continue;
        expect(truth.get(before)).toBe('blocked');
        expect(truth.get(b.start)).toBe('booked');
        if (cal.has(before)) expect(cal.get(before)!.available).toBe(false);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(10);
  });

  it('cancellations: a cancelled booking is booked until it is cancelled, its nights free in truth afterwards (unless booked again)', () => {
    let seen = 0;
    let lastWeek = 0;
    for (const l of listings('cancel', 40)) {
      for (const b of l.items.filter((it) => it.cancelledAt !== null)) {
        const during = Math.floor((b.madeAt + b.cancelledAt!) / 2);
        expect(truthAt(l, during, b.start, b.end).get(b.start)).toBe('booked');
        const again = l.items.some((it) => it !== b && it.start === b.start && it.madeAt > b.cancelledAt!);
        const after = truthAt(l, b.cancelledAt!, b.start, b.end).get(b.start);
        if (!again) expect(['available', 'unbookable']).toContain(after);
        if (b.start * DAY - b.cancelledAt! <= 7 * DAY) lastWeek++;
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(10);
    // Often in the last week before check-in.
    expect(lastWeek / seen).toBeGreaterThan(0.3);
  });

  it("the host's holds (owner stays far ahead, short maintenance, direct bookings, a snooze) are blocked in truth and shown closed once made", () => {
    const cases: [Family, (n: number, lead: number) => boolean][] = [
      ['owner', (n, lead) => n >= 5 && n <= 30 && lead >= 45],
      ['maintenance', (n, lead) => n >= 1 && n <= 3 && lead >= 0 && lead <= 21],
      ['direct', (n) => n >= 2 && n <= 9],
      ['snooze', (n) => n >= 14 && n <= 60],
    ];
    for (const [family, shape] of cases) {
      let seen = 0;
      for (const l of listings(family)) {
        for (const h of l.items.filter((it) => it.kind === family)) {
          expect(shape(h.end - h.start, Math.floor((h.start * DAY - h.madeAt) / DAY)), family).toBe(true);
          const t = Math.max(h.madeAt, (h.start - 5) * DAY);
          if (Math.floor(t / DAY) > h.start) continue;
          expect(truthAt(l, t, h.start, h.end).get(h.start), family).toBe('blocked');
          expect(shown(l, t).get(h.start)?.available, family).toBe(false);
          seen++;
        }
      }
      expect(seen, family).toBeGreaterThan(0);
    }
  });

  it('a rolling booking window closes the nights past it: unbookable in truth, and guests book no further ahead', () => {
    for (const l of listings('window')) {
      const w = l.params.windowDays!;
      const t = (START + 20) * DAY;
      const cal = shown(l, t);
      if (w < 150) expect(cal.get(START + 20 + w + 1)!.available).toBe(false);
      const truth = truthAt(l, t, START + 20 + w, START + 20 + Math.min(w + 10, 149));
      for (const [d, s] of truth) if (!l.items.some((it) => it.start <= d && d < it.end && it.madeAt <= t)) expect(s, String(d)).toBe('unbookable');
      for (const b of l.items.filter((it) => it.kind === 'booking')) expect(b.start * DAY - b.madeAt).toBeLessThanOrEqual((w + 1) * DAY);
    }
  });

  it('long-lead bookings: some guests book more than 90 days (up to a year) ahead', () => {
    const leads = listings('longLead').flatMap((l) => l.items.filter((it) => it.kind === 'booking').map((b) => (b.start * DAY - b.madeAt) / DAY));
    expect(leads.some((x) => x > 90)).toBe(true);
    expect(Math.max(...leads)).toBeLessThanOrEqual(366);
  });

  it('weekly rentals run Saturday to Saturday; closed check-in days are never a guest check-in and are shown closed for it', () => {
    let weekly = 0;
    let closed = 0;
    for (const l of listings('weekly', 30)) {
      for (const b of l.items.filter((it) => it.kind === 'booking')) {
        if (l.params.weeklyRental) {
          expect(weekdayOf(b.start)).toBe(6);
          expect(weekdayOf(b.end)).toBe(6);
          weekly++;
        } else {
          expect(l.params.closedCheckIn).not.toContain(weekdayOf(b.start));
          closed++;
        }
      }
      for (const d of calendarAt(l, START * DAY, 60)) if (l.params.closedCheckIn.includes(weekdayOf(d.day))) expect(d.checkIn).toBe(false);
    }
    expect(weekly).toBeGreaterThan(0);
    expect(closed).toBeGreaterThan(0);
  });

  it('minimum stays change by date and once in time, and every guest booking obeys the rule of the instant it was made', () => {
    let changed = 0;
    for (const l of listings('minStay')) {
      const at = l.params.minChangeAt!;
      if (minNightsAt(l.params, START + 150, at - 1) !== minNightsAt(l.params, START + 150, at)) changed++;
      for (const b of l.items.filter((it) => it.kind === 'booking')) expect(b.end - b.start).toBeGreaterThanOrEqual(minNightsAt(l.params, b.start, b.madeAt));
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('reviews: each follows a guest stay that took place, within 14 days of its check-out; host holds, direct bookings and cancelled bookings never get one; about half to three quarters of stays do', () => {
    const t = SPAN.to * DAY;
    let stays = 0;
    let reviewed = 0;
    for (let i = 0; i < 30; i++) {
      const l = familyListing(5, i, ['owner', 'maintenance', 'direct', 'cancel', 'snooze'], SPAN);
      const rate = reviewRate(l);
      expect(rate).toBeGreaterThanOrEqual(0.5);
      expect(rate).toBeLessThanOrEqual(0.75);
      const reviews = reviewsAt(l, t);
      const guest = l.items.filter((it) => it.kind === 'booking' && it.cancelledAt === null);
      for (const r of reviews) {
        expect(r).toBeLessThanOrEqual(t);
        // A guest who stayed checked out in the 14 days before it.
        expect(guest.some((b) => b.end * DAY <= r && r <= (b.end + REVIEW_WINDOW_DAYS) * DAY)).toBe(true);
      }
      // Stays whose window closed: reviewed or not, each at most once.
      for (const b of guest.filter((b) => (b.end + REVIEW_WINDOW_DAYS) * DAY <= t)) {
        stays++;
        if (reviews.some((r) => b.end * DAY <= r && r <= (b.end + REVIEW_WINDOW_DAYS) * DAY)) reviewed++;
      }
      // The reviews known at an instant are those written by then.
      expect(reviewsAt(l, (SPAN.from + 100) * DAY)).toEqual(reviews.filter((r) => r <= (SPAN.from + 100) * DAY));
    }
    expect(stays).toBeGreaterThan(100);
    expect(reviewed / stays).toBeGreaterThan(0.5);
    expect(reviewed / stays).toBeLessThan(0.8);
  });

  it('reviews: a host never gets one for its holds (a listing with no guests has none)', () => {
    // A listing's host holds alone: a world where every guest booking is dropped keeps no review.
    for (let i = 0; i < 10; i++) {
      const l = familyListing(5, i, ['owner', 'maintenance', 'direct', 'snooze'], SPAN);
      const hostOnly = { ...l, items: l.items.filter((it) => it.kind !== 'booking') };
      expect(reviewsAt(hostOnly, SPAN.to * DAY)).toEqual([]);
    }
  });
});
