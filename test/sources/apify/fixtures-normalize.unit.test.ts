// Every shape the fake serves, read by its platform's normalizer directly: the quirks each
// fixture carries come out as the unified fields (localized money text, "€ " as a currency,
// string and swapped coordinates, 19-digit string ids, native rating scales, renamed fields,
// amenities on the canonical taxonomy).
import { describe, expect, it } from 'vitest';
import type { Need } from '../../../src/core/upstream.js';
import * as airbnb from '../../../src/sources/normalize/airbnb.js';
import * as booking from '../../../src/sources/normalize/booking.js';
import * as google from '../../../src/sources/normalize/google.js';
import * as vrbo from '../../../src/sources/normalize/vrbo.js';
import { FIXTURES, IDS } from '../../fakes/apify/fixtures.js';
import { stay } from './helpers.js';

const f = <P extends keyof typeof FIXTURES>(p: P, n: Need, shape: 'normal' | 'legacy' | 'other') => FIXTURES[p][n]![shape]! as never[];

describe('airbnb fixtures', () => {
  it('current listing: 19-digit id kept as a string, SEO title cut, rating on 5, "Not included" dropped', () => {
    const l = airbnb.normalizeListing(f('airbnb', 'listing', 'normal')[0]!);
    expect(l).toMatchObject({ platformListingId: IDS.airbnb, name: 'Terrific Notting Hill Studio', guestRating: 4.58, ratingScale: 5, bedrooms: 0, bathrooms: 1, amenities: ['kitchen', 'wifi'] });
  });
  it('current price: "$1,079 total" text in the requested currency, fees by description', () => {
    expect(airbnb.normalizePrice(f('airbnb', 'price', 'normal')[0]!, { stay })).toMatchObject({ currency: 'USD', totalPrice: 1079, nightlyPrice: 539.5, fees: { cleaning: 48, service: 40 } });
  });
  it('legacy listing and price: id from the URL, name, location {lat,lng}, pricing.rate as a number with its currency', () => {
    const row = f('airbnb', 'listing', 'legacy')[0]!;
    expect(airbnb.normalizeListing(row)).toMatchObject({
      platformListingId: IDS.airbnb,
      name: 'Deluxe Bungalows 10',
      location: { lat: -6.26389, lng: 39.44415 },
      maxOccupancy: 3,
      host: { name: 'Piotr' },
    });
    expect(airbnb.normalizePrice(row, { stay })).toMatchObject({ currency: 'USD', nightlyPrice: 500, totalPrice: 1000, nights: 2 });
  });
  it('calendars: rigelbytes camelCase and calendar_months snake_case', () => {
    const ctx = { listingId: IDS.airbnb, startDate: '2026-11-06', endDate: '2026-11-08' };
    expect(airbnb.normalizeCalendar(f('airbnb', 'availability', 'normal'), ctx).dates[0]).toEqual({
      date: '2026-11-06',
      available: true,
      minNights: 2,
      checkIn: true,
      checkOut: false,
      bookable: null,
    });
    const legacy = (f('airbnb', 'availability', 'legacy')[0] as unknown as { calendar: never[] }).calendar;
    expect(airbnb.normalizeCalendar(legacy, ctx).dates[0]).toEqual({ date: '2026-11-06', available: true, minNights: 2, checkIn: true, checkOut: false, bookable: true });
  });
  it('reviews: text, or the GraphQL comments of other actors; 19-digit review ids as strings', () => {
    expect(airbnb.normalizeReview(f('airbnb', 'reviews', 'normal')[0]!, { listingId: IDS.airbnb })).toMatchObject({
      reviewId: '1201639499748794793',
      rating: 5,
      text: 'Great place, very clean!',
      ownerResponse: 'Thank you!',
      date: '2024-07-15',
    });
    expect(airbnb.normalizeReview(f('airbnb', 'reviews', 'legacy')[0]!, { listingId: IDS.airbnb })).toMatchObject({ text: 'Nice stay', author: 'Kim' });
  });
});

describe('booking fixtures', () => {
  it('current hotel: id from the URL, string coordinates, rating on 10, amenities from room features', () => {
    expect(booking.normalizeListing(f('booking', 'listing', 'normal')[0]!)).toMatchObject({
      platformListingId: 'cz/alfons',
      location: { lat: 50.073959, lng: 14.430088, country: 'CZ' },
      guestRating: 9.1,
      ratingScale: 10,
      starRating: 4,
      amenities: expect.arrayContaining(['wifi', 'air_conditioning', 'breakfast']),
    });
  });
  it('current price: the stay total with the URL\'s selected currency ("€ " on rooms is a symbol, not a code)', () => {
    expect(booking.normalizePrice(f('booking', 'price', 'normal')[0]!, { stay })).toMatchObject({ currency: 'EUR', totalPrice: 368, nightlyPrice: 184 });
  });
  it('legacy hotel: stars and rating as strings, the address a string, a language-suffixed URL, price as "€ 368"', () => {
    const row = f('booking', 'listing', 'legacy')[0]!;
    expect(booking.normalizeListing(row)).toMatchObject({ platformListingId: 'cz/alfons', starRating: 4, guestRating: 9.1, location: { address: 'Legerova 41, Prague, 120 00, Czech Republic' } });
    // No selected_currency in the URL and no ISO code: the requested currency.
    expect(booking.normalizePrice(row, { stay })).toMatchObject({ currency: 'USD', totalPrice: 368 });
  });
  it('reviews: likedText/dislikedText, or reviewTextParts in older builds; rated on 10', () => {
    expect(booking.normalizeReview(f('booking', 'reviews', 'normal')[0]!, { listingId: IDS.booking })).toMatchObject({
      rating: 10,
      ratingScale: 10,
      liked: 'Quiet, great breakfast',
      disliked: 'Small bathroom',
      tripType: 'couple',
    });
    expect(booking.normalizeReview(f('booking', 'reviews', 'legacy')[0]!, { listingId: IDS.booking })).toMatchObject({ rating: 8, liked: 'Location', disliked: 'Noise' });
  });
  it('calendar rows, with and without bookable', () => {
    const ctx = { listingId: IDS.booking };
    expect(booking.normalizeCalendar(f('booking', 'availability', 'normal'), ctx).dates.map((d) => d.bookable)).toEqual([true, false]);
    expect(booking.normalizeCalendar(f('booking', 'availability', 'legacy'), ctx).dates.map((d) => d.bookable)).toEqual([null, null]);
  });
});

describe('vrbo fixtures', () => {
  it('current property: coordinate (singular), twice-nested amenities, a 10-scale average onto 5, converted rents', () => {
    const row = f('vrbo', 'listing', 'normal')[0]!;
    expect(vrbo.normalizeListing(row)).toMatchObject({
      platformListingId: IDS.vrbo,
      propertyType: 'villa',
      location: { lat: 30.39, lng: -86.49 },
      guestRating: 4.8,
      ratingScale: 5,
      amenities: ['pool', 'wifi'],
      maxOccupancy: 8,
    });
    expect(vrbo.normalizePrice(row, { stay })).toMatchObject({ nightlyPrice: 320, totalPrice: 640, currency: 'USD' });
    const cal = (row as unknown as { availabilityCalendar: never[] }).availabilityCalendar;
    expect(vrbo.normalizeCalendar(cal, { listingId: IDS.vrbo }).dates[0]).toEqual({ date: '2026-11-06', available: true, minNights: 3, checkIn: true, checkOut: false, bookable: true });
  });
  it('legacy property: a /p<id> URL instead of an id, the lower-case ratesummary', () => {
    const row = f('vrbo', 'listing', 'legacy')[0]!;
    expect(vrbo.normalizeListing(row)).toMatchObject({ platformListingId: IDS.vrbo, amenities: ['hot_tub'] });
    expect(vrbo.normalizePrice(row, { stay })).toMatchObject({ nightlyPrice: 290, totalPrice: 580 });
  });
  it('reviews: powerai (ratingMax 10) and the embedded shape (text, reviewer.name), both onto 5', () => {
    expect(vrbo.normalizeReview(f('vrbo', 'reviews', 'normal')[0]!, { listingId: IDS.vrbo })).toMatchObject({ rating: 5, author: 'Ann', text: 'Perfect' });
    expect(vrbo.normalizeReview(f('vrbo', 'reviews', 'legacy')[0]!, { listingId: IDS.vrbo })).toMatchObject({ rating: 4, author: 'Bob', text: 'Good house', ownerResponse: 'Thanks Bob' });
  });
});

describe('google fixtures', () => {
  it('current hotel: "$139" text prices, rating on 5, class 4; offers per seller', () => {
    const row = f('google', 'listing', 'normal')[0]!;
    expect(google.normalizeListing(row)).toMatchObject({ platformListingId: IDS.google, starRating: 4, guestRating: 4.3, ratingScale: 5 });
    expect(google.normalizePrice(row, { stay })).toMatchObject({ nightlyPrice: 139, totalPrice: 278, currency: 'USD' });
    expect(google.normalizeHotelOffers(row, { stay }).offers.map((o) => [o.ota, o.totalPrice])).toEqual([
      ['Booking.com', 278],
      ['Expedia.com', 290],
    ]);
  });
  it('legacy hotel: numeric prices, "4-star hotel", gps_coordinates; a seller without a price is left out', () => {
    const row = f('google', 'listing', 'legacy')[0]!;
    expect(google.normalizeListing(row)).toMatchObject({ starRating: 4, location: { lat: 48.2149, lng: 16.3593 } });
    expect(google.normalizeHotelOffers(row, { stay }).offers).toHaveLength(1);
  });
  it('calendar rows', () => {
    expect(google.normalizeCalendar(f('google', 'availability', 'normal'), { listingId: IDS.google }).dates.map((d) => d.available)).toEqual([true, false]);
  });
});
