// Printing a failure on stderr and choosing its exit code. Human form: the message first, then
// type/code, param, requestId and docUrl; with --json the error envelope as one line, stdout empty.
import { StaysApiError, StaysConnectionError, StaysPaginationError, StaysWaitTimeoutError } from '../../../src/client/errors.js';
import { EXIT, exitCodeFor, io } from './io.js';
import { type Term, chalkAt } from './term.js';

/** A mistake in how the command was called (exit 2), found before any request. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A --jq expression that did not compile, or stopped on an error while running: a usage error
 * (exit 2) printed as text in every mode, even where errors are JSON envelopes (--json, -o json),
 * since it is about the filter the user wrote, not the API's answer, and gh prints it so too.
 */
export class JqError extends UsageError {
  constructor(message: string) {
    super(message, 'jq');
    this.name = 'JqError';
  }
}

interface Printable {
  /** What --json prints: for an API error, the wire envelope exactly as received. */
  envelope: { error: Record<string, unknown> };
  exitCode: number;
  details: string[];
  /** The human message, when it differs from the envelope's (API errors in CLI words). */
  human?: string;
  /** Nothing to say (Ctrl-C at a prompt): only the exit code. */
  silent?: boolean;
}

// ---- API parameter names in CLI words -------------------------------------------------------

const PARTY = ['adults', 'children', 'childAges', 'currency'];
const DATES = ['checkIn', 'checkOut'];
/** The Family S search body's keys that are flags (search --family s, listings). */
const S_SEARCH = [
  'adults',
  'children',
  'infants',
  'pets',
  'currency',
  'locale',
  'priceMin',
  'priceMax',
  'minBeds',
  'minBedrooms',
  'minBathrooms',
  'locationQueries',
  'searchUrls',
  'maxItems',
  'nextPageToken',
  'fields',
];

/**
 * Per command: the API parameters it takes as positional arguments (as usage spells them) and as
 * flags (the parameter in --kebab-case). The flags mirror the parameters (options.ts), so a
 * parameter's flag is derived from its name; only what a command takes is rewritten.
 */
const CLI_PARAMS: Record<string, { args?: Record<string, string>; flags: string[] }> = {
  search: {
    args: { location: 'LOCATION' },
    flags: [
      ...new Set([...DATES, ...PARTY, 'rooms', 'propertyType', 'amenities', 'minBedrooms', 'priceMin', 'priceMax', 'minGuestRating', 'platforms', 'platform', 'limit', 'cursor', 'sort', ...S_SEARCH]),
    ],
  },
  listing: { args: { platform: 'PLATFORM', id: 'ID' }, flags: ['country', ...DATES, ...PARTY] },
  price: { args: { platform: 'PLATFORM', listingId: 'LISTING_ID' }, flags: ['country', ...DATES, ...PARTY] },
  compare: { flags: ['listings', 'name', 'location', 'googleHotelId', ...DATES, ...PARTY] },
  availability: { args: { platform: 'PLATFORM', listingId: 'ID', listingIds: 'ID…' }, flags: ['url', 'country', 'startDate', 'endDate', 'onlyAvailable'] },
  reviews: { args: { platform: 'PLATFORM', listingId: 'LISTING_ID' }, flags: ['url', 'country', 'limit', 'cursor', 'language', 'minRating', 'sort'] },
  // `stays jobs list` (GET /v1/jobs); `jobs get|wait` take only a job id.
  jobs: { flags: ['status', 'limit', 'cursor'] },
  webhooks: { args: { id: 'ID' }, flags: ['url', 'events', 'description'] },
  // Family S: `stays stay get|batch` and the S form of search (camelCase body keys) and listings.
  stay: { args: { id: 'ID', url: 'URL' }, flags: ['part', 'file'] },
  listings: { args: { location: 'LOCATION' }, flags: [...DATES, ...S_SEARCH] },
  // The analyst commands (issue 36, item 15). `history` is every subcommand's (price, calendar,
  // bookings, listings, export); args also hold a flag whose name is not the parameter's kebab
  // (compSet is --compset, radiusMeters --radius).
  history: {
    args: { platform: 'PLATFORM', listingId: 'LISTING_ID', location: 'LOCATION' },
    flags: [...DATES, 'adults', 'country', 'from', 'to', 'limit', 'cursor', 'startDate', 'endDate', 'platforms', 'since', 'collection', 'method'],
  },
  market: { args: { location: 'LOCATION', compSet: '--compset' }, flags: ['bbox', 'collection', 'from', 'to', 'platforms', 'bedrooms', 'interval', 'method'] },
  match: { args: { platform: 'PLATFORM', listingId: 'LISTING_ID', listing: 'LISTING', match: 'MATCH' }, flags: ['platforms', 'threshold', 'country'] },
  compset: { args: { name: 'NAME', id: 'ID_OR_NAME', radiusMeters: '--radius' }, flags: ['near', 'bedrooms', 'platforms'] },
  // `stays watch add price|calendar|search`: the watched call's parameters (call.params.X, see
  // paramOf) are the flags of price, availability and search; the watch's own fields follow.
  watch: {
    args: { platform: 'PLATFORM', listingId: 'LISTING_ID', location: 'LOCATION', id: 'ID', intervalMinutes: '--every' },
    flags: [
      ...DATES,
      ...PARTY,
      'country',
      'url',
      'startDate',
      'endDate',
      'rooms',
      'propertyType',
      'amenities',
      'minBedrooms',
      'priceMin',
      'priceMax',
      'minGuestRating',
      'platforms',
      'limit',
      'sort',
      'maxCreditsPerDay',
      'name',
      'cursor',
    ],
  },
};

/**
 * `stays watch add` builds a watch's rules from flags (issue 36, item 15): a rule's field is the
 * flag that set it (rules[0].percent is --drop), and a rule named in a message is its flag.
 */
const RULE_FIELD_FLAGS: Record<string, string> = { amount: '--below', percent: '--drop', field: '--field' };
const RULE_TYPE_FLAGS: Record<string, string> = {
  price_below: '--below',
  price_drop: '--drop',
  nights_available: '--nights-available',
  min_nights_changed: '--min-nights-changed',
  new_listings: '--new-listings',
};

/** A watch rule's param (rules[1].percent, rules[0].type) as the flag typed; null for any other param. */
function ruleFlag(param: string, message: string): string | null {
  const m = /^rules\[\d+\](?:\.(\w+))?$/.exec(param);
  if (!m) return null;
  const byField = m[1] === undefined ? undefined : RULE_FIELD_FLAGS[m[1]];
  if (byField) return byField;
  const type = Object.keys(RULE_TYPE_FLAGS).find((t) => message.includes(t));
  return type === undefined ? null : RULE_TYPE_FLAGS[type]!;
}

/** A watch's message in the flags' words: its rule params and rule names as the flags typed. */
const watchRuleWords = (message: string): string =>
  message
    .replace(/rules\[\d+\]\.(amount|percent|field)\b/g, (_m, f: string) => RULE_FIELD_FLAGS[f]!)
    .replace(/\b(price_below|price_drop|nights_available|min_nights_changed|new_listings)\b/g, (t: string) => RULE_TYPE_FLAGS[t]!);

/** The parameter as the command's flags name it: a watch's call parameter (call.params.checkIn) is the flag of that parameter. */
const paramOf = (param: string) => param.replace(/^call\.params\./, '');

/** A radius message's metres in the units --radius takes: "at most 50000 (got 99000)" → "at most 50 km (got 99 km)". */
const radiusWords = (message: string) => message.replace(/(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.]|\.\d)/g, (n: string) => (Math.abs(Number(n)) >= 1000 ? `${Number(n) / 1000} km` : `${n} m`));

const kebab = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The command being run: the first word after `stays` (the program takes no options before it). */
function commandName(argv: readonly string[] = io().argv): string | null {
  return argv.slice(2).find((a) => !a.startsWith('-')) ?? null;
}

/** API parameter name → how the command spells it; null for commands that speak the API (`stays api`). */
function cliNames(command: string | null): Map<string, string> | null {
  const spec = command === null ? undefined : CLI_PARAMS[command];
  if (!spec) return null;
  return new Map([...spec.flags.map((f): [string, string] => [f, kebab(f)]), ...Object.entries(spec.args ?? {})]);
}

/**
 * A message's parameter names in CLI words: `checkOut must be after checkIn` → `--check-out must
 * be after --check-in`. A camelCase name is unambiguous wherever it stands; a one-word name
 * (children, country, platform) is also an English word, so it is rewritten only where a
 * parameter stands in the catalogue's messages: first, or after a joining word (`… but platform
 * is vrbo`, `drop country or …`, `with name or location`, `to must be after from`), never inside prose (`an ISO-4217
 * currency code`) nor inside a format (`stays_<platform>_<id>`, `platform:listingId`).
 */
function inCliWords(message: string, names: Map<string, string>): string {
  if (names.size === 0) return message;
  const alt = [...names.keys()].sort((a, b) => b.length - a.length).join('|');
  const re = new RegExp(`(?<![\\w<{/.:$-])(${alt})(?![\\w>}-]|:\\S)`, 'g');
  return message.replace(re, (name: string, _n: string, at: number) => {
    if (/[A-Z]/.test(name)) return names.get(name)!;
    if (at === 0) return names.get(name)!;
    if (name === 'id') return name;
    const before = message.slice(0, at);
    return /(?:\b(?:but|and|or|with|for|pass|drop|of|after|before|[Gg]ive)|,|\() ?$/.test(before) && !/\b(?:the|a|an) $/i.test(before) ? names.get(name)! : name;
  });
}

function describe(e: unknown): Printable {
  if (e instanceof StaysApiError) {
    const envelope = e.toJSON() as unknown as Printable['envelope'];
    const command = commandName();
    const names = cliNames(command);
    const rule = command === 'watch' && e.param !== null ? ruleFlag(e.param, e.message) : null;
    const details = [`${e.type}/${e.code}`];
    if (e.jobId) details.push(`job: ${e.jobId}`);
    if (e.param) details.push(`param: ${rule ?? names?.get(paramOf(e.param)) ?? e.param}`);
    if (e.requestId) details.push(`requestId: ${e.requestId}`);
    if (e.docUrl) details.push(`docs: ${e.docUrl}`);
    const typed = command === 'compset' && e.param === 'radiusMeters' ? radiusWords(e.message) : e.message;
    const message = rule === null ? typed : watchRuleWords(typed);
    const human = e.param !== null && names ? inCliWords(message, names) : message;
    return { envelope, exitCode: exitCodeFor(e.type, e.code, { jobFailed: e.jobId !== null }), details, human };
  }
  // Ctrl-C at a prompt (@inquirer/prompts, told apart by name so this module does not load it):
  // the user knows; exit 130 like Ctrl-C anywhere else.
  if (e instanceof Error && e.name === 'ExitPromptError') {
    return { envelope: { error: { type: 'interrupted', code: 'interrupted', message: 'interrupted' } }, exitCode: EXIT.interrupted, details: [], silent: true };
  }
  // A request `stays api` gave up on after --timeout (raw.ts), told apart by name.
  if (e instanceof Error && e.name === 'RequestTimeout') {
    return { envelope: { error: { type: 'timeout', code: 'request_timeout', message: e.message } }, exitCode: EXIT.waitTimeout, details: [] };
  }
  if (e instanceof StaysWaitTimeoutError) {
    return { envelope: { error: { type: 'wait_timeout', code: 'wait_timeout', message: e.message, jobId: e.jobId, status: e.lastStatus } }, exitCode: EXIT.waitTimeout, details: [] };
  }
  if (e instanceof UsageError) {
    return { envelope: { error: { type: 'invalid_request', code: 'usage', message: e.message, param: e.param } }, exitCode: EXIT.usage, details: [] };
  }
  // A setting that cannot be used (src/config.ts ConfigError), told apart by name so this module
  // does not load the runtime's configuration code.
  if (e instanceof Error && e.name === 'ConfigError') {
    return { envelope: { error: { type: 'invalid_request', code: 'invalid_setting', message: e.message } }, exitCode: EXIT.usage, details: [] };
  }
  // The database (STAYS_DATABASE_URL) cannot be used: src/store/postgres/store.ts.
  if (e instanceof Error && e.name === 'StoreUnavailableError') {
    return { envelope: { error: { type: 'api_error', code: 'store_unavailable', message: e.message } }, exitCode: EXIT.internal, details: [] };
  }
  // `stays api --paginate` stopped before the last page (raw.ts), told apart by name.
  if (e instanceof Error && e.name === 'PaginateStopped') {
    return { envelope: { error: { type: 'api_error', code: 'pagination_stopped', message: e.message } }, exitCode: EXIT.internal, details: [] };
  }
  if (e instanceof StaysPaginationError) {
    return { envelope: { error: { type: 'api_error', code: 'pagination_missing', message: e.message, pages: e.pages, cursor: e.lastCursor } }, exitCode: EXIT.internal, details: [] };
  }
  // The cost guard (cost.ts), told apart by name so this module does not load it.
  if (e instanceof Error && e.name === 'CostRefused') {
    return { envelope: { error: { type: 'insufficient_credits', code: 'max_credits_exceeded', message: e.message, param: 'max-credits' } }, exitCode: EXIT.credits, details: [] };
  }
  if (e instanceof StaysConnectionError) {
    return { envelope: { error: { type: 'connection_error', code: 'connection_error', message: e.message } }, exitCode: EXIT.internal, details: [] };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { envelope: { error: { type: 'internal_error', code: 'cli_error', message } }, exitCode: EXIT.internal, details: [] };
}

/** Prints the failure and returns the exit code. */
export async function reportError(e: unknown, term: Term, json: boolean): Promise<number> {
  const p = describe(e);
  // Silent (Ctrl-C at a prompt): nothing to add; the prompt has ended its own line.
  if (p.silent) return p.exitCode;
  if (json && !(e instanceof JqError)) {
    io().stderr.write(`${JSON.stringify(p.envelope)}\n`);
  } else {
    const c = await chalkAt(term.errColor);
    io().stderr.write(`${c.red('error:')} ${p.human ?? String(p.envelope.error.message)}\n`);
    if (p.details.length) io().stderr.write(`${c.dim(`  ${p.details.join('\n  ')}`)}\n`);
  }
  if (io().env.STAYS_DEBUG === '1' && e instanceof Error && p.exitCode === EXIT.internal && e.stack) io().stderr.write(`${e.stack}\n`);
  return p.exitCode;
}
