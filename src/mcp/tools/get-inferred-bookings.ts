// get_inferred_bookings: GET /v1/history/bookings (issues 27 and 37). Read-only and free: a
// listing's nights classified from its observed calendar and the guest bookings inferred, with the
// method, each night's confidence and the sample they rest on; `minConfidence` answers unknown
// where the method is less sure.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { type BookingInferenceView, historyBookingsParams } from '../../core/schemas/history.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, dateRuns, money, plural, tailLines } from '../text.js';
import { type Args, OWN_STORE, type ToolDef } from '../tool.js';
import { when } from './get-price-history.js';

/** Bookings shown as lines; the rest are in the structured result. */
const SHOWN = 20;

function bookingLine(b: BookingInferenceView['bookings'][number]): string {
  const booked = b.bookedAfter === null ? `taken before ${when(b.bookedBefore)} (already when first observed)` : `booked between ${when(b.bookedAfter)} and ${when(b.bookedBefore)}`;
  const lead = `${b.bookedAfter === null ? 'at least ' : ''}${plural(b.leadTimeDays, 'day')} ahead`;
  const price = b.lastPriceSeen === null ? '' : `, last price seen ${money(b.lastPriceSeen, b.currency ?? '')}/night`;
  return `- ${b.checkIn} to ${b.checkOut} (${plural(b.nights, 'night')}): ${booked}, ${lead}${price}; confidence ${b.confidence}`;
}

function summarizeBookings(env: Envelope<BookingInferenceView>): string {
  const d = env.data;
  const c = d.counts;
  const s = d.sample;
  const lines = [
    `${d.platform} ${d.listingId}, nights ${d.from} to ${d.to}, by method ${d.method}: ${c.booked} booked (a guest), ${c.blocked} blocked (the host), ${c.available} available, ${c.unbookable} unbookable, ${c.unknown} unknown; ${creditsText(env.meta)}.`,
    `From ${plural(s.observations, 'observation')}: ${plural(s.nights, 'night')} of the window observed${s.firstObserved && s.lastObserved ? `, ${when(s.firstObserved)} to ${when(s.lastObserved)} UTC` : ''}${s.reviews === null ? '' : `, and ${plural(s.reviews, 'review')} dated by the listing's review count`}. Each night has a confidence (0 to 1); say the method and the sample when you quote a figure.`,
  ];
  if (d.minConfidence !== null) {
    const unsure = d.nights.filter((n) => n.likely !== null);
    lines.push(
      unsure.length === 0
        ? `Every observed night is at least ${d.minConfidence} sure.`
        : `${plural(unsure.length, 'night')} less than ${d.minConfidence} sure answered unknown (their likely state in the structured result): ${dateRuns(unsure.map((n) => n.date))}.`,
    );
  }
  const booked = d.nights.filter((n) => n.state === 'booked').map((n) => n.date);
  if (booked.length > 0) lines.push(`Booked nights: ${dateRuns(booked)}.`);
  lines.push(d.bookings.length === 0 ? 'No guest booking inferred in the window.' : `${plural(d.bookings.length, 'guest booking')} inferred:`);
  lines.push(...d.bookings.slice(0, SHOWN).map(bookingLine));
  if (d.bookings.length > SHOWN) lines.push(`… and ${d.bookings.length - SHOWN} more in the structured result.`);
  lines.push(...tailLines(env.meta, 'get_inferred_bookings'));
  return lines.join('\n');
}

export const getInferredBookings: ToolDef = {
  name: 'get_inferred_bookings',
  title: 'Get inferred bookings',
  description:
    "One listing's nights over a window [from, to) (at most 400 nights) classified from the calendar this service observed: booked (a guest), blocked (the host), " +
    'available, unbookable (free, but no stay its rules allow includes it) or unknown (never observed), each with a confidence, and the guest bookings inferred ' +
    '(check-in, length, when booked, lead time, last price seen). Inferred, not known: quote the method (calendar-diff/1 by default, calendar-diff/2 with method) ' +
    'and the sample. minConfidence answers unknown for nights the method is less sure of. Live keys read what live calls of this deployment observed (nothing ' +
    'observed is no_observations); sandbox keys read a fixed synthetic history. Free.',
  params: historyBookingsParams(),
  annotations: OWN_STORE,
  run: (ctx, args: Args) =>
    runOperation<BookingInferenceView>(ctx, { tool: 'get_inferred_bookings', call: operations.historyBookings(queryOf(args) as never), summarize: (env) => summarizeBookings(env) }),
};
