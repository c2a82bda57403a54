import { z } from 'zod';
import { historyBookings } from '../../../core/ops/bookings.js';
import { historyAvailability, historyListings, historyObservations, historyPrice } from '../../../core/ops/history.js';
import {
  availabilityHistorySchema,
  bookingInferenceSchema,
  historyBookingsParams,
  historyAvailabilityParams,
  historyListingsParams,
  historyObservationsParams,
  historyPriceParams,
  observationSchema,
  priceObservationSchema,
  seenListingSchema,
} from '../../../core/schemas/history.js';
import { renderOk } from '../../render.js';
import { defineRoute, queryInput } from '../../route.js';

/** Beyond the spec (issue 26): what this deployment observed over time. */
export const historyPriceGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/history/price',
  doc: () => ({
    operationId: 'historyPrice',
    summary: "A listing's price history for one stay",
    description:
      'Always 0 credits, never 202: it reads what the live calls of its account observed (README: what accounts see of each other). The quotes live calls received for this listing and stay ' +
      '(any key of the deployment may read them), one row per change, oldest first: a value seen again extends its row (lastSeen, timesSeen). ' +
      'A sandbox key reads a fixed synthetic history of the sandbox quote (60 days before the stay). Cursor-paginated. ' +
      '404 listing_not_found when nothing of the listing was ever observed.',
    tags: ['History'],
    query: historyPriceParams(),
    data: z.array(priceObservationSchema()),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await historyPrice(c.get('services'), ctx, queryInput(c))),
});

export const historyAvailabilityGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/history/availability',
  doc: () => ({
    operationId: 'historyAvailability',
    summary: "A listing's calendar over time",
    description:
      'Always 0 credits, never 202: it reads what the live calls of its account observed (README: what accounts see of each other). For each night of the window, every change live calls saw in its ' +
      'calendar (available, minimum stay: from → to; a night first seen counts as a change from null), oldest first and cursor-paginated, ' +
      'with each night as last seen by `to`. A sandbox key reads a fixed synthetic history (nights the sandbox shows taken were booked some days ' +
      'before). 404 listing_not_found when nothing of the listing was ever observed.',
    tags: ['History'],
    query: historyAvailabilityParams(),
    data: availabilityHistorySchema(),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await historyAvailability(c.get('services'), ctx, queryInput(c))),
});

export const historyListingsGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/history/listings',
  doc: () => ({
    operationId: 'historyListings',
    summary: 'Listings seen in searches of a place, over time',
    description:
      'Always 0 credits, never 202: it reads what the live calls of its account observed (README: what accounts see of each other). Every listing live searches of the location showed (any dates), ' +
      'with when it was first and last seen there: supply over time, new listings appearing and gone ones (inLatestSearch false). Oldest first, ' +
      'cursor-paginated. A sandbox key reads a fixed synthetic year (2026) of daily searches of the sandbox location. An empty list when the ' +
      'location was never searched.',
    tags: ['History'],
    query: historyListingsParams(),
    data: z.array(seenListingSchema()),
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await historyListings(c.get('services'), ctx, queryInput(c))),
});

export const historyObservationsGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/history/observations',
  doc: () => ({
    operationId: 'historyObservations',
    summary: 'Every observation since an instant, for export',
    description:
      'Always 0 credits, never 202: it reads what the live calls of its account observed (README: what accounts see of each other). Every stored observation (any platform, listing and kind) last seen ' +
      'at or after `since`, in the order they were stored, cursor-paginated: walk every page to export the store (`stays history export`). ' +
      'A sandbox key gets an empty list: sandbox histories are synthetic, made per listing when asked, and a sandbox key does not read what live calls observed. ' +
      "With `collection`, only the observations of the listings that collection ever discovered (404 collection_not_found for one the key's account and environment does not have).",
    tags: ['History'],
    query: historyObservationsParams(),
    data: z.array(observationSchema()),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await historyObservations(c.get('services'), ctx, queryInput(c))),
});

/** Issue 27: booking inference from the calendar this deployment observed. */
export const historyBookingsGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/history/bookings',
  doc: () => ({
    operationId: 'historyBookings',
    summary: "A listing's inferred bookings: each night booked, blocked, unbookable or available",
    description:
      'Always 0 credits, never 202: it reads what the live calls of its account observed (README: what accounts see of each other). Every night of the window classified from the changes live calls saw in ' +
      "the listing's calendar, by a documented, versioned method (method: calendar-diff/1, docs/analytics.md): available, booked (a guest), " +
      'blocked (the host: a run no guest could book under the stay rules, or taken further ahead than guests book), unbookable (free but no stay ' +
      'the rules allow includes it) or unknown, each with a confidence; the guest bookings inferred (check-in, length, when it was booked, lead ' +
      'time, the last price seen); the sample it rests on. A sandbox key reads a fixed synthetic calendar history of the sandbox world. ' +
      '404 no_observations when no night of the window was observed.',
    tags: ['History'],
    query: historyBookingsParams(),
    data: bookingInferenceSchema(),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await historyBookings(c.get('services'), ctx, queryInput(c))),
});
