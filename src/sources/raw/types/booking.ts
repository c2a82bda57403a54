// Raw rows of Booking: voyager/booking-scraper (2.4), booking-reviews-scraper (2.5).
// Conventions (everything optional, [U] = unconfirmed, emitted by the simulated upstream) are in ../types.ts.
import type { RawMoney } from './money.js';

export interface BookingRoom {
  available?: boolean;
  roomType?: string;
  /** The stay total ([U] that it covers the whole stay), like the top-level price. */
  price?: RawMoney | null;
  /** A symbol with trailing whitespace ("€ "), not an ISO code. */
  currency?: string;
  features?: string[];
  conditions?: string[];
  roomsCount?: number;
  /** [U] the nightly rate before taxes. */
  pricePerNight?: RawMoney | null;
  /** [U] "+€56 taxes and charges", or a number. */
  taxesAndCharges?: RawMoney | null;
}
export interface BookingAddress {
  full?: string;
  postalCode?: string;
  street?: string;
  /** A country name ("Czech Republic"). */
  country?: string;
  region?: string;
  /** [U] */
  city?: string | null;
  /** [U] lower-case alpha-2, as userReviews[].countryCode spells it; null when unknown. */
  countryCode?: string | null;
}

/** One property: search result, detail, and (with dates) the quote. Identity is the URL. */
export interface BookingHotelItem {
  order?: number;
  /** https://www.booking.com/hotel/{cc}/{slug}[.lang].html[?…] */
  url?: string;
  name?: string;
  /** "Hotel", "Apartment", "Holiday home", "Guest house"… */
  type?: string;
  description?: string;
  /** 1–5 or null; a string ("4") in older builds. */
  stars?: number | string | null;
  /** The first room's price, for the whole stay; absent without dates. */
  price?: RawMoney | null;
  /** [U] ISO code in newer builds. */
  currency?: string;
  /** On a 10 scale. */
  rating?: number | string | null;
  /** The review count. */
  reviews?: number | null;
  breakfast?: string | null;
  checkInFrom?: string;
  checkInTo?: string;
  /** Strings; swapped in the oldest simple-mode builds. */
  location?: { lat: string | number; lng: string | number } | null;
  address?: BookingAddress | string | null;
  image?: string;
  images?: string[];
  rooms?: BookingRoom[];
  categoryReviews?: { title: string; score: number }[];
  /** [U] newer builds. */
  hotelId?: string;
  facilities?: string[];
  distanceFromCenter?: string;
  /** [U] the unit's capacity and rooms. */
  maxPersons?: number | null;
  bedrooms?: number | null;
  bathrooms?: number | null;
}

export interface BookingReviewItem {
  id?: string;
  /** Booking's numeric hotel id: not our listing id (that is {cc}/{slug}). */
  hotelId?: string;
  reviewTitle?: string | null;
  /** 1–10. */
  rating?: number;
  /** ISO timestamp. */
  reviewDate?: string;
  likedText?: string | null;
  dislikedText?: string | null;
  /** Older builds. */
  reviewTextParts?: { Liked?: string; Disliked?: string };
  userName?: string;
  userLocation?: string;
  roomInfo?: string;
  stayDate?: string;
  stayLength?: string;
  /** [U] "Couple", "Family", "Solo traveller"… */
  travelerType?: string;
  /** [U] */
  reviewLanguage?: string;
  /** [U] the property's reply. */
  hotelResponse?: string | null;
  /** [U] free text besides liked/disliked. */
  text?: string | null;
  startUrl?: string;
}

/** [U] a calendar day (no booking calendar actor is documented). */
export interface BookingCalendarDay {
  date: string;
  available?: boolean;
  bookable?: boolean;
}
