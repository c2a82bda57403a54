// Numbers for people (tables and key/value views), never for tsv/csv: grouped thousands, money
// with its currency, ratings with their scale.

/** 1234.5 → "1,234.50" (two decimals): thousands grouping for people, never in tsv/csv. */
export function grouped(n: number, decimals: number): string {
  // By hand, not Intl.NumberFormat: its first use loads ICU data, some 10 ms of a table's start.
  const [whole = '', part] = n.toFixed(decimals).split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return part === undefined ? withCommas : `${withCommas}.${part}`;
}

// ISO-4217 currencies without minor units that stays may be asked for.
const NO_CENTS = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'UGX', 'XOF', 'XAF']);
export const money = (amount: unknown, currency: unknown): string | null =>
  typeof amount === 'number' ? `${grouped(amount, NO_CENTS.has(String(currency)) ? 0 : 2)}${typeof currency === 'string' ? ` ${currency}` : ''}` : null;
/** One decimal on every scale: 5.0/5, 9.3/10. */
export const rating = (value: unknown, scale: unknown): string | null => (typeof value === 'number' ? `${value.toFixed(1)}${typeof scale === 'number' ? `/${scale}` : ''}` : null);
