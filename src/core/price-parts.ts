// Honest prices (issue 27, item 3): what a quote's totalPrice includes, and its line items when
// the source itemizes it. One builder for every normalizer and the sandbox world, so a quote says
// the same thing whichever path made it, and the line items always add up to the total. And the
// ranking compare gives offers: totals rank only among offers whose inclusions agree.
import type { Offer, Price, Warning } from './schemas/resources.js';

export type Includes = NonNullable<Price['includes']>;
export type LineItem = NonNullable<Price['lineItems']>[number];

/** Nothing known about what the total includes. */
export const UNKNOWN_INCLUDES: Includes = Object.freeze({ cleaning: null, serviceFee: null, taxes: null });

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface PartsInput {
  currency: string;
  nightlyPrice: number;
  nights: number;
  totalPrice: number;
  fees: Price['fees'];
  includes: Includes;
  /** The source itemized the price (a breakdown, a stated fee): line items are given. */
  itemized: boolean;
  /** The nights' subtotal as the source states it; else nightly × nights. */
  base?: number | null;
}

/**
 * includes, and lineItems when the source itemizes: the nights, each stated fee the total
 * includes, and, when those do not reach the stated total, the difference as one more line (a
 * discount when negative), so the items always add up to totalPrice.
 */
export function priceParts(q: PartsInput): { includes: Includes; lineItems?: LineItem[] } {
  const includes = { cleaning: q.includes.cleaning, serviceFee: q.includes.serviceFee, taxes: q.includes.taxes };
  if (!q.itemized) return { includes };
  const c = q.currency;
  const items: LineItem[] = [{ kind: 'nightly', label: q.nights === 1 ? '1 night' : `${q.nights} nights`, amount: round2(q.base ?? q.nightlyPrice * q.nights), currency: c }];
  if (q.fees.cleaning !== null && includes.cleaning !== false) items.push({ kind: 'cleaning', label: 'Cleaning fee', amount: q.fees.cleaning, currency: c });
  if (q.fees.service !== null && includes.serviceFee !== false) items.push({ kind: 'service_fee', label: 'Service fee', amount: q.fees.service, currency: c });
  if (q.fees.taxes !== null && includes.taxes !== false) items.push({ kind: 'taxes', label: 'Taxes', amount: q.fees.taxes, currency: c });
  const diff = round2(q.totalPrice - items.reduce((s, i) => s + i.amount, 0));
  if (Math.abs(diff) >= 0.01) items.push({ kind: diff < 0 ? 'discount' : 'other', label: diff < 0 ? 'Discount or adjustment' : 'Other charges', amount: diff, currency: c });
  return { includes, lineItems: items };
}

/** How many of the three inclusions are known (true or false). */
function knownCount(inc: Includes | undefined): number {
  if (!inc) return 0;
  return [inc.cleaning, inc.serviceFee, inc.taxes].filter((v) => v !== null).length;
}

/** The inclusions as one comparable key ("t,n,f"): offers agree when their keys are equal. */
function includesKey(inc: Includes | undefined): string {
  const i = inc ?? UNKNOWN_INCLUDES;
  const v = (b: boolean | null) => (b === null ? 'n' : b ? 't' : 'f');
  return `${v(i.cleaning)},${v(i.serviceFee)},${v(i.taxes)}`;
}

/**
 * Offers compare on the total, in both modes: cheapest first (a source may list them otherwise).
 * Offers quoted in another currency than asked cannot be compared and follow, cheapest first
 * among themselves. Equal totals keep the order they came in (direct mode: the order given).
 */
function byTotal(offers: Offer[], currency: string): Offer[] {
  const rank = (o: Offer) => (o.currency === currency ? 0 : 1);
  return offers
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || a.o.totalPrice - b.o.totalPrice || a.i - b.i)
    .map((x) => x.o);
}

const INCLUSION_NAMES = [
  ['cleaning', 'cleaning'],
  ['serviceFee', 'service fee'],
  ['taxes', 'taxes'],
] as const;

const said = (v: boolean | null | undefined) => (v === true ? 'included' : v === false ? 'not included' : 'unknown');

/**
 * Honest ranking (issue 27, item 3): totals rank against each other only when they include the
 * same fees and taxes. When the offers in the asked currency disagree on includes, the ones that
 * agree with the best-known inclusions (most of cleaning, service fee and taxes known; then the
 * larger group; then the group of the cheapest offer) are ranked first, cheapest first; the others
 * follow, cheapest first among themselves, and a price_inclusions_differ warning names each of
 * them and what differs. `stats` are the offers ranked first: the answer's `comparable` figures.
 */
export function rankHonestly(offers: Offer[], currency: string, name: (o: Offer) => string): { offers: Offer[]; stats: Offer[]; warning: Omit<Warning, 'docUrl'> | null } {
  const sorted = byTotal(offers, currency);
  const same = sorted.filter((o) => o.currency === currency);
  const keys = [...new Set(same.map((o) => includesKey(o.includes)))];
  if (keys.length <= 1) return { offers: sorted, stats: same, warning: null };
  const score = (k: string) => {
    const group = same.filter((o) => includesKey(o.includes) === k);
    return [knownCount(group[0]!.includes), group.length, -same.indexOf(group[0]!)] as const;
  };
  const ref = keys.reduce((best, k) => {
    const [a, b, c] = score(k);
    const [x, y, z] = score(best);
    return a > x || (a === x && (b > y || (b === y && c > z))) ? k : best;
  });
  const ranked = same.filter((o) => includesKey(o.includes) === ref);
  const apart = same.filter((o) => includesKey(o.includes) !== ref);
  const refIncludes = ranked[0]!.includes;
  const basis = INCLUSION_NAMES.map(([k, n]) => `${n} ${said(refIncludes?.[k])}`).join(', ');
  const why = apart.map((o) => {
    const diffs = INCLUSION_NAMES.filter(([k]) => (o.includes?.[k] ?? null) !== (refIncludes?.[k] ?? null)).map(([k, n]) => `${n} ${said(o.includes?.[k])}`);
    return `${name(o)} (${diffs.join(', ')})`;
  });
  const message =
    `Offers whose totals include different things are not ranked together: ${ranked.length === 1 ? 'the offer ranked first' : `the ${ranked.length} offers ranked first`} (${ranked.map(name).join(', ')}) ${ranked.length === 1 ? 'states' : 'state'} ${basis}; ` +
    `listed after them: ${why.join('; ')}.`;
  return {
    offers: [...ranked, ...apart, ...sorted.filter((o) => o.currency !== currency)],
    stats: ranked,
    warning: { code: 'price_inclusions_differ', message },
  };
}
