// Money as the actors emit it: numbers, or localized text ("$139", "€1,234.50", "US$99",
// "1.234,50 €", "CHF 1'234.50", "$1,079 total, originally $1,549"). The currency is never read
// from the symbol (research 2.1: parse with the requested currency); only the amount is parsed here.
// Anything without a readable amount is null, never NaN, so the caller decides what that means.

/** Digit groups joined by single separators: the first such run in the text is the amount. */
const AMOUNT = /\d+(?:[.,'\u00a0\u202f ]\d+)*/;
const GROUPING_ONLY = /['\u00a0\u202f ]/;

/** The amount of a money value, or null when it has none (e.g. "", "Free", "€ "). */
export function parseMoney(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = AMOUNT.exec(value);
  if (!m) return null;
  const n = readAmount(m[0]);
  if (n === null) return null;
  // A minus sign counts only when it leads the amount ("-$20", "−€5"), not as a dash in a label
  // ("Cleaning fee - $48").
  const before = value.slice(0, m.index);
  return /(?:^|[\s(])[-\u2212][^\d\s]{0,4}$/.test(before) ? -n : n;
}

/**
 * One run of digit groups → a number. The decimal separator is the last '.' or ',' unless it is
 * followed by exactly three digits and looks like grouping: a group of three after a single
 * separator is grouping ("1,234", "1.234" as de-DE writes 1234) unless the run starts with "0".
 * Space-like separators and apostrophes are grouping only, and only before three digits; a run
 * like "107 2" stops at "107".
 */
function readAmount(run: string): number | null {
  const groups: string[] = [];
  const seps: string[] = [];
  const parts = run.split(/([.,'\u00a0\u202f ])/);
  for (let i = 0; i < parts.length; i += 2) {
    const g = parts[i]!;
    const sep = parts[i - 1];
    if (sep !== undefined && GROUPING_ONLY.test(sep) && g.length !== 3) break;
    if (sep !== undefined) seps.push(sep);
    groups.push(g);
  }
  const last = seps.length - 1;
  let decimalAt = -1;
  if (last >= 0 && (seps[last] === '.' || seps[last] === ',')) {
    const tail = groups[last + 1]!;
    const sep = seps[last]!;
    const sameEarlier = seps.slice(0, last).includes(sep);
    const otherEarlier = seps.slice(0, last).some((s) => s === '.' || s === ',');
    const looksGrouped = tail.length === 3 && groups[0] !== '0' && !otherEarlier;
    if (!sameEarlier && !looksGrouped) decimalAt = last;
  }
  const whole = groups.slice(0, decimalAt >= 0 ? decimalAt + 1 : groups.length);
  // Grouping separators must separate groups of three; anything else is not a number we can trust.
  if (whole.slice(1).some((g) => g.length !== 3)) return null;
  const text = whole.join('') + (decimalAt >= 0 ? `.${groups[decimalAt + 1]}` : '');
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Rounded to cents: for amounts the service derives (a nightly rate from a total, a rescaled rating). */
export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
