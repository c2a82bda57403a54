// GET /v1/history/bookings (issue 27, item 1): a listing's nights classified from its observed
// calendar (available, booked, blocked, unbookable, unknown) and the guest bookings inferred, by
// the method calendar-diff/1 (src/core/analytics/bookings.ts, docs/analytics.md). Free: it reads
// the deployment's own store. Live keys read what live calls observed; sandbox keys a fixed
// synthetic calendar history of the sandbox world (the same for every caller and every day).
import { BOOKING_METHOD, inferBookings } from '../analytics/bookings.js';
import { requireScope } from '../auth.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { isSandbox } from '../context.js';
import { fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { parseListingId } from '../listing-ref.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import type { ObservationRow } from '../ports/store.js';
import { BOOKINGS_MAX_NIGHTS, type BookingInferenceView, historyBookingsParams } from '../schemas/history.js';
import type { Availability, Price } from '../schemas/resources.js';
import { stayKey } from '../observe.js';
import { type RawInput, daysBetween, parseParams } from '../validate.js';
import { buildMeta, platformFor, requireEnabled } from './common.js';

const DAY_MS = 86_400_000;
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
const addDays = (date: string, n: number) => new Date(dayMs(date) + n * DAY_MS).toISOString().slice(0, 10);

/** Nights either side of the window read with it: a stay across its edges, and the rules that decide it. */
const EDGE_NIGHTS = 31;

type Day = { available: boolean; minNights: number | null; checkIn: boolean | null; checkOut: boolean | null; bookable: boolean | null };

/**
 * The sandbox's calendar history for booking inference: the sandbox calendar observed daily at
 * 00:00 UTC from 90 days before the first night read until each night; each run of nights it shows
 * taken was taken at once, 1 to 60 days before its first night (a function of the listing and
 * the run), free before (its check-in rules not stated: null), and the sandbox's quote for the
 * run's nights seen daily until then. A pure function of the listing and the window, so the same
 * whenever it is asked.
 */
async function sandboxHistory(services: Services, platform: EnabledPlatform, id: string, start: string, end: string): Promise<{ days: ObservationRow[]; prices: ObservationRow[] }> {
  const cal = (await services.sandboxUpstream.availability(platform, id, start, end)) as Availability;
  const first = dayMs(start) - 90 * DAY_MS;
  const rows: ObservationRow[] = [];
  const prices: ObservationRow[] = [];
  let booked = 0;
  const runs: { checkIn: string; checkOut: string; booked: number }[] = [];
  cal.dates.forEach((d, i) => {
    const night = dayMs(d.date);
    const day: Day = { available: d.available, minNights: d.minNights, checkIn: d.checkIn, checkOut: d.checkOut, bookable: d.bookable };
    const base = { platform, listingId: id, kind: 'day' as const, key: d.date, currency: null, source: 'sandbox' };
    const add = (value: Day, from: number, to: number) => rows.push({ ...base, id: rows.length + 1, value, firstSeen: from, lastSeen: to, timesSeen: (to - from) / DAY_MS + 1 });
    if (d.available) return add(day, first, night);
    // The first night of a run decides when the run was taken.
    if (i === 0 || cal.dates[i - 1]!.available) {
      const lead = 1 + (fingerprint([platform, id, d.date, 'booked']).charCodeAt(0) % 60);
      booked = Math.max(first + DAY_MS, night - lead * DAY_MS);
      let j = i;
      while (j < cal.dates.length && !cal.dates[j]!.available) j++;
      runs.push({ checkIn: d.date, checkOut: j < cal.dates.length ? cal.dates[j]!.date : addDays(d.date, j - i), booked });
    }
    add({ available: true, minNights: d.minNights, checkIn: null, checkOut: null, bookable: null }, first, booked - DAY_MS);
    add(day, booked, night);
  });
  for (const r of runs) {
    const stay = { checkIn: r.checkIn, checkOut: r.checkOut, adults: 2, children: 0, childAges: [], currency: 'USD' };
    const q = (await services.sandboxUpstream.price(platform, id, stay).catch(() => null)) as Price | null;
    if (!q) continue;
    const lastSeen = r.booked - DAY_MS;
    prices.push({
      platform,
      listingId: id,
      kind: 'quote',
      key: stayKey(stay),
      currency: q.currency,
      value: { nightlyPrice: q.nightlyPrice, totalPrice: q.totalPrice, fees: q.fees },
      source: 'sandbox',
      id: prices.length + 1,
      firstSeen: first,
      lastSeen,
      timesSeen: (lastSeen - first) / DAY_MS + 1,
    });
  }
  return { days: rows, prices };
}

export async function historyBookings(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<BookingInferenceView>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyBookingsParams(), raw);
  const platform = requireEnabled(platformFor(q.platform, q.listingId), SINGLE_LISTING_PLATFORMS, 'booking inference');
  const id = parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' });
  if (q.to <= q.from) throw new ServiceError('invalid_date_range', 'to must be after from.', { param: 'to' });
  const nights = daysBetween(q.from, q.to);
  if (nights > BOOKINGS_MAX_NIGHTS) throw new ServiceError('window_too_long', `The window is ${nights} nights; at most ${BOOKINGS_MAX_NIGHTS}.`, { param: 'to' });
  const start = addDays(q.from, -EDGE_NIGHTS);
  const end = addDays(q.to, EDGE_NIGHTS);
  let days: ObservationRow[];
  let prices: ObservationRow[] = [];
  if (isSandbox(ctx)) ({ days, prices } = await sandboxHistory(services, platform, id, start, end));
  else {
    days = await services.store.observationsOfListing({ platform, listingId: id, kind: 'day', keyFrom: start, keyTo: addDays(end, -1) });
    // Quotes of stays that may include a night of the window (keys: checkIn/checkOut/adults).
    prices = await services.store.observationsOfListing({ platform, listingId: id, kind: 'quote', keyFrom: addDays(q.from, -90), keyTo: q.to });
  }
  const inference = inferBookings({ days, prices, from: q.from, to: q.to });
  if (inference.sample.nights === 0) {
    throw new ServiceError('no_observations', `No night of ${platform} listing ${id} from ${q.from} to ${q.to} was observed by this deployment (a live calendar call for it records what it sees).`, {
      param: 'listingId',
    });
  }
  return {
    data: { method: BOOKING_METHOD, platform, listingId: id, from: q.from, to: q.to, nights: inference.nights, bookings: inference.bookings, counts: inference.counts, sample: inference.sample },
    meta: buildMeta(services, ctx, { platforms: [platform], currency: inference.bookings.find((b) => b.currency !== null)?.currency ?? 'USD' }),
  };
}
