// The columns of `-o tsv` and `-o csv`: data, not display. Numbers are plain numbers (255.62, 9.3;
// no grouping, no currency suffix), the currency and the rating scale have their own columns,
// booleans are true/false, an unknown value is an empty cell. CSV headers are these snake_case
// keys; TSV has no header (gh style). Each command's --help lists its columns from these very
// definitions (columnsHelp), so the documentation cannot drift. Command definition files import
// this module at start-up: it must stay free of imports.

export type Row = Record<string, unknown>;
export type Datum = string | number | boolean | null | undefined;

/** The shapes of `data` the CLI knows how to print (see view.ts). */
export type Kind = 'property' | 'price' | 'offer' | 'day' | 'review' | 'account' | 'job';

export interface DataColumn {
  /** The CSV header, snake_case. */
  key: string;
  value: (r: Row) => Datum;
}

const o = (v: unknown) => (v ?? {}) as Row;
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : null);
const list = (v: unknown) => (Array.isArray(v) ? v.join(',') : null);
const count = (v: unknown) => (Array.isArray(v) ? v.length : null);

const col = (key: string, value: (r: Row) => Datum): DataColumn => ({ key, value });

const FEES = (fees: (r: Row) => unknown): DataColumn[] => [
  col('cleaning_fee', (r) => num(o(fees(r)).cleaning)),
  col('service_fee', (r) => num(o(fees(r)).service)),
  col('taxes', (r) => num(o(fees(r)).taxes)),
];

export const DATA_COLUMNS: Record<Kind, DataColumn[]> = {
  // search rows and `stays listing`: one flat row per property.
  property: [
    col('name', (r) => str(r.name)),
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.platformListingId)),
    col('id', (r) => str(r.id)),
    col('property_type', (r) => str(r.propertyType)),
    col('nightly_price', (r) => num(o(r.price).nightlyPrice)),
    col('total_price', (r) => num(o(r.price).totalPrice)),
    col('currency', (r) => str(o(r.price).currency)),
    col('nights', (r) => num(o(r.price).nights)),
    col('guest_rating', (r) => num(r.guestRating)),
    col('rating_scale', (r) => num(r.ratingScale)),
    col('review_count', (r) => num(r.reviewCount)),
    col('star_rating', (r) => num(r.starRating)),
    col('bedrooms', (r) => num(r.bedrooms)),
    col('bathrooms', (r) => num(r.bathrooms)),
    col('max_occupancy', (r) => num(r.maxOccupancy)),
    col('city', (r) => str(o(r.location).city)),
    col('region', (r) => str(o(r.location).region)),
    col('country', (r) => str(o(r.location).country)),
    col('address', (r) => str(o(r.location).address)),
    col('lat', (r) => num(o(r.location).lat)),
    col('lng', (r) => num(o(r.location).lng)),
    col('host_name', (r) => str(o(r.host).name)),
    col('superhost', (r) => bool(o(r.host).isSuperhost)),
    col('amenities', (r) => list(r.amenities)),
    col('image_count', (r) => count(r.images)),
    col('url', (r) => str(r.url)),
  ],
  price: [
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.listingId)),
    col('nightly_price', (r) => num(r.nightlyPrice)),
    col('total_price', (r) => num(r.totalPrice)),
    col('currency', (r) => str(r.currency)),
    col('nights', (r) => num(r.nights)),
    ...FEES((r) => r.fees),
    col('adults', (r) => num(o(r.occupancy).adults)),
    col('children', (r) => num(o(r.occupancy).children)),
    col('url', (r) => str(r.url)),
  ],
  // compare: one row per offer (the property, min and median are the command's footer on a table).
  offer: [
    col('seller', (r) => str(r.ota)),
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.listingId)),
    col('total_price', (r) => num(r.totalPrice)),
    col('nightly_price', (r) => num(r.nightlyPrice)),
    col('currency', (r) => str(r.currency)),
    col('nights', (r) => num(r.nights)),
    ...FEES((r) => r.fees),
    col('url', (r) => str(r.url)),
  ],
  // availability: one row per listing and day.
  day: [
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.listingId)),
    col('date', (r) => str(r.date)),
    col('available', (r) => bool(r.available)),
    col('bookable', (r) => bool(r.bookable)),
    col('min_nights', (r) => num(r.minNights)),
    col('check_in', (r) => bool(r.checkIn)),
    col('check_out', (r) => bool(r.checkOut)),
  ],
  review: [
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.listingId)),
    col('review_id', (r) => str(r.reviewId)),
    col('date', (r) => str(r.date)),
    col('rating', (r) => num(r.rating)),
    col('rating_scale', (r) => num(r.ratingScale)),
    col('author', (r) => str(r.author)),
    col('language', (r) => str(r.language)),
    col('trip_type', (r) => str(r.tripType)),
    col('title', (r) => str(r.title)),
    col('text', (r) => str(r.text)),
    col('liked', (r) => str(r.liked)),
    col('disliked', (r) => str(r.disliked)),
    col('owner_response', (r) => str(r.ownerResponse)),
  ],
  account: [
    col('plan', (r) => str(o(r.plan).code)),
    col('plan_name', (r) => str(o(r.plan).name)),
    col('status', (r) => str(o(r.plan).status)),
    col('key_env', (r) => str(o(r.key).env)),
    col('balance', (r) => num(o(r.credits).balance)),
    col('available', (r) => num(o(r.credits).available)),
    col('held', (r) => num(o(r.credits).held)),
    col('expiring_soon', (r) => num(o(r.credits).expiringSoon)),
    col('requests_per_minute', (r) => num(o(r.rateLimit).requestsPerMinute)),
  ],
  job: [
    col('job_id', (r) => str(r.jobId)),
    col('status', (r) => str(r.status)),
    col('estimated_seconds', (r) => num(r.estimatedSeconds)),
    col('error_code', (r) => str(o(r.error).code)),
    col('error_message', (r) => str(o(r.error).message)),
    col('poll_url', (r) => str(r.pollUrl)),
  ],
};

const NOTES: Partial<Record<Kind, string>> = {
  property: 'Prices are empty without --check-in/--check-out; guest_rating is on the scale in rating_scale; amenities is a comma list.',
  price: 'Prices and fees are in the currency column.',
  offer: 'Prices are in the currency column; platform, listing_id, nightly_price, nights and the fees are direct mode (--listings) only.',
  day: 'A rule the platform does not state is an empty cell, never a guess.',
  review: 'rating is on the scale in rating_scale; line breaks in texts become spaces.',
};

/** Words wrapped at `width` columns, each line indented. */
function wrap(words: string[], indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(indent + line);
  return lines;
}

const RULES = 'Numbers are plain (1234.5: no grouping, no currency), booleans true/false, unknown values empty; tsv has no header row.';

/** The "Columns" section of a command's --help: the tsv/csv columns in order, and their units. */
export function columnsHelp(kind: Kind): string {
  const keys = DATA_COLUMNS[kind].map((c, i, all) => (i < all.length - 1 ? `${c.key},` : c.key));
  const notes = [RULES, NOTES[kind] ?? ''].join(' ').trim();
  return ['', 'Columns of -o tsv and -o csv, in order (csv adds a header row of these names):', ...wrap(keys, '  ', 80), ...wrap(notes.split(' '), '', 80)].join('\n');
}
