// What a data command runs with: the terminal, the output format, and a client on the right
// transport with the right key. Mode: remote when a base URL is set (flag, STAYS_BASE_URL or
// config), else in-process on the embedded store. Key: --api-key, STAYS_API_KEY, config, in that
// order; in-process with none, a local sandbox account and key are provisioned on first use.
import pkg from '../../../package.json' with { type: 'json' };
import { type StaysClient, createClient } from '../../../src/client/index.js';
import { type InProcessTransport, inProcessTransport } from '../../../src/client/in-process.js';
import { type Transport, remoteTransport } from '../../../src/client/transport.js';
import type { RequestEvent } from '../../../src/client/types.js';
import type { Config } from '../../../src/config.js';
import { readProfile, runtimeSettings, unknownProfile } from '../config/profiles.js';
import { UsageError } from './errors.js';
import { localKey, storeLabel } from '../config/local-key.js';
import { type GlobalOpts, parseDuration } from '../flags/options.js';
import { FORMATS, type Format } from '../output/print.js';
import { type Term, makeTerm } from './term.js';
import { type WaitUi, createWaitUi } from '../output/waiting.js';
import { io } from './io.js';

export interface Ctx {
  term: Term;
  format: Format;
  /** --json FIELDS: only these fields of each row, as JSON. */
  fields: string[] | null;
  /** --jq EXPR: the JSON output filtered by a jq expression. */
  jq: string | null;
  /** Family S --fields: the rows are projections; tables, tsv and csv print these paths as columns. */
  projection: string[] | null;
  /** --fail-on-partial or STAYS_FAIL_ON_PARTIAL=1: exit 7 after printing when a platform leg failed. */
  failOnPartial: boolean;
  /** --max-credits N. */
  maxCredits: number | null;
  /** The key's environment from its prefix: sandbox calls are free (no cost guard). */
  keyEnv: 'sandbox' | 'live';
  /** Where the key came from, for messages: a flag, the environment, the config, or the local sandbox key. */
  keySource: 'flag' | 'env' | 'config' | 'local' | null;
  profileName: string;
  /** Where the base URL came from (remote mode), for messages; null in-process. */
  baseSource: 'flag' | 'env' | 'config' | null;
  /** The service root (remote) or the data directory (in-process). */
  base: string;
  /** Errors as one-line JSON envelopes on stderr. */
  jsonErrors: boolean;
  wait: boolean;
  timeoutMs: number;
  ui: WaitUi;
  client: StaysClient;
  /** In-process on PostgreSQL (STAYS_DATABASE_URL): the database as a user recognises it (no password); else null. */
  sharedStore: string | null;
  /** The in-process transport, when there is no base URL: live jobs then run in this very process. */
  inProcess: InProcessTransport | null;
  close(): Promise<void>;
}

export const redact = (key: string) => `${key.slice(0, key.startsWith('stay_') ? 10 : 3)}…(redacted)`;

/** What a user may see of a key: the 14 characters `stays admin` lists keys by (stay_test_AbC1…), never the secret part. */
export function keyPrefix(key: string): string {
  return /^(stay|sk)_(test|live)_[A-Za-z0-9]{20,}$/.test(key) ? `${key.slice(0, 14)}…` : redact(key);
}

function debugLine(e: RequestEvent): string {
  const parts = [`${e.method} ${e.url}`, e.status === null ? `failed: ${e.error}` : `→ ${e.status}`, `${e.ms} ms`];
  if (e.requestId) parts.push(e.requestId);
  if (e.rateLimit) parts.push(`ratelimit ${e.rateLimit.remaining}/${e.rateLimit.limit} reset ${e.rateLimit.reset}`);
  if (e.creditsCharged !== null) parts.push(`credits ${e.creditsCharged}`);
  if (e.attempt > 1) parts.push(`attempt ${e.attempt}`);
  return `stays debug: ${parts.join(' · ')}\n`;
}

function parseFields(list: string): string[] {
  const fields = list
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0 || fields.some((f) => !/^[A-Za-z_][\w.]*$/.test(f))) {
    // Commander gives --json the next word when it has none: often an argument (a booking slug).
    throw new UsageError(
      `--json takes a comma list of field names, e.g. --json name,platform,guestRating (got ${JSON.stringify(list)}). If that was an argument, put --json after the arguments, or write --json=FIELDS.`,
      'json',
    );
  }
  return fields;
}

function parseMaxCredits(v: string | undefined): number | null {
  if (v === undefined) return null;
  if (!/^\d+$/.test(v.trim())) throw new UsageError(`--max-credits must be a whole number of credits, e.g. --max-credits 200 (got ${JSON.stringify(v)}).`, 'max-credits');
  return Number(v);
}

/**
 * --json and --jq print JSON (or jq's strings), so an explicit -o of another format beside them
 * asks for two outputs at once: refused (exit 2) rather than one silently winning. -o json with
 * either agrees and passes; a profile's default output is a default, which the flags override.
 */
function checkOutputFlags(opts: GlobalOpts): void {
  const o = opts.output;
  if (o === undefined || o === 'json') return;
  const lines = o === 'jsonl' ? ' (off a terminal each value is one line already)' : '';
  if (opts.jq !== undefined) {
    const how =
      o === 'csv' || o === 'tsv' ? `, or let jq make the ${o.toUpperCase()}: --jq '.data[] | [.id, .name] | @${o}'` : o === 'jsonl' ? `, and give jq one value a row: --jq '.data[]'${lines}` : '';
    throw new UsageError(`--jq prints what the expression outputs, so it cannot also print -o ${o}: drop -o ${o}${how}.`, 'output');
  }
  if (opts.json === true) throw new UsageError(`--json is -o json (the whole envelope), so it cannot also be -o ${o}: give one of them.`, 'output');
  if (typeof opts.json === 'string') {
    const cells = `[${opts.json
      .split(',')
      .map((f) => `.${f.trim()}`)
      .join(', ')}] | @${o}`;
    const how =
      o === 'csv' || o === 'tsv'
        ? `, or let jq format them: --json ${opts.json} --jq '.[] | ${cells}' (rows), '${cells}' (one object)`
        : o === 'jsonl'
          ? `, and add --jq '.[]' for one row a line`
          : '';
    throw new UsageError(`--json ${opts.json} prints those fields as JSON, so it cannot also print -o ${o}: drop -o ${o}${how}.`, 'output');
  }
}

/** `newProfile`: the profile may not exist yet (`stays auth login` creates it once the key is checked). */
export async function createContext(opts: GlobalOpts, env: NodeJS.ProcessEnv = io().env, o: { newProfile?: boolean } = {}): Promise<Ctx> {
  checkOutputFlags(opts);
  const term = makeTerm({ color: opts.color, input: opts.input }, env);
  const profileName = opts.profile || 'default';
  const unknown = o.newProfile ? null : unknownProfile(profileName, env);
  if (unknown !== null) throw new UsageError(unknown, 'profile');
  const profile = readProfile(profileName, env);
  const fields = typeof opts.json === 'string' ? parseFields(opts.json) : null;
  if (fields !== null || opts.jq !== undefined) await (await import('../output/select.js')).checkSelection(fields, opts.jq ?? null);
  const format = (opts.json === true ? 'json' : (opts.output ?? profile.output ?? (term.outTTY ? 'table' : 'tsv'))) as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`output must be one of ${FORMATS.join(', ')} (config has ${JSON.stringify(format)}).`, 'output');
  const timeoutMs = parseDuration(opts.timeout ?? profile.timeout ?? '300s') * 1000;
  const debug = opts.debug === true || env.STAYS_DEBUG === '1';

  const baseUrl = opts.baseUrl ?? profile['base-url'];
  const dataDir = opts.dataDir ?? env.STAYS_DATA_DIR ?? profile['data-dir'];
  // In-process, the command delivers its jobs' webhook events before exiting, within --timeout.
  const transport: Transport = baseUrl ? remoteTransport({ baseUrl }) : inProcessTransport({ dataDir, deliverMs: timeoutMs, config: runtimeSettings(profile, env) as Partial<Config>, env });
  let apiKey = opts.apiKey ?? profile['api-key'];
  // commander fills opts.apiKey from STAYS_API_KEY too; tell the two apart for messages.
  let keySource: Ctx['keySource'] = opts.apiKey !== undefined ? (env.STAYS_API_KEY === opts.apiKey ? 'env' : 'flag') : apiKey ? 'config' : null;
  const databaseUrl = transport.kind === 'in-process' ? env.STAYS_DATABASE_URL || undefined : undefined;
  const sharedStore = databaseUrl ? await storeLabel({ databaseUrl, dataDir: '' }) : null;
  if (!apiKey && transport.kind === 'in-process') {
    const local = await localKey(transport as InProcessTransport, profileName);
    if (local !== null) {
      apiKey = local;
      keySource = 'local';
    }
  }
  if (debug) {
    // In-process, the store it runs on (the local SQLite store or the PostgreSQL database).
    const where =
      transport.kind === 'in-process'
        ? `in-process on ${sharedStore ?? (await storeLabel({ dataDir: dataDir ?? (await import('../../../src/config.js')).defaultDataDir() }))}`
        : `remote ${transport.base}`;
    io().stderr.write(`stays debug: ${where} · profile ${profileName} · key ${apiKey ? redact(apiKey) : '(none)'}\n`);
  }

  const ui = createWaitUi(term);
  const streams = io();
  const client = createClient({
    transport,
    apiKey,
    timeoutMs,
    userAgent: `stays-cli/${pkg.version}`,
    onRequest: debug ? (e) => streams.stderr.write(debugLine(e)) : undefined,
    onWait: (e) => ui.onWait(e),
    onRetry: (e) => ui.onRetry(e),
  });
  return {
    term,
    format,
    fields,
    jq: opts.jq ?? null,
    projection: null,
    failOnPartial: opts.failOnPartial === true || /^(1|true|yes)$/i.test(env.STAYS_FAIL_ON_PARTIAL ?? ''),
    maxCredits: parseMaxCredits(opts.maxCredits),
    keyEnv: /^(stay|sk)_test_/.test(apiKey ?? '') ? 'sandbox' : 'live',
    keySource,
    profileName,
    baseSource: opts.baseUrl !== undefined ? (env.STAYS_BASE_URL === opts.baseUrl ? 'env' : 'flag') : baseUrl ? 'config' : null,
    base: transport.base,
    jsonErrors: opts.json !== undefined || opts.jq !== undefined || format === 'json' || format === 'jsonl',
    wait: opts.wait !== false,
    timeoutMs,
    ui,
    client,
    sharedStore,
    inProcess: transport.kind === 'in-process' ? (transport as InProcessTransport) : null,
    close: async () => {
      ui.stop();
      await client.close();
    },
  };
}
