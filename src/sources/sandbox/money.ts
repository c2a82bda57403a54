// Sandbox prices: a listing's USD base rate, shaped per night by season and weekday, converted
// with a fixed rate table and split into the fees each platform reports.
import type { EnabledPlatform } from '../../core/platforms.js';
import { UNKNOWN_INCLUDES, priceParts } from '../../core/price-parts.js';
import type { Price } from '../../core/schemas/resources.js';
import { dayNumber, monthOf, nightsBetween, weekday } from './calendar.js';
import { rng } from './prng.js';
import type { StayQuery } from './types.js';

/** Units of each currency per US dollar. Fixed forever (D21); an unknown currency uses 1. */
const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 150,
  CHF: 0.88,
  CAD: 1.36,
  AUD: 1.52,
  NZD: 1.65,
  CNY: 7.2,
  HKD: 7.8,
  SGD: 1.34,
  INR: 83,
  BRL: 5,
  MXN: 17,
  SEK: 10.5,
  NOK: 10.6,
  DKK: 6.87,
  PLN: 4,
  CZK: 23,
  TRY: 32,
  AED: 3.67,
  ZAR: 18.5,
  KRW: 1350,
  THB: 36,
};
const ZERO_DECIMAL = new Set(['JPY', 'KRW']);

function usdRate(currency: string): number {
  return USD_RATES[currency] ?? 1;
}

/** Rounded to the currency's minor unit: 2 decimals, or whole units for JPY and KRW. */
export function roundMoney(amount: number, currency: string): number {
  return ZERO_DECIMAL.has(currency) ? Math.round(amount) : Math.round(amount * 100) / 100;
}

/** Month factors, January first: low winter, high summer, a bump at the year end. */
const SEASON = [0.86, 0.84, 0.93, 1.0, 1.06, 1.18, 1.3, 1.32, 1.12, 1.0, 0.9, 1.08] as const;

export interface PriceBasis {
  type: 'hotel' | 'home';
  baseUsd: number;
  cleaningUsd: number;
}

export interface QuoteInput {
  platform: EnabledPlatform;
  id: string;
  url: string;
  basis: PriceBasis;
  stay: StayQuery;
  /** Rooms the price covers (booking search rows); 1 elsewhere. */
  rooms?: number;
  /**
   * The moving world's factor on the nightly rate at an instant (moving.ts: price level and lead
   * time); 1, the fixed world's, leaves every quote as it always was.
   */
  factor?: number;
}

/** The quote for one listing and stay: a pure function of its inputs. */
export function quote(q: QuoteInput): Price {
  const { stay, platform } = q;
  const cur = stay.currency;
  const nights = nightsBetween(stay.checkIn, stay.checkOut);
  const first = dayNumber(stay.checkIn);
  let sum = 0;
  for (let d = first; d < first + nights; d++) {
    const dow = weekday(d);
    sum += q.basis.baseUsd * SEASON[monthOf(d)]! * (dow === 5 || dow === 6 ? 1.15 : 1);
  }
  const rooms = Math.max(1, q.rooms ?? 1);
  const guestsPerRoom = Math.ceil((stay.adults + stay.children) / rooms);
  const occupancy = q.basis.type === 'hotel' ? 1 + 0.1 * Math.max(0, guestsPerRoom - 2) : 1;
  const jitter = rng('quote', platform, q.id, stay.checkIn, stay.checkOut, stay.adults, stay.children).range(0.96, 1.04);
  const rate = usdRate(cur);
  const nightly = roundMoney((sum / nights) * occupancy * jitter * rooms * rate * (q.factor ?? 1), cur);
  const subtotal = nightly * nights;
  let fees: Price['fees'] = { cleaning: null, service: null, taxes: null };
  if (platform === 'airbnb') {
    const cleaning = roundMoney(q.basis.cleaningUsd * rate, cur);
    fees = { cleaning, service: roundMoney(subtotal * 0.142, cur), taxes: roundMoney((subtotal + cleaning) * 0.06, cur) };
  } else if (platform === 'booking') {
    fees = { cleaning: null, service: null, taxes: roundMoney(subtotal * 0.1, cur) };
  }
  const total = roundMoney(subtotal + (fees.cleaning ?? 0) + (fees.service ?? 0) + (fees.taxes ?? 0), cur);
  // What each platform's total says it includes, as its normalizer reads the emitted row: airbnb
  // itemizes everything (all included), booking states its taxes only (cleaning and service fee
  // unknown), vrbo and google state a total and nothing about it (all unknown).
  const includes = platform === 'airbnb' ? { cleaning: true, serviceFee: true, taxes: true } : platform === 'booking' ? { cleaning: null, serviceFee: null, taxes: true } : UNKNOWN_INCLUDES;
  const itemized = platform === 'airbnb' || platform === 'booking';
  return {
    platform,
    listingId: q.id,
    currency: cur,
    nightlyPrice: nightly,
    totalPrice: total,
    fees,
    nights,
    occupancy: { adults: stay.adults, children: stay.children, childAges: [...stay.childAges] },
    source: platform,
    url: q.url,
    ...priceParts({ currency: cur, nightlyPrice: nightly, nights, totalPrice: total, fees, includes, itemized }),
  };
}
