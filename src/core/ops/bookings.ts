// GET /v1/history/bookings (issue 27, item 1): a listing's nights classified from its observed
// calendar (available, booked, blocked, unbookable, unknown) and the guest bookings inferred, by
// the method calendar-diff/1 (src/core/analytics/bookings.ts, docs/analytics.md). Free: it reads
// the history port (src/core/ports/history.ts): live keys what live calls observed, sandbox keys
// the sandbox world's one synthetic history (the same for every caller, endpoint and day).
import { BOOKING_METHOD, type BookingInference, inferWindow } from '../analytics/bookings.js';
import { requireScope } from '../auth.js';
import { addDays } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { historyFor, observedBy } from '../context.js';
import { ServiceError } from '../errors.js';
import { parseListingId } from '../listing-ref.js';
import { SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { BOOKINGS_MAX_NIGHTS, type BookingInferenceView, historyBookingsParams } from '../schemas/history.js';
import { type RawInput, daysBetween, parseParams } from '../validate.js';
import { buildMeta } from '../meta.js';
import { platformFor, requireEnabled } from './common.js';

export async function historyBookings(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<BookingInferenceView>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyBookingsParams(), raw);
  const platform = requireEnabled(platformFor(q.platform, q.listingId), SINGLE_LISTING_PLATFORMS, 'booking inference');
  const id = parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' });
  if (q.to <= q.from) throw new ServiceError('invalid_date_range', 'to must be after from.', { param: 'to' });
  const nights = daysBetween(q.from, q.to);
  if (nights > BOOKINGS_MAX_NIGHTS) throw new ServiceError('window_too_long', `The window is ${nights} nights; at most ${BOOKINGS_MAX_NIGHTS}.`, { param: 'to' });
  // The listing's one classification of every night observed (the store), sliced to the window:
  // the market reads the same (src/core/analytics/listing-summary.ts).
  const observed = await historyFor(services, ctx).observedFor({ platform, listingId: id }, { from: q.from, to: addDays(q.to, -1) });
  // The answer is for now: a night the booking window closed when last observed may have opened since.
  const inference = inferWindow(observed, q.from, q.to, q.method ?? BOOKING_METHOD, services.clock.now());
  if (inference.sample.nights === 0) {
    throw new ServiceError(
      'no_observations',
      `No night of ${platform} listing ${id} from ${q.from} to ${q.to} was observed by ${observedBy(services)} (a live calendar call for it records what it sees).`,
      {
        param: 'listingId',
      },
    );
  }
  const { nights: answered, bookings, counts } = abstain(inference, q.minConfidence ?? null);
  return {
    data: {
      method: inference.method,
      minConfidence: q.minConfidence ?? null,
      platform,
      listingId: id,
      from: q.from,
      to: q.to,
      nights: answered,
      bookings,
      counts,
      sample: { ...inference.sample, reviews: inference.sample.reviews ?? null },
    },
    meta: buildMeta(services, ctx, { platforms: [platform], currency: inference.bookings.find((b) => b.currency !== null)?.currency ?? 'USD' }),
  };
}

/**
 * The answer under minConfidence (docs/analytics.md, "Abstaining"): an observed night less sure
 * than it is answered unknown, keeping its confidence and naming the state found (`likely`); a
 * booking less sure than it is left out; the counts are the answer's. Without it, every night as
 * found (`likely` null).
 */
function abstain(inference: BookingInference, min: number | null): Pick<BookingInferenceView, 'nights' | 'bookings' | 'counts'> {
  const counts = Object.fromEntries(Object.keys(inference.counts).map((s) => [s, 0])) as BookingInferenceView['counts'];
  const nights = inference.nights.map((n): BookingInferenceView['nights'][number] => {
    const unsure = min !== null && n.state !== 'unknown' && n.confidence < min;
    const night = unsure ? { date: n.date, state: 'unknown' as const, confidence: n.confidence, likely: n.state } : { date: n.date, state: n.state, confidence: n.confidence, likely: null };
    counts[night.state]++;
    return night;
  });
  return { nights, bookings: min === null ? inference.bookings : inference.bookings.filter((b) => b.confidence >= min), counts };
}
