// GET /v1/history/bookings (issue 27, item 1): a listing's nights classified from its observed
// calendar (available, booked, blocked, unbookable, unknown) and the guest bookings inferred, by
// the method calendar-diff/1 (src/core/analytics/bookings.ts, docs/analytics.md). Free: it reads
// the history port (src/core/ports/history.ts): live keys what live calls observed, sandbox keys
// the sandbox world's one synthetic history (the same for every caller, endpoint and day).
import { BOOKING_METHOD, inferWindow } from '../analytics/bookings.js';
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
  const inference = inferWindow(observed, q.from, q.to, q.method ?? BOOKING_METHOD);
  if (inference.sample.nights === 0) {
    throw new ServiceError(
      'no_observations',
      `No night of ${platform} listing ${id} from ${q.from} to ${q.to} was observed by ${observedBy(services)} (a live calendar call for it records what it sees).`,
      {
        param: 'listingId',
      },
    );
  }
  return {
    data: {
      method: inference.method,
      platform,
      listingId: id,
      from: q.from,
      to: q.to,
      nights: inference.nights,
      bookings: inference.bookings,
      counts: inference.counts,
      sample: { ...inference.sample, reviews: inference.sample.reviews ?? null },
    },
    meta: buildMeta(services, ctx, { platforms: [platform], currency: inference.bookings.find((b) => b.currency !== null)?.currency ?? 'USD' }),
  };
}
