// Time comes from a clock so tests can move it.
export interface Clock {
  now(): number; // epoch milliseconds
}

export const systemClock: Clock = { now: () => Date.now() };

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

/** Today's date in UTC as YYYY-MM-DD (D15: dates are validated in UTC). */
export function utcToday(clock: Clock): string {
  return new Date(clock.now()).toISOString().slice(0, 10);
}
