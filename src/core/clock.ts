// Time comes from a clock so tests can move it.
export interface Clock {
  now(): number; // epoch milliseconds
}

export const systemClock: Clock = { now: () => Date.now() };

/** The system's clock moved to start at `start` (epoch ms) now, and run on from there (STAYS_NOW). */
export function startedClock(start: number, base: Clock = systemClock): Clock {
  const offset = start - base.now();
  return { now: () => base.now() + offset };
}

/** A clock tests can set and advance. */
export function manualClock(start = Date.UTC(2026, 0, 1)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

/** One day in milliseconds: every date rule of the service counts in UTC days. */
export const DAY_MS = 86_400_000;
/** A date's UTC midnight, epoch ms. */
export const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
/** The UTC date (YYYY-MM-DD) of an instant. */
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A date's day number: whole days since 1970-01-01, UTC (read from its digits: no Date.parse). */
export const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
/** The date of a day number. */
export const dateOfDay = (day: number) => isoDate(day * DAY_MS);
/** The date `n` days after `date` (before, for a negative n). */
export const addDays = (date: string, n: number) => isoDate(dayMs(date) + n * DAY_MS);
/** The last day asked for and its bounds [start, end) in epoch ms: asked on every search. */
let day = { start: 0, end: 0, text: '' };

/** Today's date in UTC as YYYY-MM-DD (D15: dates are validated in UTC). */
export function utcToday(clock: Clock): string {
  const now = clock.now();
  if (now >= day.start && now < day.end) return day.text;
  const start = Math.floor(now / DAY_MS) * DAY_MS;
  const text = new Date(now).toISOString().slice(0, 10);
  // Years before 0 or after 9999 are written otherwise by toISOString: not kept.
  if (text.length === 10) day = { start, end: start + DAY_MS, text };
  return text;
}
