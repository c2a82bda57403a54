// What a calendar row says, read the same way by every booking-inference method (./bookings.ts,
// ./bookings-v2.ts).
import type { ObservationRow } from '../ports/store/observations.js';
import type { DayValue } from '../schemas/observations.js';

/** 0 Sunday … 6 Saturday, of a day number. */
export const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;

export type DayRow = ObservationRow<'day'>;

export const isAvailable = (r: DayRow) => r.value.available === true;

/** Whether a guest could check in on the day, by its row: the stated rule, else bookable, else free. */
export function checkInAllowed(v: DayValue): boolean {
  if (v.available !== true) return false;
  if (typeof v.checkIn === 'boolean') return v.checkIn;
  if (typeof v.bookable === 'boolean') return v.bookable;
  return true;
}

/** What one night's rows say: its latest state and, when taken, the change that took it. */
export interface NightRead {
  day: number;
  rows: DayRow[];
  latest: DayRow;
  /** When it turned unavailable: after (last seen free; null: never seen free) and before (first seen taken). */
  after: number | null;
  before: number;
  /** The row seen just before it was taken (null: never seen free). */
  lastFree: DayRow | null;
}

/** A run of taken nights that changed together: one hold. */
export interface Group {
  nights: NightRead[];
  /** The intersection of the nights' brackets. */
  after: number | null;
  before: number;
}
