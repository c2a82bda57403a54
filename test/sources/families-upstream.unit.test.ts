// The calendar families on the simulated upstream's world (src/sources/sandbox/families-upstream.ts):
// with a clock and `calendars: families`, a calendar is the family listing's at the instant (each
// platform stating its own fields, the past closed), reviews are the stays reviewed by then and
// counted by the listing's detail, search rows state no review count, and named families are on
// every listing. Without it, the moving world's answers are unchanged.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { dateOf, dayNumber } from '../../src/sources/sandbox/calendar.js';
import { calendarAt, reviewsAt } from '../../src/sources/sandbox/calendar-families.js';
import { type FamiliesWorld, familiesTruth, familyListingOf } from '../../src/sources/sandbox/families-upstream.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

const AT = Date.UTC(2027, 2, 10, 15);
const TODAY = Math.floor(AT / 86_400_000);

describe('the calendar families on the simulated upstream', () => {
  it("shows each listing's family calendar at the clock, per platform's fields, the past closed", () => {
    const w: FamiliesWorld = { kind: 'families', seed: 5 };
    const world = createSandboxWorld({ clock: manualClock(AT), calendars: w });
    for (const id of ['101', '202', '303']) {
      const shown = new Map(calendarAt(familyListingOf(w, 'airbnb', id), AT, 60).map((d) => [dateOf(d.day), d]));
      const a = world.availability('airbnb', id, dateOf(TODAY - 3), dateOf(TODAY + 60));
      expect(a.dates).toHaveLength(63);
      for (const d of a.dates) {
        const s = shown.get(d.date);
        if (dayNumber(d.date) < TODAY) expect(d).toMatchObject({ available: false, checkIn: false, bookable: false });
        else expect(d).toEqual({ date: d.date, available: s!.available, minNights: s!.minNights, checkIn: s!.checkIn, checkOut: s!.checkOut, bookable: s!.checkIn });
      }
      const b = world.availability('booking', id, dateOf(TODAY), dateOf(TODAY + 30));
      expect(b.dates.every((d) => d.minNights === null && d.checkIn === null && d.bookable === d.available)).toBe(true);
      const g = world.availability('google', id, dateOf(TODAY), dateOf(TODAY + 30));
      expect(g.dates.every((d) => d.bookable === null && d.minNights === null)).toBe(true);
    }
  });

  it('answers the reviews written by then, newest first, counted by the detail; search rows count none', () => {
    const w: FamiliesWorld = { kind: 'families', seed: 5 };
    const world = createSandboxWorld({ clock: manualClock(AT), calendars: w });
    const id = ['101', '202', '303', '404', '505'].find((x) => reviewsAt(familyListingOf(w, 'airbnb', x), AT).length > 1)!;
    const written = reviewsAt(familyListingOf(w, 'airbnb', id), AT);
    expect(world.reviews('airbnb', id).map((r) => r.date)).toEqual(written.map((t) => dateOf(Math.floor(t / 86_400_000))).reverse());
    expect(world.listing('airbnb', id, { currency: 'USD', requestedId: id }).reviewCount).toBe(written.length);
    const rows = world.searchPlatform('airbnb', 'Lisbon', { currency: 'USD', rooms: 1 });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.reviewCount === null)).toBe(true);
    // The moving world (the default) keeps its counts.
    const moving = createSandboxWorld({ clock: manualClock(AT) });
    expect(moving.searchPlatform('airbnb', 'Lisbon', { currency: 'USD', rooms: 1 }).some((r) => r.reviewCount !== null)).toBe(true);
  });

  it('puts named families on every listing, and draws them per listing otherwise', () => {
    const named: FamiliesWorld = { kind: 'families', seed: 5, families: ['notice', 'prep'] };
    const ids = Array.from({ length: 20 }, (_, i) => String(9000 + i));
    expect(ids.every((id) => familiesTruth.familiesOf(named, 'airbnb', id).join(',') === 'notice,prep')).toBe(true);
    const drawn = new Set(ids.map((id) => familiesTruth.familiesOf({ kind: 'families', seed: 5 }, 'airbnb', id).join(',')));
    expect(drawn.size).toBeGreaterThan(5);
  });
});
