// check_availability: GET /v1/availability.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { AvailabilityParams } from '../../core/schemas/params.js';
import type { Availability } from '../../core/schemas/resources.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, dateRuns, tailLines } from '../text.js';
import type { ToolDef } from '../tool.js';
import { BILLING_TEXT } from '../../core/billing.js';

function listingLine(a: Availability): string {
  const days = a.dates;
  const open = days.filter((d) => d.available).map((d) => d.date);
  const arrivals = days.filter((d) => d.bookable === true).map((d) => d.date);
  const mins = [...new Set(days.map((d) => d.minNights).filter((n): n is number => n !== null))];
  const span = days.length > 0 ? `${days[0]!.date} to ${days[days.length - 1]!.date}` : 'no days';
  const parts = [`${a.platform} ${a.listingId}, ${span}: ${open.length} of ${days.length} days available`];
  if (open.length > 0) parts.push(`available ${dateRuns(open)}`);
  if (arrivals.length > 0) parts.push(`bookable check-in ${dateRuns(arrivals)}`);
  if (mins.length > 0) parts.push(`minimum nights ${mins.join('/')}`);
  return `${parts.join('; ')}.`;
}

export function summarizeAvailability(env: Envelope<Availability[]>): string {
  return [...env.data.map(listingLine), `Cost: ${creditsText(env.meta)}.`, ...tailLines(env.meta, 'check_availability')].join('\n');
}

export const checkAvailability: ToolDef = {
  name: 'check_availability',
  title: 'Check availability',
  description:
    'Day-by-day availability of a known listing over a date window [startDate, endDate): available, minimum nights, check-in/check-out rules, bookable. ' +
    `Identify the listing by listingId, url, or listingIds (a batch: airbnb 1, vrbo up to 12). Live keys pay ${BILLING_TEXT.availability} per listing (${BILLING_TEXT.availabilityVrbo}); sandbox keys are free.`,
  params: AvailabilityParams,
  run: (ctx, args) => runOperation<Availability[]>(ctx, { tool: 'check_availability', call: operations.availability(queryOf(args)), summarize: summarizeAvailability }),
};
