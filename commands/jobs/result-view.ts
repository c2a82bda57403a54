// How `stays jobs get|wait` prints a completed job's result. Every other command names the view
// of its result (view.ts); a job's poll (GET /v1/jobs/{jobId}: jobId, status, result) does not
// name the call that started it, so this is the one place the CLI reads a result's shape, and only
// to tell apart the calls that run as jobs (GET /v1/jobs documents them: search, reviews, price,
// price-compare, availability, listing; Family S: a stay or a part of it, a batch, the searches).
// Anything else prints by its own keys (view.ts ownKeysView).
import type { Kind, Row, StayKind } from '../_lib/output/columns.js';
import { type View, kindView, ownKeysView } from '../_lib/output/view.js';

const o = (v: unknown) => (v ?? {}) as Row;
const isStay = (r: Row) => 'title' in r && 'person_capacity' in r && 'reviews_count' in r;
/** A stay's part: its id and that part alone (GET /v1/stays/{id}/{part}). */
const only = (r: Row, key: string) => Object.keys(r).length === 2 && 'id' in r && key in r;

/** The row kinds of the job calls whose data is a list: search and the Family S searches and batch, reviews, availability. */
function listKind(sample: Row): Kind | null {
  if (Array.isArray(sample.dates)) return 'day';
  if ('platformListingId' in sample) return 'property';
  if ('reviewId' in sample) return 'review';
  if (isStay(sample)) return 'stay';
  return null;
}

/** A Family S lookup: the stay, or one of its parts. */
function stayKind(r: Row): StayKind | null {
  if (typeof r.id !== 'string') return null;
  if (isStay(r)) return 'stay';
  if (only(r, 'photos')) return 'stay_photo';
  if (only(r, 'amenities')) return 'stay_amenity';
  if (only(r, 'availability')) return 'stay_day';
  if ('reviews' in r && 'reviews_count' in r && 'rating_breakdown' in r) return 'stay_review';
  if (only(r, 'host')) return 'stay_host';
  if (only(r, 'pricing')) return 'stay_pricing';
  if (only(r, 'location')) return 'stay_location';
  if ('star_rating' in r && 'rating_breakdown' in r) return 'stay_rating';
  return null;
}

/** The kinds of the job calls whose data is one object: a comparison, a listing, a price quote, a stay lookup. */
function objectKind(r: Row): Kind | null {
  if (Array.isArray(r.offers)) return 'offer';
  if ('platformListingId' in r) return 'property';
  if ('nightlyPrice' in r && 'totalPrice' in r) return 'price';
  return stayKind(r);
}

/** The view of a job's result: the view of the call that started it, as far as its shape tells. */
export function jobResultView(data: unknown): View {
  if (Array.isArray(data) && data.length === 0) return ownKeysView(data);
  const kind = Array.isArray(data) ? listKind(o(data[0])) : objectKind(o(data));
  return kind === null ? ownKeysView(data) : kindView(kind, data);
}
