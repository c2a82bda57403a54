// The columns of `-o tsv` and `-o csv`: data, not display. Numbers are plain numbers (255.62, 9.3;
// no grouping, no currency suffix), the currency and the rating scale have their own columns,
// booleans are true/false, an unknown value is an empty cell. CSV headers are these snake_case
// keys; TSV has no header (gh style). Each command's --help lists its columns from these very
// definitions (columnsHelp), so the documentation cannot drift. Command definition files import
// this module at start-up: it must stay free of imports.

export type Row = Record<string, unknown>;
export type Datum = string | number | boolean | null | undefined;

/** The shapes of `data` the CLI knows how to print (see view.ts). */
export type Kind = 'property' | 'price' | 'offer' | 'day' | 'review' | 'account' | 'job' | HistoryKind | StayKind;

/** The history reads (issue 26): a price series, a calendar's changes, the listings a place's searches showed, stored observations. */
export type HistoryKind = 'price_history' | 'calendar_change' | 'seen_listing' | 'observation' | 'inferred_booking';

/** Family S (snake_case data): a stay, and the rows or fields of each of its parts (stays stay get --part). */
export type StayKind = 'stay' | 'stay_photo' | 'stay_review' | 'stay_amenity' | 'stay_day' | 'stay_host' | 'stay_pricing' | 'stay_location' | 'stay_rating';

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

const items = (v: unknown) => (Array.isArray(v) ? v.flatMap((g) => (Array.isArray(o(g).items) ? (o(g).items as unknown[]) : [])).join(',') : null);
const breakdown = (v: unknown) => (Array.isArray(v) ? v.map((b) => `${String(o(b).label)} ${String(o(b).amount)}`).join(',') : null);

const col = (key: string, value: (r: Row) => Datum): DataColumn => ({ key, value });

const FEES = (fees: (r: Row) => unknown): DataColumn[] => [
  col('cleaning_fee', (r) => num(o(fees(r)).cleaning)),
  col('service_fee', (r) => num(o(fees(r)).service)),
  col('taxes', (r) => num(o(fees(r)).taxes)),
];

/** What a total includes, never an empty cell: true, false, or unknown (the source does not say, or an older server). */
const said = (v: unknown) => (v === true ? 'true' : v === false ? 'false' : 'unknown');
const INCLUDES = (includes: (r: Row) => unknown): DataColumn[] => [
  col('includes_cleaning', (r) => said(o(includes(r)).cleaning)),
  col('includes_service_fee', (r) => said(o(includes(r)).serviceFee)),
  col('includes_taxes', (r) => said(o(includes(r)).taxes)),
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
    ...INCLUDES((r) => r.includes),
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
    ...INCLUDES((r) => r.includes),
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
  // Family S: a stay (search rows, batch rows, stays stay get), snake_case as the API writes it.
  stay: [
    col('id', (r) => str(r.id)),
    col('title', (r) => str(r.title)),
    col('property_type', (r) => str(r.property_type)),
    col('room_type', (r) => str(r.room_type)),
    col('person_capacity', (r) => num(r.person_capacity)),
    col('star_rating', (r) => num(r.star_rating)),
    col('reviews_count', (r) => num(r.reviews_count)),
    col('price', (r) => num(o(r.pricing).price)),
    col('currency', (r) => str(o(r.pricing).currency)),
    col('rate_type', (r) => str(o(r.pricing).rate_type)),
    col('city', (r) => str(o(r.location).city)),
    col('country', (r) => str(o(r.location).country)),
    col('address', (r) => str(o(r.location).address)),
    col('latitude', (r) => num(o(r.location).latitude)),
    col('longitude', (r) => num(o(r.location).longitude)),
    col('host_id', (r) => str(o(r.host).id)),
    col('host_name', (r) => str(o(r.host).name)),
    col('is_superhost', (r) => bool(o(r.host).is_superhost)),
    col('photo_count', (r) => count(r.photos)),
    col('amenities', (r) => items(r.amenities)),
    col('url', (r) => str(r.url)),
  ],
  // The parts: rows carry the stay's id as stay_id.
  stay_photo: [col('stay_id', (r) => str(r.stay_id)), col('url', (r) => str(r.url)), col('caption', (r) => str(r.caption))],
  stay_review: [
    col('stay_id', (r) => str(r.stay_id)),
    col('review_id', (r) => str(r.id)),
    col('created_at', (r) => str(r.created_at)),
    col('rating', (r) => num(r.rating)),
    col('author_name', (r) => str(r.author_name)),
    col('text', (r) => str(r.text)),
  ],
  stay_amenity: [col('stay_id', (r) => str(r.stay_id)), col('category', (r) => str(r.category)), col('items', (r) => list(r.items))],
  stay_day: [
    col('stay_id', (r) => str(r.stay_id)),
    col('date', (r) => str(r.date)),
    col('available', (r) => bool(r.available)),
    col('min_nights', (r) => num(r.min_nights)),
    col('price', (r) => num(r.price)),
  ],
  stay_host: [
    col('stay_id', (r) => str(r.id)),
    col('host_id', (r) => str(o(r.host).id)),
    col('name', (r) => str(o(r.host).name)),
    col('is_superhost', (r) => bool(o(r.host).is_superhost)),
    col('rating', (r) => num(o(r.host).rating)),
    col('profile_url', (r) => str(o(r.host).profile_url)),
    col('profile_image_url', (r) => str(o(r.host).profile_image_url)),
  ],
  stay_pricing: [
    col('stay_id', (r) => str(r.id)),
    col('price', (r) => num(o(r.pricing).price)),
    col('currency', (r) => str(o(r.pricing).currency)),
    col('rate_type', (r) => str(o(r.pricing).rate_type)),
    col('breakdown', (r) => breakdown(o(r.pricing).breakdown)),
  ],
  stay_location: [
    col('stay_id', (r) => str(r.id)),
    col('latitude', (r) => num(o(r.location).latitude)),
    col('longitude', (r) => num(o(r.location).longitude)),
    col('address', (r) => str(o(r.location).address)),
    col('city', (r) => str(o(r.location).city)),
    col('country', (r) => str(o(r.location).country)),
  ],
  stay_rating: [
    col('stay_id', (r) => str(r.id)),
    col('star_rating', (r) => num(r.star_rating)),
    col('reviews_count', (r) => num(r.reviews_count)),
    ...(['accuracy', 'cleanliness', 'communication', 'location', 'value', 'check_in', 'guest_satisfaction'] as const).map((k) => col(k, (r) => num(o(r.rating_breakdown)[k]))),
  ],
  price_history: [
    col('observed_at', (r) => str(r.observedAt)),
    col('first_seen', (r) => str(r.firstSeen)),
    col('last_seen', (r) => str(r.lastSeen)),
    col('times_seen', (r) => num(r.timesSeen)),
    col('nightly_price', (r) => num(r.nightlyPrice)),
    col('total_price', (r) => num(r.totalPrice)),
    col('currency', (r) => str(r.currency)),
    col('source', (r) => str(r.source)),
  ],
  calendar_change: [
    col('date', (r) => str(r.date)),
    col('observed_at', (r) => str(r.observedAt)),
    col('available_from', (r) => bool(o(r.available).from)),
    col('available_to', (r) => bool(o(r.available).to)),
    col('min_nights_from', (r) => num(o(r.minNights).from)),
    col('min_nights_to', (r) => num(o(r.minNights).to)),
    col('price', (r) => num(r.price)),
    col('check_in_from', (r) => bool(o(r.checkIn).from)),
    col('check_in_to', (r) => bool(o(r.checkIn).to)),
    col('check_out_from', (r) => bool(o(r.checkOut).from)),
    col('check_out_to', (r) => bool(o(r.checkOut).to)),
    col('bookable_from', (r) => bool(o(r.bookable).from)),
    col('bookable_to', (r) => bool(o(r.bookable).to)),
    col('changed', (r) => (Array.isArray(r.changed) ? r.changed.join(' ') : null)),
  ],
  inferred_booking: [
    col('check_in', (r) => str(r.checkIn)),
    col('check_out', (r) => str(r.checkOut)),
    col('nights', (r) => num(r.nights)),
    col('booked_after', (r) => str(r.bookedAfter)),
    col('booked_before', (r) => str(r.bookedBefore)),
    col('lead_time_days', (r) => num(r.leadTimeDays)),
    col('last_price_seen', (r) => num(r.lastPriceSeen)),
    col('priced_nights', (r) => num(r.pricedNights)),
    col('mean_nightly_price_seen', (r) => num(r.meanNightlyPriceSeen)),
    col('currency', (r) => str(r.currency)),
    col('confidence', (r) => num(r.confidence)),
  ],
  seen_listing: [
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.listingId)),
    col('name', (r) => str(r.name)),
    col('first_seen', (r) => str(r.firstSeen)),
    col('last_seen', (r) => str(r.lastSeen)),
    col('times_seen', (r) => num(r.timesSeen)),
    col('in_latest_search', (r) => bool(r.inLatestSearch)),
  ],
  observation: [
    col('platform', (r) => str(r.platform)),
    col('listing_id', (r) => str(r.listingId)),
    col('kind', (r) => str(r.kind)),
    col('key', (r) => str(r.key)),
    col('currency', (r) => str(r.currency)),
    col('value', (r) => (r.value === undefined || r.value === null ? null : JSON.stringify(r.value))),
    col('source', (r) => str(r.source)),
    col('first_seen', (r) => str(r.firstSeen)),
    col('last_seen', (r) => str(r.lastSeen)),
    col('times_seen', (r) => num(r.timesSeen)),
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
  price: 'Prices and fees are in the currency column; includes_* say whether total_price includes each fee: true, false or unknown (an empty fee cell alone cannot say).',
  account: "One row: the key's account; balance, available, held and expiring_soon are credits.",
  offer:
    'Prices are in the currency column; platform, listing_id, nightly_price, nights and the fees are direct mode (--listings) only; includes_* say whether total_price includes each fee: true, false or unknown.',
  day: 'A rule the platform does not state is an empty cell, never a guess.',
  review: 'rating is on the scale in rating_scale; line breaks in texts become spaces.',
  stay: 'price is nightly, in the currency column, on dated search rows only; amenities is a comma list. With --fields, the columns are the paths asked for instead, in that order.',
  price_history: 'One row per change: a value seen again extends its row (last_seen, times_seen). Instants are ISO 8601 UTC; prices in the currency column.',
  calendar_change: 'One row per night per change (the latest snapshot is in -o json only); a night first observed changes from empty.',
  inferred_booking:
    'One row per inferred guest booking (host blocks are not bookings); booked_after empty: taken when first observed, so lead_time_days is a floor. The nights, counts and sample are in -o json.',
  seen_listing: 'in_latest_search false: the latest search of the location on that platform no longer showed it.',
  observation: 'value is the normalized values observed, as JSON.',
  stay_review: 'line breaks in texts become spaces.',
  stay_pricing: 'breakdown is a comma list of "label amount".',
};

/** The columns of stays stay get --part PART, by part. */
export const STAY_PART_KINDS = {
  photos: 'stay_photo',
  reviews: 'stay_review',
  host: 'stay_host',
  amenities: 'stay_amenity',
  availability: 'stay_day',
  pricing: 'stay_pricing',
  location: 'stay_location',
  rating: 'stay_rating',
} as const satisfies Record<string, StayKind>;

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

/** The columns of every part of a stay, one line each, for `stays stay get --help`. */
export function stayPartColumnsHelp(): string {
  const lines = Object.entries(STAY_PART_KINDS).flatMap(([part, kind]) => wrap(`--part ${part}: ${DATA_COLUMNS[kind].map((c) => c.key).join(', ')}`.split(' '), '  ', 80));
  return ['', "With --part, the columns are the part's (csv adds a header row of these names):", ...lines].join('\n');
}

/**
 * The "Columns" section of a command's --help: the tsv/csv columns in order, and their units.
 * `label`: which rows these are, when the help has more than one such section (search's two
 * forms); `rules`: the sentence on numbers and empty cells, said once per help.
 */
export function columnsHelp(kind: Kind, o: { label?: string; rules?: boolean } = {}): string {
  return columnListHelp(
    DATA_COLUMNS[kind].map((c) => c.key),
    NOTES[kind] ?? '',
    o,
  );
}

/** The same section for commands whose rows are printed by their own code (jobs list, webhooks list): test/cli/formats.test.ts holds each equal to the CSV header. */
export function columnListHelp(keys: readonly string[], notes = '', o: { label?: string; rules?: boolean } = {}): string {
  const listed = keys.map((k, i) => (i < keys.length - 1 ? `${k},` : k));
  const text = [o.rules === false ? '' : RULES, notes].join(' ').trim();
  const head = `Columns of -o tsv and -o csv${o.label ? ` ${o.label}` : ''}, in order (csv adds a header row of these names):`;
  return ['', ...wrap(head.split(' '), '', 80), ...wrap(listed, '  ', 80), ...(text ? wrap(text.split(' '), '', 80) : [])].join('\n');
}
