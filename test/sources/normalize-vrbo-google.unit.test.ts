// The vrbo and google normalizers on hand-written raw rows shaped like the actor outputs in
// shared/research/upstream-actors.md (2.6–2.7), quirks included: vrbo double-nested lists,
// `ratesummary` casing and 10-scale ratings (brought onto the spec's 5); google "$139" prices.
import { describe, expect, it } from 'vitest';
import { OfferSchema, PriceSchema, PropertySchema, ReviewSchema } from '../../src/core/schemas/resources.js';
import type { StayQuery } from '../../src/core/upstream.js';
import * as google from '../../src/sources/normalize/google.js';
import * as vrbo from '../../src/sources/normalize/vrbo.js';
import type { GoogleHotelItem, VrboPropertyItem } from '../../src/sources/raw/types.js';
import { caught } from '../helpers/caught.js';

const stay: StayQuery = { checkIn: '2026-11-06', checkOut: '2026-11-08', adults: 2, children: 0, childAges: [], currency: 'USD' };

// 2.6, the jupri/vrbo-property item.
const VRBO_JUPRI: VrboPropertyItem = {
  id: '4886746',
  name: 'Sandy Lane Garden Villa',
  description: { about: { items: [{ items: [{ value: 'Welcome to ...' }] }] } },
  highlights: { bedroomsCount: 4, bathroomsCount: 3, sleepsCount: 8 },
  address: { city: 'Destin', province: 'FL' },
  coordinate: { latitude: 30.39, longitude: -86.49 },
  amenities: { items: [{ items: [{ value: 'Pool' }, { value: 'WiFi' }] }, { items: [{ value: 'Ocean View' }, { value: 'Pool' }] }] },
  gallery: [
    { name: 'All photos', images: [{ url: 'https://media.vrbo.com/1.jpg', name: 'Living room' }] },
    { name: 'Living room', images: [{ url: 'https://media.vrbo.com/1.jpg' }] },
  ],
  reviews: { total: 84, reviews: [{ text: '...', rating: 10, reviewer: { name: 'Ann' }, reviewDate: '2024-05-02', response: null }] },
  availabilityCalendar: {},
  rateSummary: { rentNights: [], rentNightsConverted: [] },
};

describe('vrbo', () => {
  it('reads the jupri item: double-nested amenities, singular coordinate, repeated gallery photos', () => {
    const p = vrbo.normalizeListing(VRBO_JUPRI);
    expect(p).toMatchObject({
      id: 'stays_vrbo_4886746',
      url: 'https://www.vrbo.com/4886746',
      name: 'Sandy Lane Garden Villa',
      propertyType: 'other',
      location: { lat: 30.39, lng: -86.49, city: 'Destin', region: 'FL', country: null, address: null },
      guestRating: null,
      ratingScale: 5,
      reviewCount: 84,
      maxOccupancy: 8,
      bedrooms: 4,
      bathrooms: 3,
      amenities: ['pool', 'wifi', 'sea_view'],
      images: ['https://media.vrbo.com/1.jpg'],
      host: null,
    });
    PropertySchema.parse(p);
    expect(vrbo.normalizePrice(VRBO_JUPRI, { stay })).toBeNull();
  });

  it('brings 10-scale ratings onto the spec scale 5 (the one documented exception)', () => {
    expect(vrbo.normalizeListing({ ...VRBO_JUPRI, reviews: { total: 84, averageRating: 9.4, ratingMax: 10 } }).guestRating).toBe(4.7);
    expect(vrbo.vrboRating(10, 10)).toBe(5);
    expect(vrbo.vrboRating(9.3, 10)).toBe(4.65);
    expect(vrbo.vrboRating(4, undefined)).toBe(4); // no maximum: already on 5
    expect(vrbo.vrboRating(10, undefined)).toBe(5); // above 5 can only be the 10 scale
    expect(vrbo.vrboRating(80, 100)).toBe(4);
    expect(vrbo.vrboRating(null, 10)).toBeNull();
  });

  it('reads the `ratesummary` casing and averages uneven nights', () => {
    const { rateSummary: _r, ...rest } = VRBO_JUPRI;
    const q = vrbo.normalizePrice({ ...rest, ratesummary: { rentNights: [180, 200], rentNightsConverted: [200, 220] } }, { stay })!;
    expect(q).toMatchObject({ listingId: '4886746', currency: 'USD', nightlyPrice: 210, totalPrice: 420, nights: 2, fees: { cleaning: null, service: null, taxes: null } });
    PriceSchema.parse(q);
  });

  it('reads a powerai review on 10 back to 5; a row without an id or date is refused', () => {
    const raw = { reviewId: 'r-1', author: 'Ann', rating: 8, ratingMax: 10, reviewText: 'Lovely', stayedText: 'Stayed 3 nights in May 2024', reviewDate: '2024-05-02' };
    const r = vrbo.normalizeReview(raw, { listingId: '4886746' });
    expect(r).toMatchObject({ listingId: '4886746', reviewId: 'r-1', rating: 4, ratingScale: 5, text: 'Lovely', author: 'Ann', date: '2024-05-02', liked: null });
    ReviewSchema.parse(r);
    expect(caught(() => vrbo.normalizeReview({ text: '...', rating: 10, reviewer: { name: 'Ann' }, reviewDate: '2024-05-02' }, { listingId: '4886746' })).code).toBe('all_actors_failed');
    const { reviewDate: _d, ...undated } = raw;
    expect(caught(() => vrbo.normalizeReview(undated, { listingId: '4886746' })).code).toBe('all_actors_failed');
  });

  it('derives bookable from stated availability and check-in validity only', () => {
    const cal = vrbo.normalizeCalendar(
      [
        { date: '2026-07-01', available: true, checkinValidity: 'VALID', checkoutValidity: 'INVALID', stayConstraint: { minNights: 3 } },
        { date: '2026-07-02', available: true, checkinValidity: 'INVALID' },
        { date: '2026-07-03', available: true },
        { date: '2026-07-04', available: false },
      ],
      { listingId: '4886746' },
    );
    expect(cal.dates.map((d) => [d.checkIn, d.checkOut, d.minNights, d.bookable])).toEqual([
      [true, false, 3, true],
      [false, null, null, false],
      [null, null, null, null],
      [null, null, null, false],
    ]);
  });
});

// 2.7, the martin.forejt item.
const GOOGLE_REGINA: GoogleHotelItem = {
  name: 'Hotel Regina',
  url: 'https://www.google.com/travel/hotels/entity/ChcIyo2ZwPrZ6KaUARoKL2cvMXRkMTlfNRAB',
  address: 'Rooseveltplatz 15, 1090 Wien, Austria',
  rating: 4.3,
  reviewsCount: 1847,
  hotelClass: 4,
  checkInDate: '2026-11-06',
  checkOutDate: '2026-11-08',
  currency: 'USD',
  prices: [
    { provider: 'Booking.com', price: '$139', link: 'https://www.google.com/travel/clk?a=1' },
    { provider: 'Expedia.com', price: 145, link: 'https://www.google.com/travel/clk?a=2' },
    { provider: 'Hotel Regina (official site)', price: '$132', link: 'https://www.google.com/travel/clk?a=3' },
    { provider: 'Agoda', price: 'Sold out', link: 'https://www.google.com/travel/clk?a=4' },
    { provider: 'Trip.com', price: '$150', link: 'not a link' },
  ],
};

// Google's sellers' prices say nothing of fees or taxes (issue 27, item 3).
const UNKNOWN = { cleaning: null, serviceFee: null, taxes: null };

describe('google', () => {
  it('reads sellers from prices[], "$139" strings and numbers alike; unpriceable or unlinked sellers dropped', () => {
    const g = google.normalizeHotelOffers(GOOGLE_REGINA, { stay: { ...stay, currency: 'EUR' } });
    expect(g).toEqual({
      property: 'Hotel Regina',
      offers: [
        { ota: 'Booking.com', totalPrice: 139, currency: 'USD', url: 'https://www.google.com/travel/clk?a=1', includes: UNKNOWN },
        { ota: 'Expedia.com', totalPrice: 145, currency: 'USD', url: 'https://www.google.com/travel/clk?a=2', includes: UNKNOWN },
        { ota: 'Hotel Regina (official site)', totalPrice: 132, currency: 'USD', url: 'https://www.google.com/travel/clk?a=3', includes: UNKNOWN },
      ],
    });
    g.offers.forEach((o) => OfferSchema.parse(o));
    expect(caught(() => google.normalizeHotelOffers({ prices: [] }, { stay })).code).toBe('all_actors_failed');
  });

  it('reads the hotel: id from the entity URL, rating on 5, class apart', () => {
    const p = google.normalizeListing(GOOGLE_REGINA);
    expect(p).toMatchObject({
      id: 'stays_google_ChcIyo2ZwPrZ6KaUARoKL2cvMXRkMTlfNRAB',
      propertyType: 'hotel',
      starRating: 4,
      guestRating: 4.3,
      ratingScale: 5,
      reviewCount: 1847,
      location: { lat: null, lng: null, address: 'Rooseveltplatz 15, 1090 Wien, Austria' },
      bedrooms: null,
      host: null,
      amenities: [],
    });
    PropertySchema.parse(p);
    expect(google.normalizeListing({ ...GOOGLE_REGINA, hotelClass: '5-star hotel' }).starRating).toBe(5);
    expect(caught(() => google.normalizeListing({ name: 'No url' })).code).toBe('all_actors_failed');
  });

  it('prices from eiv-style pricePerNight/totalPrice, either given alone', () => {
    expect(google.normalizePrice({ ...GOOGLE_REGINA, pricePerNight: 139, totalPrice: 319 }, { stay })).toMatchObject({ nightlyPrice: 139, totalPrice: 319, nights: 2 });
    expect(google.normalizePrice({ ...GOOGLE_REGINA, pricePerNight: '$139' }, { stay })).toMatchObject({ nightlyPrice: 139, totalPrice: 278 });
    expect(google.normalizePrice({ ...GOOGLE_REGINA, totalPrice: '$279' }, { stay })).toMatchObject({ nightlyPrice: 139.5, totalPrice: 279 });
    expect(google.normalizePrice(GOOGLE_REGINA, { stay })).toBeNull();
  });

  it('a per-night scan states availability only', () => {
    const cal = google.normalizeCalendar([{ date: '2026-11-06', available: true }], { listingId: 'ChcIyo2ZwPrZ6KaUARoKL2cvMXRkMTlfNRAB' });
    expect(cal.dates).toEqual([{ date: '2026-11-06', available: true, minNights: null, checkIn: null, checkOut: null, bookable: null }]);
  });
});
