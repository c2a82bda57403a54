// Market metrics (issue 27, item 2): figures over a set of listings and a span of nights, computed
// only from observations (calendar days, prices of dated searches and quotes), each with its
// method and sample size. A figure whose sample is empty is null, never a zero. Pure: the op
// (src/core/ops/market.ts) gathers each listing's observations, live from the store or synthetic
// for sandbox keys, and this computes the same way for both.
import { DAY_MS, dayMs as dateMs, dayNumber, isoDate } from '../clock.js';
import type { ListingDigest, ListingSummary } from '../ports/history.js';
import type { Figure, Metrics } from '../schemas/market.js';
import { BOOKING_METHOD, BOOKING_METHOD_TEXTS, type BookingMethod } from './bookings.js';
import { confidenceOf, seenWithin } from './listing-summary.js';

/** The inferred booked rate's interval from the night confidences (issue 37, item 3). */
const BAND_METHOD = 'confidence-band/1';

/** What the metrics read of one listing in scope (src/core/ports/history.ts, digests). */
export type ListingObs = ListingDigest;

/** Each method id, in words (the answer's `methods`), with the booking inference `inference` used. */
export function methodTexts(inference: BookingMethod = BOOKING_METHOD): Record<string, string> {
  const inferenceMethod = () => inference;
  return {
    'observed-in-scope/1': 'Listings of the scope with at least one calendar night, or one price of a stay starting, in the window observed.',
    'calendar-last-state/1': 'Share of observed listing-nights whose calendar, as last observed, showed the night unavailable (booked and blocked alike, as scraped occupancy counts them).',
    'booked-over-for-rent/1': `Nights the booking inference (${inferenceMethod()}) classified booked, over nights it classified booked, available or unbookable (for rent); owner blocks and unknown nights are left out of both.`,
    'booked-night-price-mean/2':
      'Mean over inferred-booked nights with a price of the nightly price last observed, before the night was booked, for a stay that includes the night (a quote or a dated search); a booked night no such stay was priced for is not priced, and the sample counts the priced ones.',
    'adr-times-booked-rate/1': 'ADR times the inferred booked rate (revenue per available listing-night).',
    'booking-lead-median/1': 'Median days from when a booking was first seen made to its check-in, over bookings checking in within the window.',
    'booking-nights-mean/1': 'Mean nights of the inferred bookings checking in within the window.',
    'observed-nightly/1': 'Nightly prices observed (one per distinct value of a dated search row or quote) for stays starting within the window; percentiles by linear interpolation.',
    [BAND_METHOD]:
      'From low to high: the inferred booked rate were the nights inferred booked wrong, each with the chance its confidence leaves (1 - confidence), and for rent instead (low); were the nights inferred for rent or blocked wrong, each with the chance its confidence leaves, and booked instead (high). Calibrated confidences make it the band the expected errors span (docs/analytics.md).',
    [inferenceMethod()]: BOOKING_METHOD_TEXTS[inference],
  };
}

const fig = (value: number | null, sampleSize: number, unit: string, sampleUnit: string, method: string, listings: number): Figure => ({
  value: sampleSize === 0 || value === null || !Number.isFinite(value) ? null : Math.round(value * 10_000) / 10_000,
  unit,
  sampleSize,
  sampleUnit,
  method,
  listings: sampleSize === 0 ? 0 : listings,
});

const money = (v: number) => Math.round(v * 100) / 100;

/** The percentile p (0..100) of sorted values, by linear interpolation between closest ranks. */
function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

const [AVAILABLE, BOOKED, BLOCKED, UNBOOKABLE, UNKNOWN] = ['a', 'b', 'k', 'u', '?'].map((c) => c.charCodeAt(0));

/** What the metrics read of one listing over a window, computed once and read by every group and interval it falls in. */
export interface Prepared {
  platform: string;
  listingId: string;
  bedrooms: number | null;
  summary: ListingSummary | null;
  /** Its prices (in the answer's currency) of stays checking in within the window. */
  windowPrices: { checkIn: string; nightly: number }[];
  /** The observations of the window read (calendar rows of its nights, its prices): how many, first and last seen. */
  window: { observations: number; first: number; last: number };
  /** Its nights of the window [a, b) (day numbers) by class, counted once for every group the listing falls in. */
  nights: NightCounts;
  a: number;
  b: number;
  /** The day number of the summary's first night (NaN: none), read once for every group it falls in. */
  first: number;
}

/** A listing's nights of a window by what its one classification says of them. */
interface NightCounts {
  /** Nights classified at all (not unknown). */
  observed: number;
  /** Booked or blocked: its calendar, as last observed, showed the night unavailable. */
  unavailable: number;
  booked: number;
  /** Available or unbookable. */
  forRent: number;
  /** The booked nights' confidences summed; the chances the for-rent and the blocked nights are wrong (1 - confidence) summed. */
  bookedSure: number;
  forRentDoubt: number;
  blockedDoubt: number;
}

/** The nights [a, b) (day numbers) of a listing's summary whose first night is day `f`, by class. */
function countNights(summary: ListingSummary | null, f: number, a: number, b: number): NightCounts {
  const c: NightCounts = { observed: 0, unavailable: 0, booked: 0, forRent: 0, bookedSure: 0, forRentDoubt: 0, blockedDoubt: 0 };
  if (summary === null || summary.first === null) return c;
  const states = summary.states;
  const confidences = summary.confidences ?? '';
  const end = Math.min(b, f + states.length);
  for (let d = Math.max(a, f); d < end; d++) {
    const s = states.charCodeAt(d - f);
    if (s === UNKNOWN) continue;
    // A summary kept without confidences (none should be: SUMMARY_FORM) counts each night as sure.
    const conf = d - f < confidences.length ? confidenceOf(confidences.charCodeAt(d - f)) : 1;
    c.observed++;
    if (s === BOOKED) {
      c.unavailable++;
      c.booked++;
      c.bookedSure += conf;
    } else if (s === BLOCKED) {
      c.unavailable++;
      c.blockedDoubt += 1 - conf;
    } else if (s === AVAILABLE || s === UNBOOKABLE) {
      c.forRent++;
      c.forRentDoubt += 1 - conf;
    }
  }
  return c;
}

/** Reads one listing over [from, to): only its prices in `currency` count. */
export function prepare(obs: ListingObs, from: string, to: string, currency: string): Prepared {
  const window = { observations: 0, first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
  const summary = obs.summary;
  const a = dayNumber(from);
  const b = dayNumber(to);
  const f = summary === null || summary.first === null ? Number.NaN : dayNumber(summary.first);
  if (summary !== null && summary.first !== null) {
    // The window's calendar rows, as the summary counted them night by night.
    const n = seenWithin(summary, a - f, Math.min(b, f + summary.states.length) - f);
    window.observations = n.rows;
    window.first = n.first;
    window.last = n.last;
  }
  const windowPrices: Prepared['windowPrices'] = [];
  for (const r of obs.prices) {
    if ((r.currency ?? currency) !== currency || r.nightly === null || r.checkIn < from || r.checkIn >= to) continue;
    window.observations++;
    window.first = Math.min(window.first, r.firstSeen);
    window.last = Math.max(window.last, r.lastSeen);
    windowPrices.push({ checkIn: r.checkIn, nightly: r.nightly });
  }
  return { platform: obs.platform, listingId: obs.listingId, bedrooms: obs.bedrooms, summary: obs.summary, windowPrices, window, nights: countNights(summary, f, a, b), a, b, first: f };
}

/** The answer's currency: the one most price rows are in (USD when none is), and how many rows are in another. */
export function mainCurrency(listings: readonly (readonly { currency: string | null }[])[]): { currency: string; excluded: number } {
  const n = new Map<string, number>();
  for (const prices of listings) for (const r of prices) if (r.currency) n.set(r.currency, (n.get(r.currency) ?? 0) + 1);
  const best = [...n.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  const currency = best?.[0] ?? 'USD';
  return { currency, excluded: [...n.entries()].filter(([c]) => c !== currency).reduce((s, [, k]) => s + k, 0) };
}

/** A group's running sums over the nights [from, to): listings are added one at a time, then `metrics` gives its figures. */
export class Tally {
  private listings = 0;
  private active = 0;
  private observedNights = 0;
  private unavailable = 0;
  private booked = 0;
  private forRent = 0;
  private bookedSure = 0;
  private forRentDoubt = 0;
  private blockedDoubt = 0;
  /** Listings each figure rests on: with a night classified, a night for rent or booked, a priced booked night, a booking checking in (with a known lead), a price. */
  private readonly on = { nights: 0, forRent: 0, adr: 0, bookings: 0, leads: 0, prices: 0 };
  /** The booked nights with a price in the answer's currency: their prices' sum (added night by night) and count. */
  private bookedSum = 0;
  private bookedPriced = 0;
  private readonly leads: number[] = [];
  private readonly lengths: number[] = [];
  private readonly prices: number[] = [];

  private readonly a: number;
  private readonly b: number;

  /** The nights [from, to); ADR counts prices in `currency`. */
  constructor(
    private readonly from: string,
    private readonly to: string,
    private readonly currency: string,
    private readonly inference: BookingMethod = BOOKING_METHOD,
  ) {
    this.a = dayNumber(from);
    this.b = dayNumber(to);
  }

  add(p: Prepared): void {
    const { summary, windowPrices } = p;
    const { from, to, a, b } = this;
    this.listings++;
    let seen = false;
    if (summary !== null && summary.first !== null) {
      // The window's nights of the listing's one classification: a night taken (booked or
      // blocked) is a night its calendar, as last observed, showed unavailable. Counted once per
      // listing for its window; an interval of a series counts its own.
      const n = p.a === a && p.b === b ? p.nights : countNights(summary, p.first, a, b);
      if (n.observed > 0) {
        seen = true;
        this.on.nights++;
      }
      if (n.booked + n.forRent > 0) this.on.forRent++;
      this.observedNights += n.observed;
      this.unavailable += n.unavailable;
      this.booked += n.booked;
      this.forRent += n.forRent;
      this.bookedSure += n.bookedSure;
      this.forRentDoubt += n.forRentDoubt;
      this.blockedDoubt += n.blockedDoubt;
      const f = p.first;
      const bk = summary.bookings;
      const currency = summary.currencies.indexOf(this.currency);
      // ADR: the booked nights within [from, to) priced by a stay including them, in the answer's currency only.
      const pr = summary.priced;
      const pricedBefore = this.bookedPriced;
      for (let j = 0; j < pr.length; j += 4) {
        if (pr[j + 3] !== currency) continue;
        const start = f + pr[j]!;
        const nights = Math.max(0, Math.min(start + pr[j + 1]!, b) - Math.max(start, a));
        const price = pr[j + 2]!;
        for (let i = 0; i < nights; i++) this.bookedSum += price;
        this.bookedPriced += nights;
      }
      if (this.bookedPriced > pricedBefore) this.on.adr++;
      const [lengthsBefore, leadsBefore] = [this.lengths.length, this.leads.length];
      for (let j = 0; j < bk.length; j += 5) {
        const ci = f + bk[j]!;
        const length = bk[j + 1]!;
        const lead = bk[j + 2] ?? null;
        if (ci >= a && ci < b) {
          if (lead !== null) this.leads.push(lead);
          this.lengths.push(length);
        }
      }
      if (this.lengths.length > lengthsBefore) this.on.bookings++;
      if (this.leads.length > leadsBefore) this.on.leads++;
    }
    const pricesBefore = this.prices.length;
    for (const p of windowPrices) {
      if (p.checkIn < from || p.checkIn >= to) continue;
      this.prices.push(p.nightly);
      seen = true;
    }
    if (this.prices.length > pricesBefore) this.on.prices++;
    if (seen) this.active++;
  }

  metrics(): Metrics {
    const { booked, forRent, observedNights, unavailable, bookedPriced, lengths, on } = this;
    // Sorted as numbers by the typed array's own sort (no comparator called per pair).
    const prices = Float64Array.from(this.prices).sort();
    const leads = Float64Array.from(this.leads).sort();
    const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
    const adr = bookedPriced === 0 ? null : this.bookedSum / bookedPriced;
    const bookedRate = booked + forRent === 0 ? null : booked / (booked + forRent);
    const pct = (p: number) => {
      const v = percentile(prices, p);
      return v === null ? null : money(v);
    };
    const both = adr !== null && bookedRate !== null;
    const round = (v: number) => Math.round(v * 10_000) / 10_000;
    const band =
      bookedRate === null
        ? { low: null, high: null }
        : {
            low: round(this.bookedSure / (booked + forRent)),
            high: round((booked + this.forRentDoubt + this.blockedDoubt) / (booked + forRent + this.blockedDoubt)),
          };
    return {
      activeListings: fig(this.active, this.listings, 'listings', 'listings', 'observed-in-scope/1', this.listings),
      adr: fig(adr === null ? null : money(adr), bookedPriced, 'currency', 'booked nights with a price', 'booked-night-price-mean/2', on.adr),
      occupancy: {
        calendarUnavailableRate: fig(observedNights === 0 ? null : unavailable / observedNights, observedNights, 'rate', 'listing-nights', 'calendar-last-state/1', on.nights),
        inferredBookedRate: fig(bookedRate, booked + forRent, 'rate', 'listing-nights', `booked-over-for-rent/1 (${this.inference})`, on.forRent),
        inferredBookedRateInterval: { ...band, method: `${BAND_METHOD} (${this.inference})` },
      },
      revpar: fig(both ? money(adr * bookedRate) : null, both ? booked + forRent : 0, 'currency', 'listing-nights', 'adr-times-booked-rate/1', on.forRent),
      bookingWindowDays: fig(percentile(leads, 50), leads.length, 'days', 'bookings', 'booking-lead-median/1', on.leads),
      lengthOfStayNights: fig(lengths.length === 0 ? null : money(mean(lengths)!), lengths.length, 'nights', 'bookings', 'booking-nights-mean/1', on.bookings),
      pricePercentiles: {
        p25: pct(25),
        p50: pct(50),
        p75: pct(75),
        p90: pct(90),
        sampleSize: prices.length,
        sampleUnit: 'prices',
        method: 'observed-nightly/1',
        listings: on.prices,
      },
    };
  }
}

/** The observations the metrics read over the window: how many, of how many listings, first and last seen. */
export function windowOf(listings: readonly Prepared[]): { observations: number; listings: number; first: number; last: number } {
  let observations = 0;
  let used = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { window } of listings) {
    if (window.observations > 0) used++;
    observations += window.observations;
    first = Math.min(first, window.first);
    last = Math.max(last, window.last);
  }
  return { observations, listings: used, first, last };
}

/** The intervals of a series: weeks from `from`, or calendar months, clipped to [from, to). */
export function intervals(from: string, to: string, interval: 'week' | 'month'): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  let a = dateMs(from);
  const end = dateMs(to);
  while (a < end) {
    const d = new Date(a);
    const b = Math.min(interval === 'week' ? a + 7 * DAY_MS : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), end);
    out.push({ from: isoDate(a), to: isoDate(b) });
    a = b;
  }
  return out;
}

/** The main figures in words an analyst or an agent can repeat. */
export function summarize(m: Metrics, currency: string, where: string, from: string, to: string, window: { observations: number; first: number; last: number }): string {
  const pct = (f: Figure) => (f.value === null ? 'not measurable (no sample)' : `${(f.value * 100).toFixed(1)} %`);
  const band = (x: Metrics) => {
    const i = x.occupancy.inferredBookedRateInterval;
    return i.low === null || i.high === null ? '' : `, between ${(i.low * 100).toFixed(1)} % and ${(i.high * 100).toFixed(1)} % by its confidences (method ${i.method})`;
  };
  const val = (f: Figure, unit: string) => (f.value === null ? 'not measurable (no sample)' : `${f.value} ${unit}`);
  const p = m.pricePercentiles;
  // What share of the active listings a figure rests on: occupancy may come from a few polled calendars.
  const active = m.activeListings.value ?? 0;
  const over = (listings: number) => `over ${listings} of ${active} active listings${active === 0 ? '' : `, ${Math.round((listings / active) * 100)} %`}`;
  return [
    `Market metrics for ${where}, nights ${from} to ${to} (exclusive), from ${window.observations} observations made between ${new Date(window.first).toISOString()} and ${new Date(window.last).toISOString()}.`,
    `Active listings: ${m.activeListings.value ?? 0} of ${m.activeListings.sampleSize} in scope (method ${m.activeListings.method}).`,
    `Calendar-unavailable rate: ${pct(m.occupancy.calendarUnavailableRate)} of ${m.occupancy.calendarUnavailableRate.sampleSize} observed listing-nights, ${over(m.occupancy.calendarUnavailableRate.listings)} (method ${m.occupancy.calendarUnavailableRate.method}; owner blocks count too).`,
    `Inferred booked rate: ${pct(m.occupancy.inferredBookedRate)} of ${m.occupancy.inferredBookedRate.sampleSize} listing-nights, ${over(m.occupancy.inferredBookedRate.listings)} (method ${m.occupancy.inferredBookedRate.method})${band(m)}.`,
    `ADR: ${val(m.adr, currency)} over ${m.adr.sampleSize} booked nights with a price, of ${m.adr.listings} listings (method ${m.adr.method}); RevPAR: ${val(m.revpar, currency)} (method ${m.revpar.method}).`,
    `Booking window: ${val(m.bookingWindowDays, 'days')} (median of ${m.bookingWindowDays.sampleSize} bookings); length of stay: ${val(m.lengthOfStayNights, 'nights')} (mean of ${m.lengthOfStayNights.sampleSize} bookings).`,
    `Nightly price percentiles from ${p.sampleSize} observed prices of ${p.listings} listings (method ${p.method}): p25 ${p.p25 ?? 'n/a'}, p50 ${p.p50 ?? 'n/a'}, p75 ${p.p75 ?? 'n/a'}, p90 ${p.p90 ?? 'n/a'} ${currency}.`,
  ].join(' ');
}
