// Raw rows of Vrbo: jupri/vrbo-property (2.6), powerai/vrbo-reviews-scraper.
// Conventions (everything optional, [U] = unconfirmed, emitted by the simulated upstream) are in ../types.ts.
import type { RawMoney } from './money.js';

/** Lists nested twice: items[].items[].value. */
export interface VrboNested {
  items?: { items?: { value?: string }[] }[];
}
export interface VrboRateSummary {
  rentNights?: number[];
  /** In the requested currency. */
  rentNightsConverted?: number[];
  /** [U] */
  currency?: string;
  total?: RawMoney | null;
  cleaningFee?: RawMoney | null;
  serviceFee?: RawMoney | null;
  taxes?: RawMoney | null;
}
interface VrboEmbeddedReview {
  text?: string;
  rating?: number;
  reviewer?: { name?: string };
  reviewDate?: string;
  response?: string | null;
}

/** One property: search result, detail, and (with dates) the quote. */
export interface VrboPropertyItem {
  /** The public numeric listing id. */
  id?: string;
  name?: string;
  /** [U] */
  url?: string;
  /** [U] "House", "Condo", "Cabin"… */
  propertyType?: string;
  description?: { about?: VrboNested };
  highlights?: { bedroomsCount?: number | null; bathroomsCount?: number | null; sleepsCount?: number | null };
  address?: { city?: string | null; province?: string | null /** [U] */; countryCode?: string | null };
  /** Singular. */
  coordinate?: { latitude: number; longitude: number } | null;
  amenities?: VrboNested;
  gallery?: { name?: string; images?: { url?: string; name?: string }[] }[];
  reviews?: {
    total?: number | null;
    /** [U] the guest rating, on `ratingMax` (current vrbo data is on 10). */
    averageRating?: number | null;
    ratingMax?: number | null;
    reviews?: VrboEmbeddedReview[];
  };
  /** [U] Premier Host is vrbo's superhost. */
  host?: { name?: string | null; isPremierHost?: boolean | null } | null;
  availabilityCalendar?: unknown;
  rateSummary?: VrboRateSummary;
  /** The casing the author's changelog suggests. */
  ratesummary?: VrboRateSummary;
}

/** powerai/vrbo-reviews-scraper, plus the embedded-review fields of jupri/vrbo-property. */
export interface VrboReviewItem {
  reviewId?: string;
  author?: string;
  reviewer?: { name?: string };
  rating?: number;
  /** The scale of `rating` (10 by default). */
  ratingMax?: number;
  reviewText?: string;
  text?: string;
  stayedText?: string;
  reviewDate?: string;
  response?: string | null;
  /** [U] */
  title?: string | null;
  language?: string;
  travelerType?: string;
}

/** [U] a calendar day in Expedia-group terms (validity of arriving or leaving that day). */
export interface VrboCalendarDay {
  date: string;
  available?: boolean;
  checkinValidity?: 'VALID' | 'INVALID' | string;
  checkoutValidity?: 'VALID' | 'INVALID' | string;
  stayConstraint?: { minNights?: number; maxNights?: number };
}
