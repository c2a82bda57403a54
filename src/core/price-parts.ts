// Honest prices (issue 27, item 3): what a quote's totalPrice includes, and its line items when
// the source itemizes it. One builder for every normalizer and the sandbox world, so a quote says
// the same thing whichever path made it, and the line items always add up to the total.
import type { Price } from './schemas/resources.js';

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
export function knownCount(inc: Includes | undefined): number {
  if (!inc) return 0;
  return [inc.cleaning, inc.serviceFee, inc.taxes].filter((v) => v !== null).length;
}

/** The inclusions as one comparable key ("t,n,f"): offers agree when their keys are equal. */
export function includesKey(inc: Includes | undefined): string {
  const i = inc ?? UNKNOWN_INCLUDES;
  const v = (b: boolean | null) => (b === null ? 'n' : b ? 't' : 'f');
  return `${v(i.cleaning)},${v(i.serviceFee)},${v(i.taxes)}`;
}
