// Every setting of the service and what each may be: the environment variables and options
// src/config.ts reads (the only reader of process.env) are validated against these schemas once.
// The core's operations read them through Services.config.
import { z } from 'zod';

/**
 * Each setting's schema, made when a value of it is checked (parseSettings): building all of
 * them took a share of every CLI start, for values that are mostly the defaults.
 */
/** The calendar families STAYS_SIM_CALENDARS may name (src/sources/sandbox/calendar-families.ts, FAMILIES; a test keeps them equal). */
export const SIM_FAMILIES = ['notice', 'prep', 'owner', 'maintenance', 'direct', 'window', 'longLead', 'cancel', 'weekly', 'snooze', 'minStay'] as const;

const FIELDS = {
  dataDir: () => z.string().min(1),
  /**
   * STAYS_DATABASE_URL (or --database-url): a postgres:// URL selects PostgreSQL, shared by every
   * instance pointed at it (docs/deploy.md); unset, the SQLite file in the data directory.
   */
  databaseUrl: () =>
    z
      .string()
      .refine((u) => /^postgres(ql)?:\/\/./i.test(u) && URL.canParse(u), 'must be a postgres:// or postgresql:// URL')
      .refine(sslmodeKnown, "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full (libpq's values; docs/deploy.md)")
      .optional(),
  /** Connections one instance keeps open to PostgreSQL at most. */
  databasePoolMax: () => z.coerce.number().int().min(1).max(1000),
  /** Requests that may wait for one of those connections before new work is refused with 503 service_overloaded. */
  databaseQueueMax: () => z.coerce.number().int().min(0).max(100_000),
  /** How long a request waits for a database connection at most before 503 service_overloaded. */
  databaseQueueTimeoutMs: () => z.coerce.number().int().min(100).max(600_000),
  /** Base of every docUrl: STAYS_DOCS_URL, else the documentation shipped with the package (a file: URL). */
  docsUrl: () => z.string().url(),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  freeTierBudget: () => z.coerce.number().int().min(0),
  /** Requests per minute for callers without a valid key, per client address. */
  anonymousRpm: () => z.coerce.number().int().min(1),
  /** Where live data comes from: none (live calls get 503), the simulated upstream, or the scraping platform's actors (apify). */
  upstream: () => z.enum(['none', 'simulated', 'apify']),
  /**
   * STAYS_NOW (issue 26): the service's clock starts at this instant and runs on from there, for
   * demos and tests of the history against the simulated upstream; never with a real upstream.
   */
  now: () =>
    z
      .string()
      .refine(
        (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
        'must be an ISO 8601 date-time with its offset, e.g. 2027-01-01T00:00:00Z',
      )
      .optional(),
  /** STAYS_SIM_LATENCY_MS: `2000` or `airbnb=3000,booking=500`. */
  simLatency: () => z.string().optional(),
  /** STAYS_SIM_FAIL: `vrbo=all_actors_failed,booking=actor_timeout`. */
  simFail: () => z.string().optional(),
  /**
   * STAYS_SIM_CALENDARS: the simulated upstream's calendars and reviews: `moving` (the moving
   * world's, the default) or `families[:SEED[:FAMILIES]]` (the calendar families of issue 37; SEED
   * 0 unless given; FAMILIES: a comma-separated list of them on every listing, or none; without
   * it each listing draws each family with even odds).
   */
  simCalendars: () =>
    z
      .string()
      .regex(
        new RegExp(`^(moving|families(:\\d{1,9}(:(none|(${SIM_FAMILIES.join('|')})(,(${SIM_FAMILIES.join('|')}))*))?)?)$`),
        `must be moving, families, families:SEED or families:SEED:FAMILIES (SEED a whole number of at most 9 digits; FAMILIES none or a comma-separated list of ${SIM_FAMILIES.join(', ')})`,
      )
      .optional(),
  /** Deadline of one upstream source call. */
  sourceDeadlineMs: () => z.coerce.number().int().min(1),
  /** How long a job's owner may go without renewing its lease before another process takes the job over. */
  jobLeaseMs: () => z.coerce.number().int().min(500).max(3_600_000),
  /** On SIGTERM/SIGINT, how long running jobs may take to finish before they are failed (retryable). */
  shutdownGraceMs: () => z.coerce.number().int().min(0).max(3_600_000),
  /**
   * STAYS_ANALYTICS_BUDGET_MS: how long one analytic read (GET /v1/market) may compute before it
   * stops with analysis_too_large; it yields the event loop throughout, so other calls go on.
   */
  analyticsBudgetMs: () => z.coerce.number().int().min(1).max(600_000),
  /** Bytes (in MiB) the in-memory caches of one process may hold. */
  memoryCacheMb: () => z.coerce.number().int().min(1).max(65_536),
  /**
   * `stays serve` only: how far V8 lets the old generation grow past its live size before a full
   * collection, in percent (0: V8's own choice, up to 4x). See docs/decisions.md (memory).
   */
  heapGrowthPercent: () => z.coerce.number().int().min(0).max(400),
  /** STAYS_HISTORY: whether the live path records what upstreams answered (issue 26); off: nothing is recorded. */
  history: () => z.enum(['on', 'off']),
  /**
   * STAYS_HISTORY_SCOPE (issue 35, item 5): what a live key's history reads. account: what its own
   * account's calls observed; deployment: every account's calendars, listing facts and ratings
   * pooled, but only its own account's searches and quotes (their keys are other accounts' queries).
   */
  historyScope: () => z.enum(['account', 'deployment']),
  /** STAYS_HISTORY_DAYS: how long an observation is kept after it was last seen. */
  historyDays: () => z.coerce.number().int().min(1).max(36_500),
  /** Credits one account may top up per UTC day with a live key (0: top-ups refused, D24). */
  topupMaxPerDay: () => z.coerce.number().int().min(0),
  /**
   * The server key that encrypts webhook signing secrets at rest: 32 bytes as 64 hex digits or
   * base64. Unset: generated into the data directory (secret.key, 0600) on first use.
   */
  secretKey: () => z.string().optional(),
  /**
   * STAYS_WEBHOOK_DENY_PRIVATE: whether loopback, private and link-local webhook targets are
   * refused (SSRF). auto (unset): refused whenever the server is reachable from other hosts (it
   * listens on a non-loopback address, or publicUrl is set); deny (1): always; allow (0): never.
   */
  webhookPrivateTargets: () =>
    z.enum(['auto', 'deny', 'allow'], {
      message: 'must be 1 (refuse private targets), 0 (allow them) or auto (unset: refuse them when the server is reachable from other hosts)',
    }),
  /**
   * The address `stays serve` listens on (set by the server, not from the environment): whether
   * the server can be reached from other hosts. Unset: it listens nowhere (the in-process CLI).
   */
  listenHost: () => z.string().min(1).optional(),
  /** How long one webhook delivery attempt may take before it counts as failed. */
  webhookTimeoutMs: () => z.coerce.number().int().min(100).max(120_000),
  /**
   * STAYS_TEST_WEBHOOK_RETRY_MS, for the test suite only (not an operator setting, not in the
   * help): the waits before a failed delivery's 2nd and 3rd attempts, `AFTER_1ST,AFTER_2ND` in ms,
   * so tests through a real process do not sit out the spec's 1 s and 6 s. Unset: the spec's.
   */
  webhookRetryDelaysMs: () =>
    z
      .string()
      .regex(/^\d{1,7},\d{1,7}$/, 'must be two waits in ms, e.g. 50,300')
      .transform((v) => v.split(',').map(Number))
      .optional(),
  /** Failed delivery attempts in a row after which a webhook is disabled (issue 21). */
  webhookDisableAfter: () => z.coerce.number().int().min(1).max(100_000),
  /**
   * How long a Family S lookup or sub-resource waits for its live job before it answers 202 with
   * the job instead (nothing is lost or charged twice). Batch, presets and searches up to 240 rows
   * always wait for their job to end.
   */
  sSyncWaitMs: () => z.coerce.number().int().min(0).max(300_000),
  /**
   * The public origin (and optional path prefix) clients reach the server at, e.g.
   * https://stays.example.com: the OAuth issuer and every URL of its metadata, and docUrls. Unset:
   * the server's own address, never the Host header (src/oauth/urls.ts); a server listening on a
   * non-loopback address then serves no OAuth (public_url_required).
   */
  publicUrl: () =>
    z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  /** Lifetime of an OAuth access token for the MCP server, in seconds (refresh tokens: 30 days). */
  oauthAccessTtlS: () => z.coerce.number().int().min(1).max(86_400),
  /** `stays serve`: how long a connection may take to send a request's headers before a 408 and close. */
  headersTimeoutMs: () => z.coerce.number().int().min(100).max(300_000),
  /** `stays serve`: connections one client address may hold open at once (0: no cap); behind a proxy, the proxy's. */
  maxConnectionsPerAddress: () => z.coerce.number().int().min(0).max(1_000_000),
  /** OAuth dynamic client registrations one address may make per hour (counted in the store, so across instances). */
  oauthRegisterPerHour: () => z.coerce.number().int().min(1).max(1_000_000),
  /** STAYS_APIFY_TOKEN: the scraping platform's API token (STAYS_UPSTREAM=apify). Never logged. */
  apifyToken: () => z.string().min(1).optional(),
  /** STAYS_APIFY_BASE_URL: the platform's API root, without /v2 (tests point it at a local fake). */
  apifyBaseUrl: () =>
    z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, '').replace(/\/v2$/, '')),
  /** STAYS_ACTORS: JSON (or a JSON file's path) of platform -> need -> actor ids, over the defaults (src/sources/apify/actors.ts). */
  actors: () => z.string().optional(),
  /** STAYS_APIFY_RETRIES: the client's retries of a 429, 5xx or network error before a source fails. */
  apifyRetries: () => z.coerce.number().int().min(0).max(8),
  /**
   * Whether STAYS_DOCS_URL was set. Unset, `stays serve` points docUrls at its own /docs (the
   * public URL, else the request's origin) and in-process answers at the shipped docs.
   */
  docsUrlFixed: () => z.boolean(),
} satisfies Record<string, () => z.ZodType>;

type Shape = { [K in keyof typeof FIELDS]: ReturnType<(typeof FIELDS)[K]> };
export type Config = z.infer<z.ZodObject<Shape>>;

/** The first problem of a value, under its setting's key. */
export interface SettingIssue {
  key: keyof Config;
  message: string;
}

/**
 * The raw settings (every key of Config, in any form the environment gives) validated and
 * converted, as one schema of them all would: a value identical to its entry in `defaults`
 * (which test/core checks are valid and unchanged by their schema) is taken as it is, every other
 * value is checked, and the first problem in Config's key order is reported.
 */
export function parseSettings(raw: Record<keyof Config, unknown>, defaults: Partial<Config>): { ok: true; config: Config } | { ok: false; issue: SettingIssue } {
  const keys = Object.keys(FIELDS) as (keyof Config)[];
  const shape: Partial<Record<keyof Config, z.ZodType>> = {};
  for (const k of keys) if (!(k in defaults && Object.is(raw[k], defaults[k]))) shape[k] = FIELDS[k]();
  const parsed = z.object(shape).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, issue: { key: issue.path[0] as keyof Config, message: issue.message } };
  }
  const checked = parsed.data as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const k of keys) config[k] = k in shape ? checked[k] : raw[k];
  return { ok: true, config: config as Config };
}

/** libpq's sslmode values (src/store/postgres/ssl.ts maps them), and the pg driver's no-verify. */
function sslmodeKnown(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const mode = new URL(url).searchParams.get('sslmode');
  return mode === null || ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'].includes(mode);
}
