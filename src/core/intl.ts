// ICU look-ups (country and language names, the currency list), built on first use: constructing
// Intl.DisplayNames loads ICU data, which costs a CLI command ~15 ms at start-up even when it never
// reads a country (bench/cli.mjs).

let regions: Intl.DisplayNames | undefined;
let languages: Intl.DisplayNames | undefined;
let currencies: Set<string> | undefined;

/** The English name of an ISO-3166 region code, or undefined when ICU knows none (or it is malformed). */
export function regionName(code: string): string | undefined {
  try {
    return (regions ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })).of(code);
  } catch {
    return undefined;
  }
}

/** The English name of an ISO-639 language code, or undefined. */
export function languageName(code: string): string | undefined {
  try {
    return (languages ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })).of(code);
  } catch {
    return undefined;
  }
}

export function isCurrencyCode(code: string): boolean {
  return (currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(code);
}
