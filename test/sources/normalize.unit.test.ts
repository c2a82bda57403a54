// The airbnb and booking normalizers on hand-written raw rows shaped like the actor outputs in
// shared/research/upstream-actors.md (2.1–2.5), quirks included: airbnb money text, lying fee
// keys, "Not included" amenities, SEO titles and room-URL ids; booking URL ids, 10-scale ratings
// and string coordinates. Vrbo and google: normalize-vrbo-google.test.ts.
import { describe, expect, it } from 'vitest';
import { AvailabilitySchema, PriceSchema, PropertySchema, ReviewSchema } from '../../src/core/schemas/resources.js';
import type { StayQuery } from '../../src/core/upstream.js';
import * as airbnb from '../../src/sources/normalize/airbnb.js';
import * as booking from '../../src/sources/normalize/booking.js';
import type { AirbnbListingItem, BookingHotelItem } from '../../src/sources/raw/types.js';
import { caught } from '../helpers/caught.js';

const stay: StayQuery = { checkIn: '2026-11-06', checkOut: '2026-11-08', adults: 2, children: 0, childAges: [], currency: 'USD' };

// 2.1, the README item (trimmed as in the research doc).
const AIRBNB_README: AirbnbListingItem = {
  id: '14926879',
  url: 'https://www.airbnb.com/rooms/14926879',
  title: 'Terrific Notting Hill Studio - Apartments for Rent in London, England, United Kingdom - Airbnb',
  thumbnail: 'https://a0.muscache.com/pictures/miso/Hosting-14926879/original/218d04d9.jpeg',
  roomType: 'Entire home/apt',
  isSuperHost: false,
  personCapacity: 1,
  coordinates: { latitude: 51.5101, longitude: -0.1949 },
  rating: { accuracy: 4.76, checking: 4.85, cleanliness: 4.77, communication: 4.84, location: 4.95, value: 4.58, guestSatisfaction: 4.58, reviewsCount: 371 },
  host: { id: '82436841', name: 'Max And Billie', isSuperHost: false },
  subDescription: { title: 'Entire rental unit in London, United Kingdom', items: ['1 guest', 'Studio', '1 bed', '1 bath'] },
  amenities: [
    { title: 'Internet and office', values: [{ title: 'Wifi', subtitle: '', icon: 'SYSTEM_WI_FI', available: true }] },
    { title: 'Not included', values: [{ title: 'Air conditioning', subtitle: '', icon: 'SYSTEM_NO_AIR_CONDITIONING', available: '' }] },
  ],
  images: [],
  price: {
    label: '$107 per night',
    amount: '$107',
    qualifier: 'night',
    breakDown: {
      basePrice: { description: 'Cleaning fee', price: '$48' },
      basePriceBreakdown: [
        { description: '11/25/2024', price: '$107' },
        { description: 'Total Base Price', price: '$214' },
      ],
      serviceFee: { description: 'Airbnb service fee', price: '$40' },
      totalBeforeTaxes: { description: 'Total before taxes', price: '$302' },
    },
  },
};

describe('airbnb', () => {
  it('reads the README listing: SEO title cut, studio, rating object, "Not included" dropped', () => {
    const p = airbnb.normalizeListing(AIRBNB_README);
    expect(p).toMatchObject({
      id: 'stays_airbnb_14926879',
      platform: 'airbnb',
      platformListingId: '14926879',
      url: 'https://www.airbnb.com/rooms/14926879',
      name: 'Terrific Notting Hill Studio',
      propertyType: 'apartment',
      location: { lat: 51.5101, lng: -0.1949, city: null, region: null, country: null, address: null },
      starRating: null,
      guestRating: 4.58,
      ratingScale: 5,
      reviewCount: 371,
      maxOccupancy: 1,
      bedrooms: 0,
      bathrooms: 1,
      amenities: ['wifi'],
      images: [AIRBNB_README.thumbnail],
      host: { name: 'Max And Billie', isSuperhost: false },
    });
    expect(p).not.toHaveProperty('price');
    PropertySchema.parse(p);
  });

  it('maps fees by description when the key lies (basePrice holding the cleaning fee)', () => {
    const q = airbnb.normalizePrice(AIRBNB_README, { stay });
    expect(q).toEqual({
      platform: 'airbnb',
      listingId: '14926879',
      currency: 'USD',
      nightlyPrice: 107,
      totalPrice: 302,
      fees: { cleaning: 48, service: 40, taxes: null },
      nights: 2,
      occupancy: { adults: 2, children: 0, childAges: [] },
      source: 'airbnb',
      url: 'https://www.airbnb.com/rooms/14926879',
      // "Total before taxes": cleaning and service fee in it, taxes on top (issue 27, item 3).
      includes: { cleaning: true, serviceFee: true, taxes: false },
      lineItems: [
        { kind: 'nightly', label: '2 nights', amount: 214, currency: 'USD' },
        { kind: 'cleaning', label: 'Cleaning fee', amount: 48, currency: 'USD' },
        { kind: 'service_fee', label: 'Service fee', amount: 40, currency: 'USD' },
      ],
    });
    PriceSchema.parse(q);
  });

  it('reads "for N nights" as the stay total, not a nightly rate (pyairbnb #39); a bare total says nothing of what it includes', () => {
    const raw: AirbnbListingItem = { id: '14926879', checkIn: '2026-11-06', checkOut: '2026-11-09', price: { label: '$321 for 3 nights', amount: '$321', qualifier: 'for 3 nights' } };
    const q = airbnb.normalizePrice(raw, { stay })!;
    expect(q).toMatchObject({ totalPrice: 321, nightlyPrice: 107, nights: 3, includes: { cleaning: null, serviceFee: null, taxes: null } });
    expect(q.lineItems).toBeUndefined();
    const label = airbnb.normalizePrice({ ...raw, price: { label: '$321 for 3 nights' } }, { stay })!;
    expect(label).toMatchObject({ totalPrice: 321, nightlyPrice: 107 });
    // A nightly rate alone: the total computed here holds no fee.
    const nightly = airbnb.normalizePrice({ ...raw, price: { label: '$107 per night', amount: '$107', qualifier: 'night' } }, { stay })!;
    expect(nightly).toMatchObject({ totalPrice: 321, nightlyPrice: 107, includes: { cleaning: false, serviceFee: false, taxes: false } });
  });

  it('reads a discounted total label, with the nights the row priced, in the requested currency', () => {
    const raw: AirbnbListingItem = { id: '14926879', checkIn: '2026-11-06', checkOut: '2026-11-13', price: { label: '$1,079 total, originally $1,549', qualifier: 'total' } };
    const q = airbnb.normalizePrice(raw, { stay: { ...stay, currency: 'EUR' } })!;
    expect(q).toMatchObject({ currency: 'EUR', totalPrice: 1079, nightlyPrice: 154.14, nights: 7 });
    expect(airbnb.normalizePrice({ id: '1' }, { stay })).toBeNull();
    expect(airbnb.normalizePrice({ id: '1', price: { label: 'Price unavailable' } }, { stay })).toBeNull();
  });

  it('takes ids from room URLs, keeps 19-digit ids as strings, and refuses rows without an id', () => {
    expect(airbnb.normalizeListing({ url: 'https://www.airbnb.co.uk/rooms/plus/53997462?adults=2', title: 'X' }).platformListingId).toBe('53997462');
    expect(airbnb.normalizeListing({ id: '1381151382891849490', title: 'X' }).id).toBe('stays_airbnb_1381151382891849490');
    // A number past 2^53 has lost digits: the URL decides instead.
    expect(airbnb.normalizeListing({ id: 1381151382891849500, url: 'https://www.airbnb.com/rooms/1381151382891849490' }).platformListingId).toBe('1381151382891849490');
    const e = caught(() => airbnb.normalizeListing({ title: 'No id', url: 'https://www.airbnb.com/s/London' }));
    expect(e.code).toBe('all_actors_failed');
  });

  it('reads the legacy shape and a bare-number rating', () => {
    const p = airbnb.normalizeListing({
      url: 'https://www.airbnb.com/rooms/53486438',
      name: 'Deluxe Bungalows 10',
      stars: null,
      numberOfGuests: 3,
      roomType: 'Entire rental unit',
      location: { lat: -6.26389, lng: 39.44415 },
      primaryHost: { id: 431411846, firstName: 'Piotr', isSuperHost: false },
      photos: [{ caption: '', pictureUrl: 'https://a0.muscache.com/x.jpg?aki_policy=large' }],
      rating: 4.9,
    });
    expect(p).toMatchObject({
      platformListingId: '53486438',
      name: 'Deluxe Bungalows 10',
      propertyType: 'apartment',
      maxOccupancy: 3,
      guestRating: 4.9,
      reviewCount: null,
      location: { lat: -6.26389, lng: 39.44415 },
      host: { name: 'Piotr', isSuperhost: false },
      images: ['https://a0.muscache.com/x.jpg?aki_policy=large'],
    });
  });

  it('reads bedrooms and baths from localized items', () => {
    const rooms = (items: string[]) => airbnb.normalizeListing({ id: '1', title: 'X', subDescription: { items } });
    expect(rooms(['4 guests', '2 bedrooms', '3 beds', '1.5 baths'])).toMatchObject({ bedrooms: 2, bathrooms: 1.5 });
    expect(rooms(['1 bedroom', '1 bed', '1 shared bath'])).toMatchObject({ bedrooms: 1, bathrooms: 1 });
    expect(rooms(['Half-bath'])).toMatchObject({ bedrooms: null, bathrooms: 0.5 });
  });

  it('reads a review (2.2): no title, trip type or liked text; listing from startUrl; `comments` read too', () => {
    const raw = {
      id: '1201639499748794793',
      language: 'en',
      text: 'Great place, very clean!',
      localizedDate: 'July 2024',
      createdAt: '2024-07-15T22:43:11Z',
      rating: 5,
      reviewer: { id: '329999820', firstName: 'Dani', hostName: 'Dani' },
      response: 'Thank you so much for your kind words!',
      startUrl: 'https://www.airbnb.com/rooms/12345678',
    };
    const r = airbnb.normalizeReview(raw, {});
    expect(r).toEqual({
      platform: 'airbnb',
      listingId: '12345678',
      reviewId: '1201639499748794793',
      rating: 5,
      ratingScale: 5,
      title: null,
      text: 'Great place, very clean!',
      author: 'Dani',
      date: '2024-07-15',
      tripType: null,
      language: 'en',
      ownerResponse: 'Thank you so much for your kind words!',
      liked: null,
      disliked: null,
    });
    ReviewSchema.parse(r);
    const { text: _t, ...noText } = raw;
    expect(airbnb.normalizeReview({ ...noText, comments: 'Lovely' }, {}).text).toBe('Lovely');
    expect(caught(() => airbnb.normalizeReview({ ...raw, id: undefined }, {})).code).toBe('all_actors_failed');
  });

  it('reads both calendar spellings (2.3); what a day does not state stays null', () => {
    const cal = airbnb.normalizeCalendar(
      [
        {
          date: '2025-11-01',
          available: true,
          available_for_checkin: true,
          available_for_checkout: true,
          bookable: true,
          min_nights: 2,
          max_nights: 30,
          price: { local_price: 125, local_price_formatted: '£125', local_currency: 'GBP', local_adjusted_price: 125 },
        },
        { date: '2025-11-02', available: true, availableForCheckin: false, availableForCheckout: true, price: { amount: 125, currency: 'EUR' }, minimumStay: 3 },
        { date: '2025-11-03', available: false },
        { date: 'someday', available: true },
      ],
      { listingId: '12345678' },
    );
    expect(cal.dates).toEqual([
      { date: '2025-11-01', available: true, minNights: 2, checkIn: true, checkOut: true, bookable: true },
      { date: '2025-11-02', available: true, minNights: 3, checkIn: false, checkOut: true, bookable: null },
      { date: '2025-11-03', available: false, minNights: null, checkIn: null, checkOut: null, bookable: null },
    ]);
    AvailabilitySchema.parse(cal);
    // Airbnb answers whole months: days outside the window asked for are dropped.
    const windowed = airbnb.normalizeCalendar(
      [
        { date: '2025-10-31', available: true },
        { date: '2025-11-01', available: true },
      ],
      { listingId: '1', startDate: '2025-11-01', endDate: '2025-11-02' },
    );
    expect(windowed.dates.map((d) => d.date)).toEqual(['2025-11-01']);
  });
});

// 2.4, the README detail item (trimmed).
const BOOKING_README: BookingHotelItem = {
  order: 8,
  url: 'https://www.booking.com/hotel/cz/alfons.html?selected_currency=EUR&lang=en-us&group_adults=2&no_rooms=1&checkin=2022-06-10&checkout=2022-06-12',
  name: 'Alfons Boutique Hotel',
  type: 'Hotel',
  stars: 4,
  price: 184,
  rating: 9.1,
  reviews: 898,
  breakfast: 'Continental, Vegetarian, Gluten-free, American, Buffet',
  checkInFrom: '14:00',
  checkInTo: '22:00',
  location: { lat: '50.0739590', lng: '14.4300880' },
  address: { full: 'Legerova 41, Prague, 120 00, Czech Republic', postalCode: '120 00', street: 'Legerova 41', country: 'Czech Republic', region: '' },
  image: 'https://cf.bstatic.com/xdata/images/hotel/max1024x768/321992025.jpg?k=a',
  rooms: [{ available: true, roomType: 'King Room', price: 184, currency: '€ ', features: ['194 feet²', 'Air conditioning', 'Free WiFi'], conditions: ['Pay in advance'] }],
  images: ['https://cf.bstatic.com/xdata/images/hotel/max1024x768/321992025.jpg?k=a', 'https://cf.bstatic.com/xdata/images/hotel/max1024x768/2.jpg'],
  categoryReviews: [{ title: 'Cleanliness', score: 9.4 }],
};

describe('booking', () => {
  it('reads the README item: {cc}/{slug} id from the URL, rating kept on 10, string coordinates', () => {
    const p = booking.normalizeListing(BOOKING_README);
    expect(p).toEqual({
      id: 'stays_booking_cz/alfons',
      platform: 'booking',
      platformListingId: 'cz/alfons',
      url: 'https://www.booking.com/hotel/cz/alfons.html',
      name: 'Alfons Boutique Hotel',
      propertyType: 'hotel',
      location: { lat: 50.073959, lng: 14.430088, city: null, region: null, country: 'CZ', address: 'Legerova 41, Prague, 120 00, Czech Republic' },
      starRating: 4,
      guestRating: 9.1,
      ratingScale: 10,
      reviewCount: 898,
      maxOccupancy: null,
      bedrooms: null,
      bathrooms: null,
      amenities: ['wifi', 'air_conditioning', 'breakfast'],
      images: BOOKING_README.images,
      host: null,
    });
    PropertySchema.parse(p);
  });

  it('prices the whole stay from the URL dates and currency', () => {
    const q = booking.normalizePrice(BOOKING_README, { stay })!;
    expect(q).toMatchObject({ listingId: 'cz/alfons', currency: 'EUR', totalPrice: 184, nightlyPrice: 92, nights: 2, fees: { cleaning: null, service: null, taxes: null } });
    const taxed = booking.normalizePrice(
      { url: 'https://www.booking.com/hotel/fr/x.fr.html', rooms: [{ price: '€ 230', pricePerNight: 100, taxesAndCharges: '+€30 taxes and charges' }] },
      { stay: { ...stay, currency: 'EUR' } },
    );
    expect(taxed).toMatchObject({ listingId: 'fr/x', currency: 'EUR', totalPrice: 230, nightlyPrice: 100, fees: { taxes: 30 } });
    expect(booking.normalizePrice({ url: BOOKING_README.url }, { stay })).toBeNull();
  });

  it('reads old builds: stars as a string, swapped coordinates, a language suffix in the URL', () => {
    const p = booking.normalizeListing({ url: 'https://www.booking.com/hotel/us/the-mission.en-gb.html', name: 'The Mission', stars: '4', location: { lat: '-122.4194', lng: '37.7749' } });
    expect(p).toMatchObject({ platformListingId: 'us/the-mission', starRating: 4, location: { lat: 37.7749, lng: -122.4194 } });
    // Only an impossible latitude gives a swap away; the research's Prague pair (14.41, 50.09) is
    // a valid point elsewhere, so it is read as stated.
    const prague = booking.normalizeListing({ url: 'https://www.booking.com/hotel/cz/u-zlate-studny.html', name: 'U Zlaté studny', location: { lat: '14.41', lng: '50.09' } });
    expect(prague.location).toMatchObject({ lat: 14.41, lng: 50.09 });
    expect(caught(() => booking.normalizeListing({ name: 'No url', hotelId: '1234567' })).code).toBe('all_actors_failed');
  });

  it('reads a review (2.5) on 10, and the older reviewTextParts', () => {
    const raw = {
      id: 'a1b2c3d4e5',
      hotelId: '1234567',
      reviewTitle: 'Exceptional',
      rating: 10,
      reviewDate: '2024-07-01T00:00:00.000Z',
      likedText: 'Quiet, great breakfast',
      dislikedText: 'Small bathroom',
      userName: 'Jane',
      userLocation: 'United States',
      travelerType: 'Couple',
      reviewLanguage: 'en',
      startUrl: 'https://www.booking.com/hotel/us/example.html',
    };
    const r = booking.normalizeReview(raw, {});
    expect(r).toEqual({
      platform: 'booking',
      listingId: 'us/example',
      reviewId: 'a1b2c3d4e5',
      rating: 10,
      ratingScale: 10,
      title: 'Exceptional',
      text: null,
      author: 'Jane',
      date: '2024-07-01',
      tripType: 'couple',
      language: 'en',
      ownerResponse: null,
      liked: 'Quiet, great breakfast',
      disliked: 'Small bathroom',
    });
    ReviewSchema.parse(r);
    const { likedText: _l, dislikedText: _d, ...old } = raw;
    expect(booking.normalizeReview({ ...old, reviewTextParts: { Liked: 'Staff', Disliked: 'Noise' } }, {})).toMatchObject({ liked: 'Staff', disliked: 'Noise' });
  });
});
