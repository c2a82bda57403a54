// Raw rows of Google Hotels: martin.forejt/google-hotels-scraper and siblings (2.7).
// Conventions (everything optional, [U] = unconfirmed, emitted by the simulated upstream) are in ../types.ts.
import type { RawMoney } from './money.js';

interface GooglePriceOption {
  provider?: string;
  /** "$139" or 139: both are seen; taken as the stay total. */
  price?: RawMoney | null;
  /** A Google redirect URL in real data. */
  link?: string;
}

/** One hotel: search result, detail, quote, and (with prices[]) the per-seller comparison. */
export interface GoogleHotelItem {
  name?: string;
  /** https://www.google.com/travel/hotels/entity/<id> */
  url?: string;
  address?: string;
  /** 1–5. */
  rating?: number | null;
  reviewsCount?: number | null;
  /** Stars: 4, or SerpApi's "4-star hotel". */
  hotelClass?: number | string | null;
  checkInDate?: string;
  checkOutDate?: string;
  currency?: string;
  prices?: GooglePriceOption[];
  /** eiv/google-hotels-scraper. */
  pricePerNight?: RawMoney | null;
  totalPrice?: RawMoney | null;
  /** [U] SerpApi-like fields. */
  type?: string;
  gpsCoordinates?: { latitude: number; longitude: number } | null;
  gps_coordinates?: { latitude: number; longitude: number } | null;
  amenities?: string[];
  images?: (string | { thumbnail?: string; originalImage?: string; original_image?: string })[];
  /** [U] */
  city?: string | null;
  region?: string | null;
  countryCode?: string | null;
  maxGuests?: number | null;
}

/** [U] a night of a per-night availability scan. */
export interface GoogleCalendarDay {
  date: string;
  available?: boolean;
}
