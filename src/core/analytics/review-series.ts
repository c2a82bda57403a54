// When a listing's reviews were written, as its observed review count tells it (issue 37, item 2:
// reviews as a signal of calendar-diff/2). The store keeps a listing's rating and review count as
// a series (kind `rating`: one row per run of equal values, from its detail and search rows); each
// rise of the count between two rows is that many reviews written in between, dated at the
// middle of the two observations (the last that showed the old count, the first that showed the
// new). Rows without a count (a search row that states none) are passed over; only a count past
// the most seen before dates reviews (a fall, a review removed or a source that lags, dates nothing).
//
// The reviews are read only where the count was followed over the whole of the calendar's
// observation: a first count seen no later than a day after the first calendar observation, and a
// last one no earlier than a day before the last. Elsewhere a missing review would read as a guest
// who never reviewed, so none is given (the method then reads the calendar alone).
import type { ObservationRow } from '../ports/store/observations.js';

const DAY_MS = 86_400_000;

/** Calendar rows, as far as this reads them: when each was first and last seen. */
interface Seen {
  firstSeen: number;
  lastSeen: number;
}

/**
 * The instants (ISO 8601) the listing's reviews were written, by its review count's rises, or
 * undefined when the count was not followed over the calendar's observation (see above).
 */
export function reviewInstants(ratings: readonly ObservationRow<'rating'>[], days: readonly Seen[]): string[] | undefined {
  const counted = ratings.filter((r) => typeof r.value.reviewCount === 'number').sort((a, b) => a.firstSeen - b.firstSeen || a.id - b.id);
  if (counted.length === 0 || days.length === 0) return undefined;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const d of days) {
    first = Math.min(first, d.firstSeen);
    last = Math.max(last, d.lastSeen);
  }
  const followedFrom = counted[0]!.firstSeen;
  const followedTo = Math.max(...counted.map((r) => r.lastSeen));
  if (followedFrom > first + DAY_MS || followedTo < last - DAY_MS) return undefined;
  const out: string[] = [];
  // The most reviews seen so far: only a count past it dates new reviews (a count that fell and
  // came back, from a source that lags, dates nothing twice).
  let most = counted[0]!.value.reviewCount as number;
  let before = counted[0]!;
  for (const r of counted.slice(1)) {
    const count = r.value.reviewCount as number;
    const at = new Date(Math.round((Math.min(before.lastSeen, r.firstSeen) + r.firstSeen) / 2)).toISOString();
    for (; most < count; most++) out.push(at);
    before = r;
  }
  return out;
}
