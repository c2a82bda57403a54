// The Family S search forms (D8): `stays search --family s …` (POST /v1/search, or
// /v1/search/with-details) and `stays listings PRESET …` (POST /v1/listings/{preset}). Flags in
// kebab-case become the body's camelCase keys; numbers go as JSON numbers, lists as arrays; the
// service validates the rest. Paging resends the same body with nextPageToken (--all does).
import type { Command } from 'commander';
import type { ApiCall } from '../../../src/client/http.js';
import type { StaySearchBody } from '../../../src/client/operations.js';
import type { Ctx } from '../runtime/context.js';

/** The S-only flags (search gets them beside its own, marked "S:"; listings take them all, unmarked). */
export function withStayFlags(cmd: Command, mark = 'S: '): Command {
  const opt = (flags: string, help: string) => cmd.option(flags, `${mark}${help}`);
  opt('--location-queries <list>', 'several places in one call, comma-separated (at most 10; rows interleave)');
  opt('--search-urls <list>', 'airbnb search-results URLs, comma-separated (at most 10)');
  opt('--max-items <n>', 'rows per page (default 50; up to 240 at once, 241-250 as a job; listings: at most 50)');
  opt('--fields <paths>', 'only these dotted Stay paths, e.g. id,title,pricing.price (tables and csv show these columns)');
  opt('--infants <n>', 'infants (default 0)');
  opt('--pets <n>', 'pets; above 0 keeps only pet-friendly stays');
  opt('--locale <code>', 'language, e.g. en or en-US (echoed)');
  opt('--min-beds <n>', 'minimum beds (accepted, ignored with a warning)');
  opt('--min-bathrooms <n>', 'minimum bathrooms');
  opt('--next-page-token <token>', 'the next page: meta.next_page_token of the previous one (same flags otherwise)');
  return cmd;
}

/** The shared flags listings take (search has its own of these). */
export function withStaySharedFlags(cmd: Command): Command {
  return cmd
    .option('--check-in <date>', 'YYYY-MM-DD (default: 14 days from today)')
    .option('--check-out <date>', 'YYYY-MM-DD, after --check-in (default: 2 nights)')
    .option('--adults <n>', 'adults (default 2)')
    .option('--children <n>', 'children (default 0)')
    .option('--price-min <n>', 'minimum nightly price in --currency')
    .option('--price-max <n>', 'maximum nightly price in --currency')
    .option('--min-bedrooms <n>', 'minimum bedrooms')
    .option('--currency <code>', 'ISO-4217 currency (default USD)');
}

const NUMBERS = ['adults', 'children', 'infants', 'pets', 'priceMin', 'priceMax', 'minBeds', 'minBedrooms', 'minBathrooms', 'maxItems'] as const;
const STRINGS = ['checkIn', 'checkOut', 'currency', 'locale', 'nextPageToken', 'fields'] as const;

const asNumber = (v: string) => (/^[+-]?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v);
const split = (v: string, by: RegExp) =>
  v
    .split(by)
    .map((s) => s.trim())
    .filter(Boolean);

/** The S body from the flags and the LOCATION argument. */
export function stayBody(location: string | undefined, opts: Record<string, unknown>): StaySearchBody {
  const body: Record<string, unknown> = {};
  if (location !== undefined) body.location = location;
  if (typeof opts.locationQueries === 'string') body.locationQueries = split(opts.locationQueries, /,/);
  // A search URL's query may hold commas: split only where the next URL starts.
  if (typeof opts.searchUrls === 'string') body.searchUrls = split(opts.searchUrls, /,(?=\s*https?:\/\/)/i);
  for (const k of STRINGS) if (typeof opts[k] === 'string') body[k] = opts[k];
  // Numbers as JSON numbers; anything else as typed, for the service to refuse in its own words.
  for (const k of NUMBERS) if (typeof opts[k] === 'string') body[k] = asNumber(opts[k] as string);
  return body as StaySearchBody;
}

/** Whether the body names its places without LOCATION. */
export const placesGiven = (opts: Record<string, unknown>) => typeof opts.locationQueries === 'string' || typeof opts.searchUrls === 'string';

/** Runs an S search call: --fields sets the columns of tables, tsv and csv. */
export async function runStaySearch(ctx: Ctx, call: ApiCall, opts: Record<string, unknown>): Promise<void> {
  const { runCall } = await import('../runtime/run.js');
  if (typeof opts.fields === 'string') {
    // As the service projects: each path once, none under a path asked for whole.
    const paths = [...new Set(split(opts.fields, /,/))];
    ctx.projection = paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(`${q}.`)));
  }
  await runCall(ctx, call, 'stay', { paginates: true, all: opts.all === true });
}
