// Google-mode price comparison in the sandbox: 3–6 sellers' totals for one property and stay, as
// Google Hotels aggregates them, cheapest first.
import type { Offer } from '../../core/schemas/resources.js';
import { listingUrl } from '../../core/listing-ref.js';
import { UNKNOWN_INCLUDES } from '../../core/price-parts.js';
import { coreFor, nativeId } from './core.js';
import { assertCompare, assertListing } from '../../core/sandbox-triggers.js';
import { quote, roundMoney } from './money.js';
import { slugify } from './names.js';
import { ID_ALPHABET, NOWHERE, placeForListing, placeKey, resolvePlace } from './places.js';
import { rng } from './prng.js';
import { CandidateRows, detailRow } from './rows.js';
import type { GoogleCompareQuery, StayQuery } from './types.js';

const OTAS = ['Booking.com', 'Expedia', 'Hotels.com', 'Agoda', 'Trip.com'] as const;

export function compareGoogle(query: GoogleCompareQuery, stay: StayQuery): { property: string; offers: Offer[] } {
  const modes = [assertCompare(query.name), assertCompare(query.location)];
  const hotelId = query.googleHotelId?.trim();
  if (hotelId) assertListing(hotelId, 'price');
  const name = query.name?.trim();
  let id: string;
  let property: string;
  if (hotelId) {
    id = hotelId;
    property = detailRow('google', id).property.name;
  } else if (name) {
    // The id says the place asked about (a built-in city's code, else nowhere), as a search row's does.
    const code = query.location ? (resolvePlace(query.location).cityIndex ?? NOWHERE) : NOWHERE;
    id = nativeId('google', rng('compare-id', placeKey(name), placeKey(query.location ?? '')), code, NOWHERE + 1, ID_ALPHABET);
    property = name;
  } else {
    const top = new CandidateRows('google', query.location ?? '').next()!;
    id = top.id;
    property = top.property.name;
  }
  if (modes.includes('empty')) return { property, offers: [] };

  const place = query.location ? resolvePlace(query.location) : placeForListing('google', id);
  const cc = (place?.country ?? 'US').toLowerCase();
  const citySlug = slugify(place?.city ?? 'city', 30);
  const slug = slugify(property, 40);
  const q = quote({ platform: 'google', id, url: listingUrl('google', id), basis: coreFor('google', id).basis, stay });
  const base = q.totalPrice;
  const nights = q.nights;
  const cur = stay.currency;
  const ids = rng('ota-ids', id);
  const num = String(ids.int(100_000, 99_999_999));
  const { checkIn, checkOut, adults } = stay;
  const urls: Record<string, string> = {
    'Booking.com': `https://www.booking.com/hotel/${cc}/${slug}.html?checkin=${checkIn}&checkout=${checkOut}&group_adults=${adults}&selected_currency=${cur}`,
    Expedia: `https://www.expedia.com/${citySlug}-Hotels-${slug}.h${num}.Hotel-Information?chkin=${checkIn}&chkout=${checkOut}`,
    'Hotels.com': `https://www.hotels.com/ho${num}/?chkin=${checkIn}&chkout=${checkOut}`,
    Agoda: `https://www.agoda.com/${slug}/hotel/${citySlug}.html?checkIn=${checkIn}&los=${nights}&adults=${adults}`,
    'Trip.com': `https://www.trip.com/hotels/detail/?hotelId=${num}&checkIn=${checkIn}&checkOut=${checkOut}`,
  };
  const official = `${property} (official site)`;
  urls[official] = `https://${slug}.example/book?checkin=${checkIn}&checkout=${checkOut}`;

  // Seller choice and spreads do not depend on the currency, so totals convert consistently.
  const r = rng('compare', id, checkIn, checkOut, adults, stay.children);
  const sellers = r.sample([...OTAS, official], r.int(3, 6));
  const offers: Offer[] = sellers.map((ota) => ({
    ota,
    totalPrice: roundMoney(base * (ota === official ? r.range(0.9, 1.02) : r.range(0.94, 1.09)), cur),
    currency: cur,
    url: urls[ota]!,
    includes: { ...UNKNOWN_INCLUDES },
  }));
  offers.sort((a, b) => a.totalPrice - b.totalPrice || (a.ota < b.ota ? -1 : a.ota > b.ota ? 1 : 0));
  return { property, offers: modes.includes('single') ? offers.slice(0, 1) : offers };
}
