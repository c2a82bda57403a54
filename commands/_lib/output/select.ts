// --json FIELDS and --jq EXPR, as gh has them: the JSON output narrowed to some fields of each
// row, and/or filtered by a jq expression. Loaded only when one of the flags is used. Both are
// checked before any request (checkSelection): a field the command's rows do not have, or an
// expression jq cannot compile, is a usage error (exit 2) that costs nothing.
//
// jq is jq itself (1.8, the jq-wasm package: jq's C sources compiled to WebAssembly), not a
// look-alike: every builtin, jq's own error messages. It is required from node_modules at run time
// rather than bundled, so its .wasm file sits beside its code, and so the CLI bundle that every
// command compiles does not grow (docs/decisions.md).
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Jq } from 'jq-wasm';
import { JqError, UsageError } from '../runtime/errors.js';
import { isSFormArgv } from '../flags/family.js';
import { jsonText, io } from '../runtime/io.js';
import { currentProgram } from '../runtime/program-ref.js';
import type { Term } from '../runtime/term.js';
import type { Command } from 'commander';

type Row = Record<string, unknown>;

// The fields of each resource, as in src/core/schemas/resources.ts (a static copy, so checking
// --json does not load zod; test/cli/select.test.ts fails when the two differ).
export const PROPERTY_FIELDS = [
  'id',
  'platform',
  'platformListingId',
  'url',
  'name',
  'propertyType',
  'location',
  'starRating',
  'guestRating',
  'ratingScale',
  'reviewCount',
  'maxOccupancy',
  'bedrooms',
  'bathrooms',
  'amenities',
  'images',
  'host',
  'price',
  'identity',
] as const;
export const PRICE_FIELDS = ['platform', 'listingId', 'currency', 'nightlyPrice', 'totalPrice', 'fees', 'nights', 'occupancy', 'source', 'url', 'includes', 'lineItems'] as const;
export const PRICE_COMPARE_FIELDS = ['property', 'checkIn', 'checkOut', 'currency', 'min', 'median', 'comparable', 'offers', 'source'] as const;
export const AVAILABILITY_FIELDS = ['platform', 'listingId', 'dates'] as const;
export const REVIEW_FIELDS = ['platform', 'listingId', 'reviewId', 'rating', 'ratingScale', 'title', 'text', 'author', 'date', 'tripType', 'language', 'ownerResponse', 'liked', 'disliked'] as const;
export const ACCOUNT_FIELDS = ['id', 'plan', 'key', 'credits', 'rateLimit'] as const;

/**
 * What `data` holds per command: rows (an array of one resource) or one object. A command not
 * listed here (jobs get/wait: the job's own shape) has its fields checked on the answer instead.
 */
export const COMMAND_FIELDS: Record<string, { fields: readonly string[]; rows: boolean }> = {
  search: { fields: PROPERTY_FIELDS, rows: true },
  listing: { fields: PROPERTY_FIELDS, rows: false },
  price: { fields: PRICE_FIELDS, rows: false },
  compare: { fields: PRICE_COMPARE_FIELDS, rows: false },
  availability: { fields: AVAILABILITY_FIELDS, rows: true },
  reviews: { fields: REVIEW_FIELDS, rows: true },
  account: { fields: ACCOUNT_FIELDS, rows: false },
};

/** The command's name: the first word that is not an option (the program itself has no valued options). */
const commandOf = (argv: readonly string[]) => argv.slice(2).find((a) => !a.startsWith('-')) ?? '';

function unknownFieldsError(unknown: string[], available: readonly string[], command: string, rows: boolean, swallowed: string | null = null): UsageError {
  const names = unknown.map((f) => JSON.stringify(f)).join(', ');
  let message = `Unknown JSON field${unknown.length > 1 ? 's' : ''} ${names}${command ? ` for stays ${command}` : ''}; available: ${[...available].sort().join(', ')}.`;
  const nested = unknown.find((f) => f.includes('.') && available.includes(f.split('.')[0]!));
  if (nested) message += ` --json picks top-level fields; for a nested value use --jq, e.g. --jq '${rows ? '.data[] | ' : '.data'}.${nested}'.`;
  if (swallowed !== null) message += ` ${swallowed}`;
  return new UsageError(message, 'json');
}

/**
 * `stays search --json Lisbon`: commander's optional value took the positional argument, which
 * is then missing. Told by replaying the words against the command's options and arguments.
 */
function swallowedHint(argv: readonly string[]): string | null {
  const words = argv.slice(2);
  const at = words.indexOf('--json');
  const value = words[at + 1];
  if (at < 0 || value === undefined || value.startsWith('-')) return null;
  const program = currentProgram();
  if (program === undefined) return null;
  let cmd: Command = program;
  const path: string[] = [];
  let positionals = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (i === at + 1) continue;
    if (w.startsWith('-')) {
      const opt = cmd.options.find((o) => o.long === w.split('=')[0] || o.short === w);
      const next = words[i + 1];
      if (opt && !w.includes('=') && next !== undefined && i + 1 !== at && (opt.required || (opt.optional && !next.startsWith('-')))) i++;
      continue;
    }
    const sub = positionals === 0 ? cmd.commands.find((c) => c.name() === w) : undefined;
    if (sub) path.push((cmd = sub).name());
    else positionals++;
  }
  if (positionals >= cmd.registeredArguments.length) return null;
  const moved = [...words.slice(0, at), ...words.slice(at + 1), '--json'];
  return `--json took ${JSON.stringify(value)} as its field list, so stays ${path.join(' ')} is missing an argument: for the whole envelope put --json after the arguments (stays ${moved.join(' ')}); for fields write --json=FIELDS.`;
}

/**
 * Before any request: --json FIELDS against the fields of the command's rows, and the --jq
 * expression compiled. Both throw a UsageError (exit 2).
 */
export async function checkSelection(fields: string[] | null, jq: string | null, argv: readonly string[] = io().argv): Promise<void> {
  if (fields !== null) {
    const command = commandOf(argv);
    // The Family S form of search has stays, not properties: their fields are checked on the answer.
    const known = command === 'search' && isSFormArgv(argv) ? undefined : COMMAND_FIELDS[command];
    const unknown = known ? fields.filter((f) => !known.fields.includes(f)) : [];
    if (known && unknown.length > 0) throw unknownFieldsError(unknown, known.fields, command, known.rows, swallowedHint(argv));
  }
  if (jq !== null) compile(await loadJq(), jq);
}

/** Only `fields` of each row (of the rows of `data`, or of `data` itself when it is one object). */
export function pickFields(data: unknown, fields: string[], argv: readonly string[] = io().argv): unknown {
  // After the request: the arguments were all there, and only the answer tells the fields.
  const rows = Array.isArray(data) ? (data as Row[]) : [data as Row];
  const known = [...new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])))];
  const unknown = fields.filter((f) => !known.includes(f));
  if (rows.length > 0 && unknown.length > 0) throw unknownFieldsError(unknown, known, commandOf(argv), Array.isArray(data));
  const pick = (r: Row) => Object.fromEntries(fields.map((f) => [f, r?.[f] ?? null]));
  return Array.isArray(data) ? rows.map(pick) : pick(data as Row);
}

// The compiled WebAssembly instance, made once per process (like a module import): the check
// before the request and the filtering after it share it.
let jqInstance: Promise<Jq> | undefined;

/**
 * jq, compiled by V8's baseline compiler only: optimising jq's functions in the background would
 * delay the exit by ~60 ms for a filter that runs once (docs/benchmarks.md). The flag is set back
 * at once so other WebAssembly is compiled as usual.
 */
function loadJq(): Promise<Jq> {
  jqInstance ??= (async () => {
    const { loadJq: load } = createRequire(import.meta.url)('jq-wasm') as typeof import('jq-wasm');
    setFlagsFromString('--liftoff-only');
    try {
      return await load();
    } finally {
      setFlagsFromString('--no-liftoff-only');
    }
  })();
  return jqInstance;
}

/** jq's own message, without the input name jq-wasm gives stdin. */
const jqMessage = (stderr: string, exitCode: number) => stderr.replace(/ \(at \/dev\/stdin:\d+\)/g, '').trim() || `jq exited with status ${exitCode}`;

/**
 * Compiles without running: jq reads its input only after compiling the program, and an empty
 * input gives it nothing to run on. Exit 3 is jq's status for a compile error.
 */
function compile(jq: Jq, expr: string): void {
  const r = jq.raw('', expr);
  if (r.exitCode === 3) throw new JqError(`Invalid --jq expression: ${jqMessage(r.stderr, r.exitCode)}`);
}

/** The values `expr` outputs for `input` (one compact JSON text a line from jq -c), and jq's error if it stopped on one. */
export async function runJq(input: unknown, expr: string): Promise<{ values: unknown[]; stderr: string; error: string | null }> {
  const r = (await loadJq()).raw(JSON.stringify(input), expr, ['-c']);
  const values =
    r.stdout === ''
      ? []
      : r.stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as unknown);
  const failed = r.exitCode !== 0;
  return { values, stderr: failed ? '' : r.stderr, error: failed ? jqMessage(r.stderr, r.exitCode) : null };
}

/**
 * Prints the selection on stdout: the --json FIELDS rows, or the whole envelope, filtered by --jq
 * when given. jq's results as gh prints them: a string raw (no quotes), one a line; any other
 * value as JSON (one line, indented on a terminal). A jq error stops after the values before it.
 */
export async function printSelected(envelope: { data: unknown }, sel: { fields: string[] | null; jq: string | null }, term: Term): Promise<void> {
  const value = sel.fields ? pickFields(envelope.data, sel.fields) : envelope;
  if (sel.jq === null) {
    io().stdout.write(jsonText(value, term.outTTY));
    return;
  }
  const out = await runJq(value, sel.jq);
  io().stdout.write(out.values.map((v) => (typeof v === 'string' ? `${v}\n` : jsonText(v, term.outTTY))).join(''));
  // debug, stderr and the like: jq writes them on stderr, and so do we.
  if (out.stderr !== '') io().stderr.write(`${out.stderr}\n`);
  if (out.error !== null) throw new JqError(`--jq failed: ${out.error}`);
}
