// Recorded-shape dataset items per actor (shared/research/upstream-actors.md §2), the current
// shape and a legacy one, quirks kept (localized money text, "€ " as a currency, string
// coordinates, 19-digit string ids, ratings on each platform's own scale, renamed fields).
// The fake serves them; test/sources/apify-fixtures.test.ts reads each through its normalizer.
import type { EnabledPlatform } from '../../../src/core/platforms.js';
import type { Need } from '../../../src/core/upstream.js';

export const IDS = {
  airbnb: '1381151382891849490',
  booking: 'cz/alfons',
  vrbo: '4886746',
  google: 'ChcIqOT1nq2Lz7qHARoKL2cvMXRjejZ3cBAB',
} as const satisfies Record<EnabledPlatform, string>;

/** The actor each test configures per platform and need (the defaults where one exists). */
export const ACTORS: Record<EnabledPlatform, Partial<Record<Need, string>>> = {
  airbnb: {
    search: 'tri_angle~airbnb-scraper',
    listing: 'tri_angle~airbnb-rooms-urls-scraper',
    price: 'tri_angle~airbnb-rooms-urls-scraper',
    availability: 'rigelbytes~airbnb-availability-calendar',
    reviews: 'tri_angle~airbnb-reviews-scraper',
  },
  booking: {
    search: 'voyager~booking-scraper',
    listing: 'voyager~booking-scraper',
    price: 'voyager~booking-scraper',
    availability: 'test~booking-calendar',
    reviews: 'voyager~booking-reviews-scraper',
  },
  vrbo: { search: 'jupri~vrbo-property', listing: 'jupri~vrbo-property', price: 'jupri~vrbo-property', availability: 'jupri~vrbo-property', reviews: 'powerai~vrbo-reviews-scraper' },
  google: {
    search: 'martin.forejt~google-hotels-scraper',
    listing: 'martin.forejt~google-hotels-scraper',
    price: 'martin.forejt~google-hotels-scraper',
    availability: 'test~google-calendar',
    compare: 'martin.forejt~google-hotels-scraper',
  },
};

const AIRBNB_URL = `https://www.airbnb.com/rooms/${IDS.airbnb}`;

// 2.1 README item (current builds), on the 19-digit id.
const airbnbListing = {
  id: IDS.airbnb,
  url: AIRBNB_URL,
  title: 'Terrific Notting Hill Studio - Apartments for Rent in London, England, United Kingdom - Airbnb',
  thumbnail: 'https://a0.muscache.com/pictures/miso/Hosting-1/original/218d04d9.jpeg',
  roomType: 'Entire home/apt',
  isSuperHost: false,
  personCapacity: 2,
  coordinates: { latitude: 51.5101, longitude: -0.1949 },
  rating: { accuracy: 4.76, checking: 4.85, cleanliness: 4.77, communication: 4.84, location: 4.95, value: 4.58, guestSatisfaction: 4.58, reviewsCount: 371 },
  host: { id: '82436841', name: 'Max And Billie', isSuperHost: false },
  subDescription: { title: 'Entire rental unit in London, United Kingdom', items: ['2 guests', 'Studio', '1 bed', '1 bath'] },
  amenities: [
    { title: 'Internet and office', values: [{ title: 'Wifi', subtitle: '', icon: 'SYSTEM_WI_FI', available: true }] },
    { title: 'Kitchen and dining', values: [{ title: 'Kitchen', subtitle: '', icon: 'SYSTEM_COOKING_BASICS', available: true }] },
    { title: 'Not included', values: [{ title: 'Air conditioning', subtitle: '', icon: 'SYSTEM_NO_AIR_CONDITIONING', available: '' }] },
  ],
  checkIn: '2026-11-06',
  checkOut: '2026-11-08',
  price: {
    label: '$1,079 total, originally $1,549',
    price: '$1,079',
    originalPrice: '$1,549',
    qualifier: 'total',
    breakDown: { cleaningFee: { description: 'Cleaning fee', price: '$48' }, serviceFee: { description: 'Airbnb service fee', price: '$40' } },
  },
};
// Legacy builds (≤ 0.0.66): no id (the URL has it), name, location {lat,lng}, pricing.rate, photos, a numeric host id.
const airbnbLegacy = {
  url: AIRBNB_URL,
  name: 'Deluxe Bungalows 10',
  stars: null,
  numberOfGuests: 3,
  roomType: 'Entire rental unit',
  location: { lat: -6.26389, lng: 39.44415 },
  pricing: { rate: { amount: 500, amountFormatted: '$500', currency: 'USD', isMicrosAccuracy: false }, rateType: 'nightly' },
  photos: [{ caption: '', pictureUrl: 'https://a0.muscache.com/im/pictures/x.jpg?aki_policy=large', thumbnailUrl: 'https://a0.muscache.com/im/pictures/x.jpg' }],
  primaryHost: { id: 431411846, firstName: 'Piotr', isSuperHost: false },
  isHostedBySuperhost: false,
  isAvailable: true,
  reviews: [],
};
const airbnbOther = { ...airbnbListing, id: '53997462', url: 'https://www.airbnb.com/rooms/53997462', title: 'Canal flat' };

const airbnbDays = [
  { date: '2026-11-06', available: true, availableForCheckin: true, availableForCheckout: false, price: { amount: 125, currency: 'EUR' }, minimumStay: 2 },
  { date: '2026-11-07', available: false, availableForCheckin: false, availableForCheckout: true, price: { amount: 125, currency: 'EUR' }, minimumStay: 2 },
];
const airbnbDaysLegacy = [
  {
    date: '2026-11-06',
    available: true,
    available_for_checkin: true,
    available_for_checkout: false,
    bookable: true,
    min_nights: 2,
    max_nights: 30,
    price: { local_price: 125, local_price_formatted: '£125', local_currency: 'GBP', local_adjusted_price: 125 },
  },
  { date: '2026-11-07', available: false, available_for_checkin: false, available_for_checkout: true, bookable: false, min_nights: 2, max_nights: 30 },
];

const airbnbReviews = [
  {
    id: '1201639499748794793',
    language: 'en',
    text: 'Great place, very clean!',
    localizedText: 'Great place, very clean!',
    createdAt: '2024-07-15T22:43:11Z',
    rating: 5,
    reviewer: { id: '329999820', firstName: 'Dani' },
    response: 'Thank you!',
    startUrl: AIRBNB_URL,
  },
  { id: '1201639499748794794', language: 'en', text: 'Lovely.', createdAt: '2024-06-01T10:00:00Z', rating: 4, reviewer: { firstName: 'Sam' }, response: null, startUrl: AIRBNB_URL },
];
// Actors that emit Airbnb's GraphQL field name (comments) and no startUrl.
const airbnbReviewsLegacy = [{ id: '1201639499748794795', language: 'en', comments: 'Nice stay', createdAt: '2023-05-01T09:00:00Z', rating: 5, reviewer: { firstName: 'Kim' } }];

// 2.4 README item (current).
const BOOKING_URL = 'https://www.booking.com/hotel/cz/alfons.html?selected_currency=EUR&lang=en-us&group_adults=2&no_rooms=1&checkin=2026-11-06&checkout=2026-11-08';
const bookingHotel = {
  order: 1,
  url: BOOKING_URL,
  name: 'Alfons Boutique Hotel',
  type: 'Hotel',
  description: 'Alfons Boutique Hotel in Prague …',
  stars: 4,
  price: 368,
  rating: 9.1,
  reviews: 898,
  breakfast: 'Continental, Vegetarian, Gluten-free, American, Buffet',
  checkInFrom: '14:00',
  checkInTo: '22:00',
  location: { lat: '50.0739590', lng: '14.4300880' },
  address: { full: 'Legerova 41, Prague, 120 00, Czech Republic', postalCode: '120 00', street: 'Legerova 41', country: 'Czech Republic', region: '' },
  image: 'https://cf.bstatic.com/xdata/images/hotel/max1024x768/321992025.jpg?k=1',
  rooms: [{ available: true, roomType: 'King Room', price: 368, currency: '€ ', features: ['194 feet²', 'Air conditioning', 'Free WiFi'], conditions: ['Free cancellation'] }],
  images: ['https://cf.bstatic.com/xdata/images/hotel/max1024x768/321992025.jpg?k=1'],
  categoryReviews: [{ title: 'Cleanliness', score: 9.4 }],
};
// The oldest simple-mode builds: stars as a string, lat/lng swapped, the address a string, a language-suffixed URL, price as text.
const bookingLegacy = {
  url: 'https://www.booking.com/hotel/cz/alfons.en-gb.html',
  name: 'Alfons Boutique Hotel',
  type: 'Hotel',
  stars: '4',
  price: '€ 368',
  rating: '9.1',
  reviews: 898,
  location: { lat: '14.4300880', lng: '50.0739590' },
  address: 'Legerova 41, Prague, 120 00, Czech Republic',
  image: 'https://cf.bstatic.com/xdata/images/hotel/max1024x768/321992025.jpg?k=1',
};
const bookingOther = { ...bookingHotel, url: 'https://www.booking.com/hotel/cz/other.html', name: 'Other Hotel' };

const bookingReviews = [
  {
    id: 'a1b2c3d4e5',
    hotelId: '1234567',
    reviewTitle: 'Exceptional',
    rating: 10,
    reviewDate: '2024-07-01T00:00:00.000Z',
    likedText: 'Quiet, great breakfast',
    dislikedText: 'Small bathroom',
    userName: 'Jane',
    travelerType: 'Couple',
    reviewLanguage: 'en',
    startUrl: 'https://www.booking.com/hotel/cz/alfons.html',
  },
];
const bookingReviewsLegacy = [
  { id: 'a1b2c3d4e6', hotelId: '1234567', reviewTitle: 'Good', rating: 8, reviewDate: '2023-03-01T00:00:00.000Z', reviewTextParts: { Liked: 'Location', Disliked: 'Noise' }, userName: 'Tom' },
];
const bookingDays = [
  { date: '2026-11-06', available: true, bookable: true },
  { date: '2026-11-07', available: false, bookable: false },
];
const bookingDaysLegacy = [
  { date: '2026-11-06', available: true },
  { date: '2026-11-07', available: true },
];

// 2.6 jupri/vrbo-property (current), rateSummary with converted rents.
const vrboProperty = {
  id: IDS.vrbo,
  name: 'Sandy Lane Garden Villa',
  propertyType: 'Villa',
  description: { about: { items: [{ items: [{ value: 'Welcome to …' }] }] } },
  highlights: { bedroomsCount: 4, bathroomsCount: 3, sleepsCount: 8 },
  address: { city: 'Destin', province: 'FL' },
  coordinate: { latitude: 30.39, longitude: -86.49 },
  amenities: { items: [{ items: [{ value: 'Pool' }, { value: 'WiFi' }] }] },
  gallery: [{ name: 'All photos', images: [{ url: 'https://media.vrbo.com/a.jpg', name: 'Living room' }] }],
  reviews: { total: 84, averageRating: 9.6, ratingMax: 10, reviews: [] },
  availabilityCalendar: [
    { date: '2026-11-06', available: true, checkinValidity: 'VALID', checkoutValidity: 'INVALID', stayConstraint: { minNights: 3 } },
    { date: '2026-11-07', available: false, checkinValidity: 'INVALID', checkoutValidity: 'VALID' },
  ],
  rateSummary: { rentNights: [300, 300], rentNightsConverted: [320, 320], currency: 'USD' },
};
// Older builds: the lower-case ratesummary, no id (a /p<id> URL), the calendar under days.
const vrboLegacy = {
  url: `https://www.vrbo.com/cottage-rental/p${IDS.vrbo}`,
  name: 'Sandy Lane Garden Villa',
  highlights: { bedroomsCount: 4, bathroomsCount: 3, sleepsCount: 8 },
  coordinate: { latitude: 30.39, longitude: -86.49 },
  amenities: { items: [{ items: [{ value: 'Hot tub' }] }] },
  availabilityCalendar: {
    days: [
      { date: '2026-11-06', available: true },
      { date: '2026-11-07', available: true },
    ],
  },
  ratesummary: { rentNights: [280, 300] },
};
const vrboOther = { ...vrboProperty, id: '1111111', name: 'Elsewhere' };
const vrboReviews = [{ reviewId: 'r-1', author: 'Ann', rating: 10, ratingMax: 10, reviewText: 'Perfect', stayedText: 'Stayed 3 nights in May 2024', reviewDate: '2024-05-02' }];
const vrboReviewsLegacy = [{ reviewId: 'r-2', reviewer: { name: 'Bob' }, rating: 8, text: 'Good house', reviewDate: '2024-04-02', response: 'Thanks Bob' }];

// 2.7 martin.forejt/google-hotels-scraper (prices[] as text) and eiv-like numbers.
const GOOGLE_URL = `https://www.google.com/travel/hotels/entity/${IDS.google}`;
const googleHotel = {
  name: 'Hotel Regina',
  url: GOOGLE_URL,
  address: 'Rooseveltplatz 15, 1090 Wien, Austria',
  rating: 4.3,
  reviewsCount: 1847,
  hotelClass: 4,
  checkInDate: '2026-11-06',
  checkOutDate: '2026-11-08',
  currency: 'USD',
  pricePerNight: '$139',
  totalPrice: '$278',
  prices: [
    { provider: 'Booking.com', price: '$278', link: 'https://www.google.com/travel/clk?a=1' },
    { provider: 'Expedia.com', price: '$290', link: 'https://www.google.com/travel/clk?a=2' },
  ],
};
const googleLegacy = {
  name: 'Hotel Regina',
  url: GOOGLE_URL,
  rating: 4.3,
  reviewsCount: 1847,
  hotelClass: '4-star hotel',
  currency: 'USD',
  gps_coordinates: { latitude: 48.2149, longitude: 16.3593 },
  pricePerNight: 139,
  totalPrice: 278,
  prices: [
    { provider: 'Booking.com', price: 278, link: 'https://www.google.com/travel/clk?a=1' },
    { provider: 'Nobody', price: null, link: 'https://x' },
  ],
};
const googleOther = { ...googleHotel, url: 'https://www.google.com/travel/hotels/entity/OtherHotel1', name: 'Other' };
const googleDays = [
  { date: '2026-11-06', available: true },
  { date: '2026-11-07', available: false },
];

type Shapes = { normal: unknown[]; legacy: unknown[] /** rows for another listing (identity mismatch) */; other?: unknown[] };

export const FIXTURES: Record<EnabledPlatform, Partial<Record<Need, Shapes>>> = {
  airbnb: {
    search: { normal: [airbnbListing, airbnbOther], legacy: [airbnbLegacy] },
    listing: { normal: [airbnbListing], legacy: [airbnbLegacy], other: [airbnbOther] },
    price: { normal: [airbnbListing], legacy: [airbnbLegacy], other: [airbnbOther] },
    availability: { normal: airbnbDays, legacy: [{ ...airbnbLegacy, calendar: airbnbDaysLegacy }] },
    reviews: { normal: airbnbReviews, legacy: airbnbReviewsLegacy, other: [{ ...airbnbReviews[0], startUrl: 'https://www.airbnb.com/rooms/53997462' }] },
  },
  booking: {
    search: { normal: [bookingHotel, bookingOther], legacy: [bookingLegacy] },
    listing: { normal: [bookingHotel], legacy: [bookingLegacy], other: [bookingOther] },
    price: { normal: [bookingHotel], legacy: [bookingLegacy], other: [bookingOther] },
    availability: { normal: bookingDays, legacy: bookingDaysLegacy },
    reviews: { normal: bookingReviews, legacy: bookingReviewsLegacy, other: [{ ...bookingReviews[0], startUrl: 'https://www.booking.com/hotel/cz/other.html' }] },
  },
  vrbo: {
    search: { normal: [vrboProperty, vrboOther], legacy: [vrboLegacy] },
    listing: { normal: [vrboProperty], legacy: [vrboLegacy], other: [vrboOther] },
    price: { normal: [vrboProperty], legacy: [vrboLegacy], other: [vrboOther] },
    availability: { normal: [vrboProperty], legacy: [vrboLegacy], other: [vrboOther] },
    reviews: { normal: vrboReviews, legacy: vrboReviewsLegacy },
  },
  google: {
    search: { normal: [googleHotel, googleOther], legacy: [googleLegacy] },
    listing: { normal: [googleHotel], legacy: [googleLegacy], other: [googleOther] },
    price: { normal: [googleHotel], legacy: [googleLegacy], other: [googleOther] },
    availability: { normal: googleDays, legacy: googleDays.map((d) => ({ ...d, status: 'ok' })) },
    compare: { normal: [googleHotel], legacy: [googleLegacy], other: [googleOther] },
  },
};

/** Rows an actor emits for an input it could not find (Google Hotels actors, newer Airbnb ones). */
export const NOT_FOUND_ROWS = [{ status: 'not_found', url: 'https://example.com' }];
