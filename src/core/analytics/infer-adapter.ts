// The booking inference the market metrics read (issue 27, item 1), behind one small adapter: a
// listing's calendar observations in, each night's state and the bookings out. Until the
// calendar-diff/1 module (./bookings.ts) is part of this branch, a local reading of the same
// interface stands in for it: a night seen available and later unavailable is booked (a run of
// such nights first seen unavailable by the same observation is one booking, priced at the last
// price seen before), a night never seen available is unknown.
import type { ObservationRow } from '../ports/store.js';

const DAY_MS = 86_400_000;

export type NightState = 'available' | 'booked' | 'blocked' | 'unbookable' | 'unknown';

export interface InferredBooking {
  checkIn: string;
  checkOut: string;
  nights: number;
  leadTimeDays: number | null;
  lastPriceSeen: number | null;
}

export interface ListingInference {
  nights: { date: string; state: NightState }[];
  bookings: InferredBooking[];
}

const LOCAL_METHOD = 'calendar-diff-local/0';

/** The id of the inference method the booked figures use. */
export const inferenceMethod = (): string => LOCAL_METHOD;

/** A price row's stay: check-in and check-out from its key (`checkIn/checkOut/adults`, after `@` for a search). */
export function stayOfKey(key: string): { checkIn: string; checkOut: string } | null {
  const stay = key.includes('@') ? key.slice(key.lastIndexOf('@') + 1) : key;
  const m = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\//.exec(stay);
  return m ? { checkIn: m[1]!, checkOut: m[2]! } : null;
}

const dateMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The nightly price last observed, before `at`, for a stay that includes the night. */
function lastPriceBefore(prices: readonly ObservationRow[], night: string, at: number): number | null {
  let best: ObservationRow | null = null;
  for (const r of prices) {
    const s = stayOfKey(r.key);
    const p = (r.value as { nightlyPrice?: number | null }).nightlyPrice ?? null;
    if (s === null || p === null || night < s.checkIn || night >= s.checkOut || r.firstSeen > at) continue;
    if (best === null || r.lastSeen > best.lastSeen) best = r;
  }
  return best === null ? null : ((best.value as { nightlyPrice: number }).nightlyPrice ?? null);
}

/** Each night of [from, to) of one listing, and the bookings its calendar observations imply. */
export function inferListing(days: readonly ObservationRow[], prices: readonly ObservationRow[], from: string, to: string): ListingInference {
  const byNight = new Map<string, ObservationRow[]>();
  for (const r of days) {
    if (r.key < from || r.key >= to) continue;
    const list = byNight.get(r.key) ?? [];
    list.push(r);
    byNight.set(r.key, list);
  }
  const nights: ListingInference['nights'] = [];
  // Booked nights with when they were seen taken: consecutive ones taken at once are one booking.
  const taken: { date: string; at: number; after: number }[] = [];
  for (let d = dateMs(from); d < dateMs(to); d += DAY_MS) {
    const date = isoDate(d);
    const rows = (byNight.get(date) ?? []).sort((a, b) => a.firstSeen - b.firstSeen || a.id - b.id);
    const last = rows.at(-1);
    if (last === undefined) {
      nights.push({ date, state: 'unknown' });
      continue;
    }
    if ((last.value as { available: boolean }).available) {
      nights.push({ date, state: 'available' });
      continue;
    }
    const open = [...rows].reverse().find((r) => (r.value as { available: boolean }).available);
    if (open === undefined) {
      nights.push({ date, state: 'unknown' });
      continue;
    }
    const closed = rows.find((r) => r.firstSeen > open.firstSeen && !(r.value as { available: boolean }).available)!;
    nights.push({ date, state: 'booked' });
    taken.push({ date, at: closed.firstSeen, after: open.lastSeen });
  }
  const bookings: InferredBooking[] = [];
  let run: typeof taken = [];
  const close = () => {
    if (run.length === 0) return;
    const first = run[0]!;
    const checkOut = isoDate(dateMs(run.at(-1)!.date) + DAY_MS);
    bookings.push({
      checkIn: first.date,
      checkOut,
      nights: run.length,
      leadTimeDays: Math.max(0, Math.floor((dateMs(first.date) - first.at) / DAY_MS)),
      lastPriceSeen: lastPriceBefore(prices, first.date, first.after),
    });
    run = [];
  };
  for (const t of taken) {
    const prev = run.at(-1);
    if (prev && (dateMs(t.date) !== dateMs(prev.date) + DAY_MS || t.at !== prev.at)) close();
    run.push(t);
  }
  close();
  return { nights, bookings };
}
