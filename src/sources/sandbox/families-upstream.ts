// The calendar families on the simulated upstream (issue 37, item 1; docs/sandbox.md, "Calendar
// families on the simulated upstream"): with STAYS_SIM_CALENDARS=families (or families:SEED), a
// live key's calendars and reviews on STAYS_UPSTREAM=simulated come from the world of
// calendar-families.ts instead of the moving world's: every listing is a family listing of that
// seed, its index a hash of its platform and id, and each family switched on for it with even
// odds (the bench's mixed world, the held-out families included). The calendar a call gets is
// the listing's at the services' clock; the reviews are the guest stays reviewed by then, and a
// listing's detail counts them (search rows state no review count). Searches, listings and quotes
// are otherwise the moving world's. Pure: the same seed, listing and instant give the
// same answer on every process and machine, so instances sharing a store agree, and a test scores
// what the service inferred against familiesTruth.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Availability, AvailabilityDay, Review } from '../../core/schemas/resources.js';
import { dateOf, dayNumber } from './calendar.js';
import { FAMILIES, type Family, type FamilyListing, type Item, type TruthState, bookingsAt, calendarAt, familyListing, minNightsAt, reviewsAt, truthAt } from './calendar-families.js';
import { coreFor } from './core.js';
import { hash32, rng } from './prng.js';
import { reviewsFor } from './reviews.js';

const DAY_MS = 86_400_000;

/** Which calendars the simulated upstream answers with (STAYS_SIM_CALENDARS); `families`: the same on every listing, or absent: each drawn with even odds. */
export type SimCalendars = { kind: 'moving' } | FamiliesWorld;
/** The families world of a seed: `families` on every listing, or absent: each drawn per listing with even odds. */
export interface FamiliesWorld {
  kind: 'families';
  seed: number;
  families?: readonly Family[];
}

/** The seed of `families` without one. */
const DEFAULT_FAMILIES_SEED = 0;

/** STAYS_SIM_CALENDARS, as src/core/settings.ts let it through: `moving` (or unset) or `families[:SEED[:FAMILIES]]`. */
export function parseSimCalendars(value: string | undefined): SimCalendars {
  const m = value === undefined ? null : /^families(?::(\d{1,9})(?::([A-Za-z,]+))?)?$/.exec(value);
  if (!m) return { kind: 'moving' };
  const seed = m[1] === undefined ? DEFAULT_FAMILIES_SEED : Number(m[1]);
  if (m[2] === undefined) return { kind: 'families', seed };
  const named = m[2] === 'none' ? [] : m[2].split(',');
  return { kind: 'families', seed, families: FAMILIES.filter((f) => named.includes(f)) };
}

/** The nights a family listing's plan covers: 2025 to 2030, whatever the clock (a pure function of the listing alone). */
const SPAN = { from: dayNumber('2025-01-01'), to: dayNumber('2030-01-01') };

/** The families a listing has: each with even odds, drawn per seed and listing. */
function familiesOf(seed: number, index: number): Family[] {
  const r = rng('sim-families', seed, index);
  return FAMILIES.filter(() => r.chance(0.5));
}

/** A plan costs a few milliseconds to draw: the recent ones are kept (a few KB each). */
const MEMO_ENTRIES = 256;
const memo = new Map<string, FamilyListing>();

/** The family listing behind a simulated listing. */
export function familyListingOf(w: FamiliesWorld, platform: EnabledPlatform, id: string): FamilyListing {
  const { seed, families } = w;
  const key = `${seed}\t${families?.join(',') ?? '*'}\t${platform}\t${id}`;
  const hit = memo.get(key);
  if (hit) {
    memo.delete(key);
    memo.set(key, hit);
    return hit;
  }
  const index = hash32('sim-family-listing', platform, id);
  const l = familyListing(seed, index, families ?? familiesOf(seed, index), SPAN);
  memo.set(key, l);
  if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  return l;
}

/**
 * The calendar of [startDate, endDate) at instant `at`, as the platform states it (booking:
 * availability and bookable; google: availability only; airbnb and vrbo every rule). Nights
 * before today show closed, as a platform's calendar shows the past.
 */
export function familiesAvailability(w: FamiliesWorld, platform: EnabledPlatform, id: string, startDate: string, endDate: string, at: number, soldOut: boolean): Availability {
  const l = familyListingOf(w, platform, id);
  const today = Math.floor(at / DAY_MS);
  const start = dayNumber(startDate);
  const end = dayNumber(endDate);
  const ahead = new Map(calendarAt(l, at, Math.max(0, end - today)).map((d) => [d.day, d]));
  const dates: AvailabilityDay[] = [];
  for (let d = start; d < end; d++) {
    const shown = d >= today ? ahead.get(d) : undefined;
    const available = !soldOut && shown !== undefined && shown.available;
    const date = dateOf(d);
    if (platform === 'google') dates.push({ date, available, minNights: null, checkIn: null, checkOut: null, bookable: null });
    else if (platform === 'booking') dates.push({ date, available, minNights: null, checkIn: null, checkOut: null, bookable: available });
    else {
      const checkIn = available && shown.checkIn;
      dates.push({ date, available, minNights: shown?.minNights ?? minNightsAt(l.params, d, at), checkIn, checkOut: !soldOut && shown !== undefined && shown.checkOut, bookable: checkIn });
    }
  }
  return { platform, listingId: id, dates };
}

/** How many reviews the listing's guests wrote by instant `at` (its detail's review count). */
export function familiesReviewCount(w: FamiliesWorld, platform: EnabledPlatform, id: string, at: number): number {
  return reviewsAt(familyListingOf(w, platform, id), at).length;
}

/**
 * The listing's reviews at instant `at`, newest first: one for each guest stay reviewed by then
 * (calendar-families.ts, reviewsAt), dated the day it was written, its words the sandbox's.
 */
export function familiesReviews(w: FamiliesWorld, platform: EnabledPlatform, id: string, at: number): Review[] {
  const l = familyListingOf(w, platform, id);
  const written = reviewsAt(l, at);
  if (written.length === 0) return [];
  const words = reviewsFor(platform, id);
  const scale = coreFor(platform, id).ratingScale;
  return written
    .map((t, i): Review => {
      const base = words.length > 0 ? words[i % words.length] : undefined;
      const reviewId = `${hash32('sim-family-review', w.seed, platform, id, t).toString(16).padStart(8, '0')}${i.toString(16).padStart(4, '0')}`;
      const date = dateOf(Math.floor(t / DAY_MS));
      if (base) return { ...base, reviewId, date };
      return {
        platform,
        listingId: id,
        reviewId,
        rating: scale,
        ratingScale: scale,
        title: null,
        text: null,
        author: null,
        date,
        tripType: null,
        language: null,
        ownerResponse: null,
        liked: null,
        disliked: null,
      };
    })
    .reverse();
}

/** What a family listing of the simulated upstream truly is (for tests and benches; never read by the service). */
export const familiesTruth = {
  /** Each night of [from, to) (dates) at instant `at`. */
  nightsAt(w: FamiliesWorld, platform: EnabledPlatform, id: string, at: number, from: string, to: string): Map<string, TruthState> {
    const truth = truthAt(familyListingOf(w, platform, id), at, dayNumber(from), dayNumber(to));
    return new Map([...truth].map(([d, s]) => [dateOf(d), s]));
  },
  /** The guest bookings live at `at` with a night in [from, to). */
  bookingsAt(w: FamiliesWorld, platform: EnabledPlatform, id: string, at: number, from: string, to: string): Item[] {
    return bookingsAt(familyListingOf(w, platform, id), at, dayNumber(from), dayNumber(to));
  },
  /** The listing's families. */
  familiesOf(w: FamiliesWorld, platform: EnabledPlatform, id: string): readonly Family[] {
    return familyListingOf(w, platform, id).params.families;
  },
};
