// UTC calendar arithmetic on YYYY-MM-DD strings (day numbers since 1970-01-01), and the sandbox
// booking calendar: a listing's booked runs are a pure function of (platform, id, day), so any two
// windows agree on the days they share.
import { rng } from './prng.js';
import { DAY_MS } from '../../core/clock.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 (UTC) of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  const m = DATE.exec(date);
  if (!m) throw new Error(`Not a YYYY-MM-DD date: ${date}`);
  return Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
}

/** Dates already written out: calendars read the same few hundred days over and over. */
const DATES = new Map<number, string>();

export function dateOf(day: number): string {
  let d = DATES.get(day);
  if (d === undefined) {
    if (DATES.size >= 100_000) DATES.clear();
    DATES.set(day, (d = new Date(day * DAY_MS).toISOString().slice(0, 10)));
  }
  return d;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** 0 = January … 11 = December. */
export function monthOf(day: number): number {
  return new Date(day * DAY_MS).getUTCMonth();
}

export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.max(1, dayNumber(checkOut) - dayNumber(checkIn));
}

/**
 * A night's minimum stay where the platform states one (airbnb, vrbo): the listing's own, two
 * more in a peak chunk (15 % of them), at most 7. The calendar states it; the moving world's
 * guests obey it (moving.ts).
 */
export function minNightsOn(platform: string, id: string, base: number, chunk: number): number {
  const peak = rng('min-nights', platform, id, chunk).chance(0.15);
  return Math.min(7, base + (peak ? 2 : 0));
}

const CHUNK = 7;
const BOOKING_CHANCE = 0.45;

interface Block {
  start: number;
  end: number; // exclusive
}

/**
 * A listing's booking calendar. Days are grouped in 7-day chunks (offset per listing); each chunk
 * holds a booking of 2–8 nights with probability 0.45, which may spill into the next chunk. That
 * books about 30% of days in realistic runs.
 */
export class BookingCalendar {
  private readonly offset: number;
  private readonly blocks = new Map<number, Block | null>();

  constructor(
    private readonly platform: string,
    private readonly id: string,
  ) {
    this.offset = rng('calendar-offset', platform, id).int(0, CHUNK - 1);
  }

  private block(chunk: number): Block | null {
    const cached = this.blocks.get(chunk);
    if (cached !== undefined) return cached;
    const r = rng('calendar', this.platform, this.id, chunk);
    let b: Block | null = null;
    if (r.chance(BOOKING_CHANCE)) {
      const start = chunk * CHUNK - this.offset + r.int(0, CHUNK - 1);
      b = { start, end: start + r.int(2, 8) };
    }
    this.blocks.set(chunk, b);
    return b;
  }

  /**
   * The run of booked nights `day` belongs to, or null for a free night: its chunk's block. Two
   * blocks may overlap (a block spills into the next chunk); the earlier owns the nights they
   * share, so the later begins where the earlier ends. The union of the runs is exactly the
   * booked nights (isBooked); the moving world (moving.ts) makes each run one booking or block.
   */
  stayOf(day: number): { chunk: number; start: number; end: number } | null {
    const c = this.chunkOf(day);
    const prev = this.block(c - 1);
    if (prev && day >= prev.start && day < prev.end) return this.owned(c - 1, prev);
    const cur = this.block(c);
    if (cur && day >= cur.start && day < cur.end) return this.owned(c, cur);
    return null;
  }

  private owned(chunk: number, b: Block): { chunk: number; start: number; end: number } {
    const before = this.block(chunk - 1);
    return { chunk, start: before ? Math.max(b.start, before.end) : b.start, end: b.end };
  }

  chunkOf(day: number): number {
    return Math.floor((day + this.offset) / CHUNK);
  }

  isBooked(day: number): boolean {
    const c = this.chunkOf(day);
    for (const b of [this.block(c - 1), this.block(c)]) if (b && day >= b.start && day < b.end) return true;
    return false;
  }

  /** Consecutive free nights starting at day, counted up to limit. */
  freeRun(day: number, limit: number): number {
    let n = 0;
    while (n < limit && !this.isBooked(day + n)) n++;
    return n;
  }
}
