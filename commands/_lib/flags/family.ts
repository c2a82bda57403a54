// Which form of `stays search` a command line asks for: Family U (GET /v1/search, the default) or
// Family S (POST /v1/search with an S body, D8), chosen by --family or by any S-only flag. Mixing
// the forms' own flags is a usage error. The keys come from the core's import-free list
// (src/core/search-family.ts): select.ts checks --json with it before the program is built.
import { FAMILY_S_SEARCH_KEYS, FAMILY_U_ONLY_SEARCH_KEYS } from '../../../src/core/search-family.js';

const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const flags = (keys: readonly string[]): Record<string, string> => Object.fromEntries(keys.map((k) => [k, flagOf(k)]));

/** Flags only the Family S form takes (option key → flag): the service's S-only keys, and --with-details (POST /v1/search/with-details). */
export const S_ONLY: Record<string, string> = flags([...FAMILY_S_SEARCH_KEYS, 'withDetails']);

/** Flags only the Family U form takes: the service's U-only keys. */
export const U_ONLY: Record<string, string> = flags(FAMILY_U_ONLY_SEARCH_KEYS);

export type Family = 'u' | 's';

/** The form the options ask for, or a message saying why they do not fit one. */
export function familyOf(opts: Record<string, unknown>): { family: Family } | { error: string } {
  const given = (set: Record<string, string>) => Object.keys(set).filter((k) => opts[k] !== undefined && opts[k] !== false);
  const [s, u] = [given(S_ONLY), given(U_ONLY)];
  const asked = typeof opts.family === 'string' ? opts.family.toLowerCase() : null;
  if (asked !== null && asked !== 'u' && asked !== 's') return { error: `--family must be u or s (got ${JSON.stringify(opts.family)}).` };
  if (s.length > 0 && u.length > 0) {
    return { error: `${S_ONLY[s[0]!]} belongs to the Family S form of search and ${U_ONLY[u[0]!]} to the Family U form; use the flags of one form (stays search --help lists both).` };
  }
  if (asked === 'u' && s.length > 0) return { error: `${S_ONLY[s[0]!]} belongs to the Family S form of search; drop --family u, or the flag.` };
  if (asked === 's' && u.length > 0) return { error: `${U_ONLY[u[0]!]} belongs to the Family U form of search; drop --family s, or the flag.` };
  return { family: asked ?? (s.length > 0 ? 's' : 'u') };
}

/** Whether a command line (process.argv) is the Family S form of search: --family s or an S-only flag. */
export function isSFormArgv(argv: readonly string[]): boolean {
  const words = argv.slice(2);
  const flags = Object.values(S_ONLY);
  return words.some((w, i) => flags.includes(w.split('=')[0]!) || (w === '--family' && /^s$/i.test(words[i + 1] ?? '')) || /^--family=s$/i.test(w));
}
