// Raw rows of Airbnb: tri_angle/airbnb-scraper (2.1), airbnb-reviews-scraper (2.2), calendars (2.3).
// Conventions (everything optional, [U] = unconfirmed, emitted by the simulated upstream) are in ../types.ts.
interface AirbnbAmenityValue {
  title: string;
  subtitle?: string;
  icon?: string;
  /** true, or "" (not false) for amenities the listing lacks, under the group "Not included". */
  available?: boolean | '';
}
export interface AirbnbAmenityGroup {
  title: string;
  values: AirbnbAmenityValue[];
}
export interface AirbnbPriceLine {
  description?: string;
  price?: string;
}
/** Keys are not trustworthy (basePrice has been seen holding the cleaning fee): read descriptions too. */
export interface AirbnbPriceBreakDown {
  basePrice?: AirbnbPriceLine;
  basePriceBreakdown?: AirbnbPriceLine[];
  cleaningFee?: AirbnbPriceLine;
  serviceFee?: AirbnbPriceLine;
  taxes?: AirbnbPriceLine;
  total?: AirbnbPriceLine;
  totalBeforeTaxes?: AirbnbPriceLine;
  earlyBirdDiscount?: AirbnbPriceLine;
  specialOffer?: AirbnbPriceLine;
}
export interface AirbnbPrice {
  label?: string;
  /** README builds; exports have `price` (+ originalPrice/discountedPrice) instead. */
  amount?: string;
  price?: string;
  originalPrice?: string;
  discountedPrice?: string;
  /** "night" or "total". */
  qualifier?: string;
  breakDown?: AirbnbPriceBreakDown;
}
interface AirbnbRating {
  accuracy?: number | null;
  /** The check-in sub-score, spelled so by the actor. */
  checking?: number | null;
  cleanliness?: number | null;
  communication?: number | null;
  location?: number | null;
  value?: number | null;
  /** The overall score, 0–5. */
  guestSatisfaction?: number | null;
  reviewsCount?: number | null;
}
interface AirbnbHost {
  id?: string | number;
  name?: string | null;
  firstName?: string | null;
  isSuperHost?: boolean | null;
  profileImage?: string;
}

/** One listing: search result, listing detail, and (run with dates) the quote. */
export interface AirbnbListingItem {
  /** A string; 18–19 digit ids exceed Number.MAX_SAFE_INTEGER. */
  id?: string | number;
  url?: string;
  /** May carry the SEO suffix " - Apartments for Rent in … - Airbnb". */
  title?: string;
  /** Legacy builds (≤ 0.0.66). */
  name?: string;
  description?: string;
  thumbnail?: string;
  roomType?: string;
  /** [S] e.g. "Entire rental unit". */
  propertyType?: string;
  isSuperHost?: boolean;
  personCapacity?: number;
  /** Legacy. */
  numberOfGuests?: number;
  coordinates?: { latitude: number; longitude: number } | null;
  /** Missing or a bare number on new listings. */
  rating?: AirbnbRating | number | null;
  host?: AirbnbHost | null;
  /** Legacy. */
  primaryHost?: AirbnbHost | null;
  /** Bedrooms and baths exist only here, as localized text: "Studio", "2 bedrooms", "1.5 baths". */
  subDescription?: { title?: string; items?: string[] };
  amenities?: AirbnbAmenityGroup[];
  images?: { caption?: string; imageUrl?: string }[];
  /** Legacy. */
  photos?: { caption?: string; pictureUrl?: string; thumbnailUrl?: string }[];
  /** [S] a display string ("London, United Kingdom"); legacy builds: { lat, lng }. */
  location?: string | { lat: number; lng: number };
  /** [U] the listing's place, as Airbnb's listing API names it (city, state, country_code). */
  city?: string | null;
  state?: string | null;
  countryCode?: string | null;
  /** Legacy star class (null on homes). */
  stars?: number | null;
  /** [S] the dates a dated run priced. */
  checkIn?: string;
  checkOut?: string;
  locale?: string;
  language?: string;
  price?: AirbnbPrice | null;
  /** Legacy builds (≤ 0.0.66): a numeric rate with its ISO currency. */
  pricing?: { rate?: { amount?: number | null; amountFormatted?: string; currency?: string; isMicrosAccuracy?: boolean }; rateType?: string } | null;
  /** Legacy builds: the calendar_months days (see AirbnbCalendarDay). */
  calendar?: AirbnbCalendarDay[];
}

export interface AirbnbReviewItem {
  /** A 19-digit string. */
  id?: string;
  language?: string;
  text?: string;
  /** Some actors emit the GraphQL field name instead of text. */
  comments?: string;
  localizedText?: string;
  localizedDate?: string;
  createdAt?: string;
  /** 1–5. */
  rating?: number;
  reviewer?: { id?: string; firstName?: string; hostName?: string; pictureUrl?: string; profilePath?: string };
  reviewee?: { id?: string; firstName?: string; hostName?: string; pictureUrl?: string };
  /** The host's reply, or null. */
  response?: string | null;
  reviewHighlight?: string | null;
  highlightType?: string | null;
  startUrl?: string;
}

/** A calendar day: Airbnb's calendar_months spelling, or the camelCase some callers and actors use. */
export interface AirbnbCalendarDay {
  date: string;
  available?: boolean;
  available_for_checkin?: boolean;
  available_for_checkout?: boolean;
  availableForCheckin?: boolean;
  availableForCheckout?: boolean;
  bookable?: boolean;
  min_nights?: number;
  minNights?: number;
  /** rigelbytes/airbnb-availability-calendar. */
  minimumStay?: number;
  max_nights?: number;
  price?: { local_price?: number; local_price_formatted?: string; local_currency?: string; local_adjusted_price?: number } | { amount?: number; currency?: string };
}
