// GET /v1/reviews: one listing's reviews, filtered, sorted and paged.
import { requireScope } from '../auth.js';
import { reviewsCost } from '../billing.js';
import type { RequestContext, Services } from '../context.js';
import { type Leg, type Plan, TTL } from '../plan.js';
import { decodeCursor, encodeCursor, fingerprint } from '../cursor.js';
import { parseListingId, parseListingUrl } from '../listing-ref.js';
import { type EnabledPlatform, REVIEW_PLATFORMS } from '../platforms.js';
import { reviewsParams } from '../schemas/param-schemas.js';
import type { Review } from '../schemas/resources.js';
import { type RawInput, exactlyOne, parseParams } from '../validate.js';
import { okResult, platformFor, ratingScaleWarnings, requireEnabled } from './common.js';

const SORTS: Record<string, (a: Review, b: Review) => number> = {
  recent: (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0),
  rating_desc: (a, b) => b.rating - a.rating || (a.date < b.date ? 1 : -1),
  rating_asc: (a, b) => a.rating - b.rating || (a.date < b.date ? 1 : -1),
};

/** Every review of one listing: shared with the Family S lookups and their cache. */
export function reviewsLeg(platform: EnabledPlatform, id: string): Leg {
  return { platform, key: `reviews:${platform}:${id}`, ttlMs: TTL.reviews, need: 'reviews', fetch: (u) => u.reviews(platform, id) };
}

export function reviewsPlan(_services: Services, ctx: RequestContext, raw: RawInput): Plan<Review[]> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(reviewsParams(), raw);
  const form = exactlyOne(q, ['listingId', 'url'], 'listing');
  // The platform may come from the listing itself: a stays_<platform>_<id> listingId or a listing URL.
  const platform = requireEnabled(platformFor(q.platform, form === 'url' ? q.url : q.listingId), REVIEW_PLATFORMS, 'reviews');
  const id = form === 'url' ? parseListingUrl(platform, q.url!, { param: 'url' }) : parseListingId(platform, q.listingId!, { country: q.country, param: 'listingId' });
  const fp = fingerprint(['reviews', platform, id, q.language, q.minRating, q.sort, q.limit]);
  const offset = decodeCursor(q.cursor, fp)?.o._ ?? 0;
  return {
    operation: 'reviews',
    platforms: [platform],
    currency: 'USD',
    worstCase: reviewsCost(platform, q.limit),
    legs: [reviewsLeg(platform, id)],
    compose: ([o]) => {
      if (!o!.ok) throw o!.error;
      const all = (o!.value as Review[]).filter((r) => (q.language === undefined || r.language === q.language) && (q.minRating === undefined || r.rating >= q.minRating)).sort(SORTS[q.sort]);
      const page = all.slice(offset, offset + q.limit);
      const hasMore = offset + page.length < all.length;
      return {
        data: page,
        platformResults: [okResult(platform, page.length, reviewsCost(platform, page.length), o!.cached)],
        warnings: ratingScaleWarnings('minRating', q.minRating, [platform], 'review'),
        pagination: { limit: q.limit, cursor: q.cursor ?? null, nextCursor: hasMore ? encodeCursor({ o: { _: offset + page.length } }, fp) : null, hasMore },
      };
    },
  };
}
