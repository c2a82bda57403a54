// Family S lookups: GET /v1/stays/{id}, by-url, the eight sub-resources and POST /v1/stays/batch.
// The same legs (listing body, calendar, reviews), cache, holds and jobs as Family U; only the
// shape (core/stays/shape.ts) and the price (D26) differ. Stays are airbnb listings.
import { requireScope } from '../auth.js';
import { STAY_LOOKUP_COST, stayRowsCost } from '../billing.js';
import { addDays, utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { ServiceError, isUpstreamFailure } from '../errors.js';
import { parseListingId, parseListingUrl } from '../listing-ref.js';
import type { Leg, LegOutcome, Plan } from '../plan.js';
import type { Availability, Property, Review, Warning } from '../schemas/resources.js';
import { BatchBody, MAX_BATCH_ENTRIES, type Stay, type StayPart, StayByUrlParams, StayPathParams } from '../schemas/stays.js';
import { stayDatesParams } from '../schemas/param-schemas.js';
import type { Price } from '../schemas/resources.js';
import { batchEntryId } from '../stays/entry.js';
import { pricingOf, stayPart, toStay } from '../stays/shape.js';
import type { StayQuery } from '../upstream.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { availabilityLeg } from './availability.js';
import { failedResult, okResult } from './common.js';
import { listingBodyLeg } from './listing.js';
import { priceLeg } from './price.js';
import { reviewsLeg } from './reviews.js';

const P = 'airbnb';
/** A lookup's calendar: today and the next 29 nights (docs/decisions.md). */
export const LOOKUP_CALENDAR_DAYS = 30;

function calendarWindow(services: Services): { start: string; end: string } {
  const start = utcToday(services.clock);
  const end = addDays(start, LOOKUP_CALENDAR_DAYS);
  return { start, end };
}

/** The legs of one full lookup: body, calendar, reviews (in that order). */
function lookupLegs(services: Services, id: string): Leg[] {
  const w = calendarWindow(services);
  return [listingBodyLeg(P, id, 'USD'), availabilityLeg(P, id, w.start, w.end), reviewsLeg(P, id)];
}

type Warn = Omit<Warning, 'docUrl'>;

/** A lookup from its three outcomes; the body's failure is the answer, the others degrade to empty with a warning. */
function stayFrom(id: string, [body, cal, rev]: LegOutcome[], warnings: Warn[]): Stay {
  if (!body!.ok) throw body!.error;
  const soft = <T>(o: LegOutcome | undefined, what: string): T | null => {
    if (!o || o.ok) return o ? (o.value as T) : null;
    warnings.push({ code: `${what}_unavailable`, message: `${id}: the ${what} could not be fetched (${o.error.code}); it is empty.`, platform: P });
    return null;
  };
  return toStay(body!.value as Property, { detail: true, availability: soft<Availability>(cal, 'availability'), reviews: soft<Review[]>(rev, 'reviews') });
}

const allCached = (os: LegOutcome[]) => os.every((o) => o.ok && o.cached);

/** The optional stay of a lookup: with both dates its pricing is quoted (issue 22, item 13). */
function lookupStay(services: Services, raw: RawInput): StayQuery | undefined {
  const q = parseParams(stayDatesParams(), raw);
  checkStay(q, utcToday(services.clock));
  if (q.checkIn === undefined || q.checkOut === undefined) return undefined;
  return { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges: checkChildAges(q), currency: q.currency };
}

/** A dated lookup's pricing from its price leg; a quote that failed leaves it null, with a warning. */
function pricedWith(stay: Stay, id: string, o: LegOutcome | undefined, warnings: Warn[]): Stay {
  if (o === undefined) return stay;
  if (o.ok) return { ...stay, pricing: pricingOf(o.value as Price) };
  warnings.push({ code: 'price_unavailable', message: `${id}: no price could be quoted for these dates (${o.error.code}); pricing is null.`, platform: P });
  return stay;
}

function stayIdFrom(raw: RawInput, byUrl: boolean): string {
  if (byUrl) return parseListingUrl(P, parseParams(StayByUrlParams, raw).url, { param: 'url' });
  return parseListingId(P, parseParams(StayPathParams, raw).id, { param: 'id' });
}

/** GET /v1/stays/{id} and /v1/stays/by-url: a whole Stay, 1 credit (D26). */
export function stayPlan(services: Services, ctx: RequestContext, raw: RawInput, opts: { byUrl?: boolean } = {}): Plan<Stay> {
  requireScope(ctx, 'stays.read');
  const id = stayIdFrom(raw, opts.byUrl === true);
  const stay = lookupStay(services, raw);
  return {
    operation: 'stay',
    platforms: [P],
    currency: stay?.currency ?? 'USD',
    worstCase: STAY_LOOKUP_COST, // a dated quote adds nothing, as on GET /v1/listing (D25)
    legs: stay ? [...lookupLegs(services, id), priceLeg(P, id, stay)] : lookupLegs(services, id),
    compose: (outcomes) => {
      const warnings: Warn[] = [];
      const data = pricedWith(stayFrom(id, outcomes.slice(0, 3), warnings), id, outcomes[3], warnings);
      return { data, platformResults: [okResult(P, 1, STAY_LOOKUP_COST, allCached(outcomes))], warnings };
    },
  };
}

/** GET /v1/stays/{id}/{part}: only the legs the part needs; 1 credit (D26). */
export function stayPartPlan(services: Services, ctx: RequestContext, raw: RawInput, part: StayPart): Plan<Record<string, unknown>> {
  requireScope(ctx, 'stays.read');
  const id = stayIdFrom(raw, false);
  // Only /pricing takes a stay; the other parts do not depend on one.
  const stay = part === 'pricing' ? lookupStay(services, raw) : undefined;
  const [body, cal, rev] = lookupLegs(services, id);
  // The calendar alone answers /availability; /reviews needs the body for reviews_count.
  const legs = part === 'availability' ? [cal!] : part === 'reviews' ? [body!, rev!] : stay ? [body!, priceLeg(P, id, stay)] : [body!];
  return {
    operation: 'stay',
    platforms: [P],
    currency: stay?.currency ?? 'USD',
    worstCase: STAY_LOOKUP_COST,
    legs,
    compose: (outcomes) => {
      const warnings: Warn[] = [];
      let data: Record<string, unknown>;
      if (part === 'availability') {
        const o = outcomes[0]!;
        if (!o.ok) throw o.error;
        const days = (o.value as Availability).dates;
        data = { id, availability: days.map((d) => ({ date: d.date, available: d.bookable ?? d.available, min_nights: d.minNights, price: null })) };
      } else {
        const full = part === 'reviews' ? [outcomes[0]!, undefined, outcomes[1]!] : [outcomes[0]!];
        const looked = stayFrom(id, full as LegOutcome[], warnings);
        data = stayPart(part === 'pricing' ? pricedWith(looked, id, outcomes[1], warnings) : looked, part);
      }
      return { data, platformResults: [okResult(P, 1, STAY_LOOKUP_COST, allCached(outcomes))], warnings };
    },
  };
}

/**
 * POST /v1/stays/batch: 1–50 entries; an entry the upstream cannot resolve is left out (D26: not
 * billed). The data is the Stay rows, as a job's result too; missing = requested − rows.
 */
export function batchPlan(services: Services, ctx: RequestContext, raw: RawInput): { plan: Plan<Stay[]>; requested: number } {
  requireScope(ctx, 'stays.read');
  const { entries } = parseParams(BatchBody, raw);
  if (entries.length === 0) throw new ServiceError('invalid_parameter', 'entries is empty; give 1 to 50 entries, each { id } or { url }.', { param: 'entries' });
  if (entries.length > MAX_BATCH_ENTRIES) {
    throw new ServiceError('invalid_parameter', `entries has ${entries.length} items; a batch takes at most ${MAX_BATCH_ENTRIES}.`, { param: 'entries' });
  }
  const ids = entries.map(batchEntryId);
  const legs = ids.flatMap((id) => lookupLegs(services, id));
  return {
    requested: ids.length,
    plan: {
      operation: 'stay-batch',
      platforms: [P],
      currency: 'USD',
      worstCase: stayRowsCost(ids.length),
      legs,
      compose: (outcomes) => {
        const warnings: Warn[] = [];
        const stays: Stay[] = [];
        const failures: ServiceError[] = [];
        ids.forEach((id, i) => {
          const own = outcomes.slice(i * 3, i * 3 + 3);
          const body = own[0]!;
          if (!body.ok) {
            failures.push(body.error);
            warnings.push({ code: body.error.code, message: `entries[${i}] (${id}): ${body.error.message}`, platform: P });
            return;
          }
          stays.push(stayFrom(id, own, warnings));
        });
        // Nothing resolved and nothing was simply absent: the upstream failed, and that is the answer.
        if (stays.length === 0 && failures.length > 0 && failures.every(isUpstreamFailure)) throw failures[0]!;
        const results = [okResult(P, stays.length, stayRowsCost(stays.length), allCached(outcomes))];
        if (failures.some(isUpstreamFailure)) results.push(failedResult(P, failures.find(isUpstreamFailure)!));
        return { data: stays, platformResults: results, warnings };
      },
    },
  };
}
