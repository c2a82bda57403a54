// Sandbox reviews: reviewCountFor(platform, id) reviews per listing, dated 2023-01-01..2026-06-30,
// newest first, rated on the platform's native scale around the listing's guest rating.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Review } from '../../core/schemas/resources.js';
import { dateOf, dayNumber } from './calendar.js';
import { coreFor } from './core.js';
import { placeForListing } from './places.js';
import { type Rng, rng } from './prng.js';
import { DISLIKED, LIKED, RESPONSES, REVIEWER_NAMES, type ReviewLang, type Sentiment, TITLES, reviewText } from './review-text.js';

const FIRST_DAY = dayNumber('2023-01-01');
const LAST_DAY = dayNumber('2026-06-30');
const INITIALS = 'ABCDEFGHJKLMNOPRSTVW';
const HEX = '0123456789abcdef';

const TRIP_TYPES: Record<EnabledPlatform, readonly (readonly [string, number])[] | null> = {
  airbnb: null, // airbnb does not state a trip type
  booking: [
    ['couple', 40],
    ['family', 20],
    ['solo', 15],
    ['business', 12],
    ['group', 13],
  ],
  vrbo: [
    ['family', 45],
    ['group', 25],
    ['couple', 25],
    ['solo', 5],
  ],
  google: [
    ['couple', 35],
    ['family', 25],
    ['business', 20],
    ['solo', 10],
    ['group', 10],
  ],
};

function languageWeights(platform: EnabledPlatform, id: string): (readonly [ReviewLang, number])[] {
  const local = placeForListing(platform, id)?.lang;
  const w: (readonly [ReviewLang, number])[] = [
    ['en', 70],
    ['pt', 6],
    ['fr', 8],
    ['de', 8],
    ['es', 8],
  ];
  return w.map(([l, n]) => [l, l === local ? n + 22 : n] as const);
}

/** An integer rating near the listing's average: floor/ceil mixed to match it, with rare low outliers. */
function ratingNear(r: Rng, mean: number, scale: number): number {
  const base = Math.floor(mean);
  let x = base + (r.chance(mean - base) ? 1 : 0);
  if (r.chance(0.05)) x -= r.int(1, Math.max(1, Math.round(scale / 3)));
  return Math.max(1, Math.min(scale, x));
}

function reviewId(platform: EnabledPlatform, r: Rng): string {
  if (platform === 'airbnb') return `${r.int(1, 9)}${r.chars('0123456789', 17)}`;
  if (platform === 'booking') return r.chars(HEX, 16);
  if (platform === 'vrbo') return `${r.chars(HEX, 8)}-${r.chars(HEX, 4)}-4${r.chars(HEX, 3)}-${r.chars('89ab', 1)}${r.chars(HEX, 3)}-${r.chars(HEX, 12)}`;
  return `ChdDSUhN${r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 20)}`;
}

function author(platform: EnabledPlatform, r: Rng, lang: ReviewLang): string {
  const first = r.pick(REVIEWER_NAMES[lang]);
  if (platform === 'airbnb' || platform === 'booking') return first;
  return `${first} ${INITIALS.charAt(r.int(0, INITIALS.length - 1))}.`;
}

/** Every review of a listing, newest first (ties broken by reviewId). */
export function reviewsFor(platform: EnabledPlatform, id: string): Review[] {
  const core = coreFor(platform, id);
  const scale = core.ratingScale;
  const mean = core.guestRating ?? scale * 0.85;
  const langs = languageWeights(platform, id);
  const seen = new Set<string>();
  const out: { day: number; review: Review }[] = [];
  for (let i = 0; i < core.reviewCount; i++) {
    const r = rng('review', platform, id, i);
    const day = r.int(FIRST_DAY, LAST_DAY);
    let rid = reviewId(platform, r);
    while (seen.has(rid)) rid = reviewId(platform, r);
    seen.add(rid);
    const lang = r.weighted(langs);
    const rating = ratingNear(r, mean, scale);
    const sentiment: Sentiment = rating / scale >= 0.8 ? 'pos' : rating / scale >= 0.6 ? 'mid' : 'neg';
    const name = author(platform, r, lang);
    const pick = <T>(xs: readonly T[]): T => r.pick(xs);
    const trips = TRIP_TYPES[platform];
    const respond = r.chance(sentiment === 'neg' ? 0.6 : 0.2);
    const responses = RESPONSES[lang][sentiment === 'pos' ? 'thanks' : 'sorry'];
    const booking = platform === 'booking';
    out.push({
      day,
      review: {
        platform,
        listingId: id,
        reviewId: rid,
        rating,
        ratingScale: scale,
        title: booking || platform === 'vrbo' ? r.pick(TITLES[lang][sentiment]) : null,
        text: reviewText(lang, sentiment, pick),
        author: name,
        date: dateOf(day),
        tripType: trips ? r.weighted(trips) : null,
        language: lang,
        ownerResponse: respond ? r.pick(responses).replace('{name}', name.split(' ')[0]!) : null,
        liked: booking ? r.pick(LIKED[lang]) : null,
        disliked: booking && r.chance(0.7) ? r.pick(DISLIKED[lang]) : null,
      },
    });
  }
  out.sort((a, b) => b.day - a.day || (a.review.reviewId < b.review.reviewId ? -1 : a.review.reviewId > b.review.reviewId ? 1 : 0));
  return out.map((x) => x.review);
}
