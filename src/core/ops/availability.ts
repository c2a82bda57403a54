// GET /v1/availability: day-by-day calendars for one listing or a small batch on one platform.
import { requireScope } from '../auth.js';
import { availabilityCost } from '../billing.js';
import { utcToday } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { parseListingId, parseListingUrl } from '../listing-ref.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { AvailabilityParams } from '../schemas/params.js';
import type { Availability, Warning } from '../schemas/resources.js';
import { MAX_WINDOW_DAYS, type RawInput, checkDatePair, daysBetween, exactlyOne, parseParams } from '../validate.js';
import { buildMeta, liveGate, okResult, requireEnabled } from './common.js';

/** Listings per call: airbnb 1, vrbo 12 (spec Limits); booking and google as vrbo (docs/decisions.md). */
const BATCH_MAX: Record<EnabledPlatform, number> = { airbnb: 1, vrbo: 12, booking: 12, google: 12 };

export async function availability(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<Availability[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(AvailabilityParams, raw);
  const form = exactlyOne(q, ['listingId', 'listingIds', 'url'], 'listing');
  const platform = requireEnabled(q.platform, SINGLE_LISTING_PLATFORMS, 'availability');
  let ids: string[];
  if (form === 'url') ids = [parseListingUrl(platform, q.url!, { param: 'url' })];
  else if (form === 'listingId') ids = [parseListingId(platform, q.listingId!, { country: q.country, param: 'listingId' })];
  else {
    const list = q.listingIds!;
    if (list.length > BATCH_MAX[platform]) {
      throw new ServiceError('invalid_parameter', `${platform} accepts at most ${BATCH_MAX[platform]} listing${BATCH_MAX[platform] === 1 ? '' : 's'} per call (got ${list.length}).`, { param: 'listingIds' });
    }
    ids = [...new Set(list.map((x) => parseListingId(platform, x, { country: q.country, param: 'listingIds' })))];
  }
  checkDatePair({ start: q.startDate, end: q.endDate }, { start: 'startDate', end: 'endDate' }, utcToday(services.clock), {
    max: MAX_WINDOW_DAYS,
    code: 'window_too_long',
  });
  const days = daysBetween(q.startDate, q.endDate);
  await liveGate(services, ctx, ids.length * availabilityCost(platform, days));

  const data: Availability[] = [];
  const warnings: Omit<Warning, 'docUrl'>[] = [];
  let firstError: ServiceError | null = null;
  for (const id of ids) {
    try {
      const a = services.sandbox.availability(platform, id, q.startDate, q.endDate);
      data.push(q.onlyAvailable ? { ...a, dates: a.dates.filter((d) => d.bookable ?? d.available) } : a);
    } catch (e) {
      // In a batch a listing that fails is left out (and not billed); alone, its error is the answer.
      if (!(e instanceof ServiceError) || ids.length === 1) throw e;
      firstError ??= e;
      warnings.push({ code: e.code, message: `${id}: ${e.message}`, platform });
    }
  }
  if (data.length === 0 && firstError) throw firstError;
  return { data, meta: buildMeta(services, ctx, { platforms: [platform], currency: 'USD', platformResults: [okResult(platform, data.length)], warnings }) };
}
