// GET /v1/availability: day-by-day calendars for one listing or a small batch on one platform.
import { requireScope } from '../auth.js';
import { availabilityCost } from '../billing.js';
import { utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { type Leg, type Plan, TTL } from '../plan.js';
import { observeCalendar } from '../observe.js';
import { ServiceError } from '../errors.js';
import { parseListingId, parseListingUrl } from '../listing-ref.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { availabilityParams } from '../schemas/param-schemas.js';
import type { Availability, Warning } from '../schemas/resources.js';
import { MAX_WINDOW_DAYS, type RawInput, checkDatePair, daysBetween, exactlyOne, parseParams } from '../validate.js';
import { okResult, platformFor, requireEnabled } from './common.js';

/** Listings per call: airbnb 1, vrbo 12 (spec Limits); booking and google as vrbo (docs/decisions.md). */
const BATCH_MAX: Record<EnabledPlatform, number> = { airbnb: 1, vrbo: 12, booking: 12, google: 12 };

/** One listing's calendar for a window: shared with the Family S lookups and their cache. */
export function availabilityLeg(platform: EnabledPlatform, id: string, startDate: string, endDate: string): Leg {
  return {
    platform,
    key: `availability:${platform}:${id}:${startDate}:${endDate}`,
    ttlMs: TTL.availability,
    need: 'availability',
    fetch: (u) => u.availability(platform, id, startDate, endDate),
    observe: observeCalendar,
  };
}

export function availabilityPlan(services: Services, ctx: RequestContext, raw: RawInput): Plan<Availability[]> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(availabilityParams(), raw);
  const form = exactlyOne(q, ['listingId', 'listingIds', 'url'], 'listing');
  const platform = requireEnabled(platformFor(q.platform, form === 'url' ? q.url : form === 'listingId' ? q.listingId : q.listingIds?.[0]), SINGLE_LISTING_PLATFORMS, 'availability');
  let ids: string[];
  if (form === 'url') ids = [parseListingUrl(platform, q.url!, { param: 'url' })];
  else if (form === 'listingId') ids = [parseListingId(platform, q.listingId!, { country: q.country, param: 'listingId' })];
  else {
    const list = q.listingIds!;
    if (list.length > BATCH_MAX[platform]) {
      throw new ServiceError('invalid_parameter', `${platform} accepts at most ${BATCH_MAX[platform]} listing${BATCH_MAX[platform] === 1 ? '' : 's'} per call (got ${list.length}).`, {
        param: 'listingIds',
      });
    }
    ids = [...new Set(list.map((x) => parseListingId(platform, x, { country: q.country, param: 'listingIds' })))];
  }
  checkDatePair({ start: q.startDate, end: q.endDate }, { start: 'startDate', end: 'endDate' }, utcToday(services.clock), {
    max: MAX_WINDOW_DAYS,
    code: 'window_too_long',
  });
  const days = daysBetween(q.startDate, q.endDate);
  const each = availabilityCost(platform, days);
  const legs: Leg[] = ids.map((id) => availabilityLeg(platform, id, q.startDate, q.endDate));
  return {
    operation: 'availability',
    platforms: [platform],
    currency: 'USD',
    worstCase: ids.length * each,
    legs,
    compose: (outcomes) => {
      const data: Availability[] = [];
      const warnings: Omit<Warning, 'docUrl'>[] = [];
      // In a batch a listing that fails is left out (and not billed, D2); alone, its error is the answer.
      if (outcomes.length === 1 && !outcomes[0]!.ok) throw outcomes[0]!.error;
      outcomes.forEach((o, i) => {
        if (!o.ok) {
          warnings.push({ code: o.error.code, message: `${ids[i]}: ${o.error.message}`, platform });
          return;
        }
        const a = o.value as Availability;
        data.push(q.onlyAvailable ? { ...a, dates: a.dates.filter((d) => d.bookable ?? d.available) } : a);
      });
      const first = outcomes.find((o) => !o.ok);
      if (data.length === 0 && first && !first.ok) throw first.error;
      return {
        data,
        platformResults: [
          okResult(
            platform,
            data.length,
            data.length * each,
            outcomes.every((o) => o.ok && o.cached),
          ),
        ],
        warnings,
      };
    },
  };
}
