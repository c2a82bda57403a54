// What no calendar-only method can get right on the families' mixed development world (issue 37;
// docs/analytics.md, "The ceiling"): development (even) seeds only, daily and weekly, each
// listing polled at its own hour as test/helpers/family-sim.ts polls it. Three kinds of taken
// night are counted, each once:
//
// - unseen: taken (a booking or its preparation nights) after the last poll that showed the night,
//   so no calendar read ever showed it taken;
// - a direct booking shaped as a guest's: the host's hold (blocked in truth) of a length the rules
//   allow (the minimum stay at most 13 nights over it), starting on a day guests may check in on
//   (on a listing with p preparation nights, the hold less p nights each side, which read as
//   preparation): in a calendar the same as a guest's stay, which are many more, so any method
//   calls those nights booked;
// - an owner stay shaped as a guest's, taken before the listing's first poll, starting within the
//   guests' booking window of it (90 days, 365 with longLead): the same as a guest's stay taken
//   before observation began.
//
// 100 % less their share is an upper bound on nights right for any method reading calendars alone.
//
//   node bench/run.mjs ceiling   # or this file; BENCH_CEILING_SEEDS=2,4,…,16 (the default)
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const SEEDS = (process.env.BENCH_CEILING_SEEDS ?? '2,4,6,8,10,12,14,16').split(',').map(Number);
const LISTINGS = 40;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const START = Date.UTC(2027, 0, 1);

/**
 * The ceiling's class of night `d` of listing `l` (world seed `seed`, polled every `every` hours
 * at its own hour), or null: the first live item covering it that makes it unseen, a direct
 * booking shaped as a guest's, or an owner stay shaped as a guest's taken before observation.
 * `fam` is calendar-families.ts, `rng` prng.ts's (bench/errors-v2.mjs reads it too).
 */
export function ceilingClass({ fam, rng }, l, d, every, seed) {
  const p = l.params;
  const end = START + 90 * DAY - 1;
  const first = START + rng('poll-hour', seed, l.index).int(0, 23) * HOUR;
  let lastPoll = -1;
  for (let t = first; t < START + 90 * DAY; t += every * HOUR) if (Math.floor(t / DAY) <= d) lastPoll = t;
  const window = p.families.includes('longLead') ? 365 : 90;
  // A hold as a guest's stay would show it: on a listing with preparation nights, its p nights
  // each side are those, and the stay between them must be one the rules allow.
  const guestShaped = (it, strip) => {
    const start = it.start + strip;
    const nights = it.end - it.start - 2 * strip;
    const min = fam.minNightsAt(p, start, it.madeAt);
    const day = fam.weekdayOf(start);
    const checkIn = p.weeklyRental ? day === 6 && nights % 7 === 0 : !p.closedCheckIn.includes(day);
    return nights >= min && nights <= min + 13 && checkIn;
  };
  for (const it of l.items) {
    if (it.madeAt > end || (it.cancelledAt !== null && it.cancelledAt <= end)) continue;
    const prep = it.kind === 'booking' ? p.prepNights : 0;
    if (d < it.start - prep || d >= it.end + prep) continue;
    const inStay = d >= it.start && d < it.end;
    // The nights a host's hold would show as a guest's stay (its sides as preparation).
    const asStay = d >= it.start + p.prepNights && d < it.end - p.prepNights && guestShaped(it, p.prepNights);
    if (lastPoll >= 0 && it.madeAt > lastPoll) return 'unseen';
    if (it.kind === 'direct' && inStay && asStay) return 'direct';
    if (it.kind === 'owner' && inStay && asStay && it.madeAt < first && it.start - Math.floor(first / DAY) <= window) return 'owner';
  }
  return null;
}

export async function benchCeiling() {
  if (SEEDS.some((s) => s % 2 !== 0)) throw new Error('the ceiling reads development (even) seeds only');
  const here = (p) => pathToFileURL(new URL(p, import.meta.url).pathname).href;
  const fam = await tsImport(here('../src/sources/sandbox/calendar-families.ts'), import.meta.url);
  const sim = await tsImport(here('../test/helpers/family-sim.ts'), import.meta.url);
  const { rng } = await tsImport(here('../src/sources/sandbox/prng.ts'), import.meta.url);
  const startDay = Math.floor(START / DAY);
  const scoreTo = startDay + 180;
  const end = START + 90 * DAY - 1;
  const rows = [];
  for (const every of [24, 168]) {
    const n = { nights: 0, unseen: 0, direct: 0, owner: 0 };
    for (const seed of SEEDS)
      for (let i = 0; i < LISTINGS; i++) {
        const r = rng('family-mix', seed, i);
        const families = fam.FAMILIES.filter((f) => r.chance(0.5) && !sim.HELD_OUT_FAMILIES.includes(f));
        const l = fam.familyListing(seed, i, families, { from: startDay - 60, to: scoreTo + 60 });
        for (const [d, t] of fam.truthAt(l, end, startDay, scoreTo)) {
          n.nights++;
          const c = t === 'booked' || t === 'blocked' ? ceilingClass({ fam, rng }, l, d, every, seed) : null;
          if (c) n[c]++;
        }
      }
    const pct = (x) => `${((100 * x) / n.nights).toFixed(2)} %`;
    rows.push({
      observed: every === 24 ? 'daily' : 'weekly',
      nights: n.nights,
      unseen: pct(n.unseen),
      'direct, guest-shaped': pct(n.direct),
      'owner, guest-shaped, before observation': pct(n.owner),
      'ceiling (nights right)': pct(n.nights - n.unseen - n.direct - n.owner),
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchCeiling());
