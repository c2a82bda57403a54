// The only reader of process.env. Everything configurable is validated here once.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import envPaths from 'env-paths';
import { type Config, parseSettings } from './core/settings.js';

export type { Config };

/** A setting (environment variable or option) that cannot be used; the CLI exits 2 with it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function defaultDataDir(): string {
  return envPaths('stays', { suffix: '' }).data;
}

/**
 * Each setting's value when nothing sets it (the data directory and docs URL are found at run
 * time). parseSettings takes these as they are, unchecked: test/core/config.unit.test.ts checks
 * that each is valid and that its schema leaves it unchanged.
 */
export const DEFAULTS = {
  databaseUrl: undefined,
  databasePoolMax: 10,
  databaseQueueMax: 1000,
  databaseQueueTimeoutMs: 5_000,
  logLevel: 'info',
  freeTierBudget: 300,
  anonymousRpm: 600,
  upstream: 'none',
  now: undefined,
  simLatency: undefined,
  simFail: undefined,
  simCalendars: undefined,
  sourceDeadlineMs: 120_000,
  jobLeaseMs: 30_000,
  shutdownGraceMs: 10_000,
  memoryCacheMb: 64,
  analyticsBudgetMs: 60_000,
  heapGrowthPercent: 100,
  history: 'on',
  historyScope: 'account',
  historyDays: 400,
  topupMaxPerDay: 0,
  secretKey: undefined,
  webhookPrivateTargets: 'auto',
  listenHost: undefined,
  webhookTimeoutMs: 10_000,
  webhookDisableAfter: 20,
  webhookRetryDelaysMs: undefined,
  sSyncWaitMs: 60_000,
  publicUrl: undefined,
  oauthAccessTtlS: 3600,
  oauthRegisterPerHour: 20,
  headersTimeoutMs: 15_000,
  maxConnectionsPerAddress: 1024,
  apifyToken: undefined,
  apifyBaseUrl: 'https://api.apify.com',
  actors: undefined,
  apifyRetries: 2,
  docsUrlFixed: false,
} satisfies Partial<Config>;

/**
 * `flags` names the command-line option an override came from (`{ databaseUrl: '--database-url' }`),
 * so an invalid value is reported under the name the user typed, not the environment variable's.
 */
export function loadConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env, flags: Partial<Record<keyof Config, string>> = {}): Config {
  const parsed = parseSettings(
    {
      dataDir: overrides.dataDir ?? env.STAYS_DATA_DIR ?? defaultDataDir(),
      databaseUrl: overrides.databaseUrl ?? (env.STAYS_DATABASE_URL || undefined),
      databasePoolMax: overrides.databasePoolMax ?? env.STAYS_DATABASE_POOL_MAX ?? DEFAULTS.databasePoolMax,
      databaseQueueMax: overrides.databaseQueueMax ?? env.STAYS_DATABASE_QUEUE_MAX ?? DEFAULTS.databaseQueueMax,
      databaseQueueTimeoutMs: overrides.databaseQueueTimeoutMs ?? env.STAYS_DATABASE_QUEUE_TIMEOUT_MS ?? DEFAULTS.databaseQueueTimeoutMs,
      docsUrl: overrides.docsUrl ?? (env.STAYS_DOCS_URL || shippedDocsUrl()),
      logLevel: overrides.logLevel ?? env.STAYS_LOG_LEVEL ?? DEFAULTS.logLevel,
      freeTierBudget: overrides.freeTierBudget ?? env.STAYS_FREE_TIER_BUDGET ?? DEFAULTS.freeTierBudget,
      anonymousRpm: overrides.anonymousRpm ?? env.STAYS_ANON_RPM ?? DEFAULTS.anonymousRpm,
      upstream: overrides.upstream ?? (env.STAYS_UPSTREAM || DEFAULTS.upstream),
      now: overrides.now ?? (env.STAYS_NOW || undefined),
      simLatency: overrides.simLatency ?? env.STAYS_SIM_LATENCY_MS,
      simFail: overrides.simFail ?? env.STAYS_SIM_FAIL,
      simCalendars: overrides.simCalendars ?? (env.STAYS_SIM_CALENDARS || undefined),
      sourceDeadlineMs: overrides.sourceDeadlineMs ?? env.STAYS_SOURCE_DEADLINE_MS ?? DEFAULTS.sourceDeadlineMs,
      jobLeaseMs: overrides.jobLeaseMs ?? env.STAYS_JOB_LEASE_MS ?? DEFAULTS.jobLeaseMs,
      shutdownGraceMs: overrides.shutdownGraceMs ?? env.STAYS_SHUTDOWN_GRACE_MS ?? DEFAULTS.shutdownGraceMs,
      memoryCacheMb: overrides.memoryCacheMb ?? env.STAYS_MEMORY_CACHE_MB ?? DEFAULTS.memoryCacheMb,
      analyticsBudgetMs: overrides.analyticsBudgetMs ?? env.STAYS_ANALYTICS_BUDGET_MS ?? DEFAULTS.analyticsBudgetMs,
      heapGrowthPercent: overrides.heapGrowthPercent ?? env.STAYS_HEAP_GROWTH_PERCENT ?? DEFAULTS.heapGrowthPercent,
      history: overrides.history ?? (env.STAYS_HISTORY || DEFAULTS.history),
      historyDays: overrides.historyDays ?? env.STAYS_HISTORY_DAYS ?? DEFAULTS.historyDays,
      historyScope: overrides.historyScope ?? (env.STAYS_HISTORY_SCOPE || DEFAULTS.historyScope),
      topupMaxPerDay: overrides.topupMaxPerDay ?? env.STAYS_TOPUP_MAX_PER_DAY ?? DEFAULTS.topupMaxPerDay,
      secretKey: overrides.secretKey ?? (env.STAYS_SECRET_KEY || undefined),
      webhookPrivateTargets: overrides.webhookPrivateTargets ?? privateTargets(env.STAYS_WEBHOOK_DENY_PRIVATE),
      listenHost: overrides.listenHost,
      webhookTimeoutMs: overrides.webhookTimeoutMs ?? env.STAYS_WEBHOOK_TIMEOUT_MS ?? DEFAULTS.webhookTimeoutMs,
      webhookDisableAfter: overrides.webhookDisableAfter ?? env.STAYS_WEBHOOK_DISABLE_AFTER ?? DEFAULTS.webhookDisableAfter,
      webhookRetryDelaysMs: overrides.webhookRetryDelaysMs?.join(',') ?? (env.STAYS_TEST_WEBHOOK_RETRY_MS || undefined),
      sSyncWaitMs: overrides.sSyncWaitMs ?? env.STAYS_S_SYNC_WAIT_MS ?? DEFAULTS.sSyncWaitMs,
      publicUrl: overrides.publicUrl ?? (env.STAYS_PUBLIC_URL || undefined),
      oauthAccessTtlS: overrides.oauthAccessTtlS ?? env.STAYS_OAUTH_ACCESS_TTL_S ?? DEFAULTS.oauthAccessTtlS,
      oauthRegisterPerHour: overrides.oauthRegisterPerHour ?? env.STAYS_OAUTH_REGISTER_PER_HOUR ?? DEFAULTS.oauthRegisterPerHour,
      headersTimeoutMs: overrides.headersTimeoutMs ?? env.STAYS_HEADERS_TIMEOUT_MS ?? DEFAULTS.headersTimeoutMs,
      maxConnectionsPerAddress: overrides.maxConnectionsPerAddress ?? env.STAYS_MAX_CONNECTIONS_PER_ADDRESS ?? DEFAULTS.maxConnectionsPerAddress,
      apifyToken: overrides.apifyToken ?? (env.STAYS_APIFY_TOKEN || undefined),
      apifyBaseUrl: overrides.apifyBaseUrl ?? (env.STAYS_APIFY_BASE_URL || DEFAULTS.apifyBaseUrl),
      actors: overrides.actors ?? (env.STAYS_ACTORS || undefined),
      apifyRetries: overrides.apifyRetries ?? env.STAYS_APIFY_RETRIES ?? DEFAULTS.apifyRetries,
      docsUrlFixed: overrides.docsUrlFixed ?? Boolean(overrides.docsUrl ?? env.STAYS_DOCS_URL),
    },
    DEFAULTS,
  );
  if (!parsed.ok) {
    const issue = parsed.issue;
    const names: Record<string, string> = {
      dataDir: 'STAYS_DATA_DIR',
      databaseUrl: 'STAYS_DATABASE_URL',
      databasePoolMax: 'STAYS_DATABASE_POOL_MAX',
      databaseQueueMax: 'STAYS_DATABASE_QUEUE_MAX',
      databaseQueueTimeoutMs: 'STAYS_DATABASE_QUEUE_TIMEOUT_MS',
      docsUrl: 'STAYS_DOCS_URL',
      logLevel: 'STAYS_LOG_LEVEL',
      freeTierBudget: 'STAYS_FREE_TIER_BUDGET',
      anonymousRpm: 'STAYS_ANON_RPM',
      upstream: 'STAYS_UPSTREAM',
      now: 'STAYS_NOW',
      simLatency: 'STAYS_SIM_LATENCY_MS',
      simFail: 'STAYS_SIM_FAIL',
      simCalendars: 'STAYS_SIM_CALENDARS',
      sourceDeadlineMs: 'STAYS_SOURCE_DEADLINE_MS',
      jobLeaseMs: 'STAYS_JOB_LEASE_MS',
      shutdownGraceMs: 'STAYS_SHUTDOWN_GRACE_MS',
      memoryCacheMb: 'STAYS_MEMORY_CACHE_MB',
      analyticsBudgetMs: 'STAYS_ANALYTICS_BUDGET_MS',
      heapGrowthPercent: 'STAYS_HEAP_GROWTH_PERCENT',
      history: 'STAYS_HISTORY',
      historyDays: 'STAYS_HISTORY_DAYS',
      historyScope: 'STAYS_HISTORY_SCOPE',
      topupMaxPerDay: 'STAYS_TOPUP_MAX_PER_DAY',
      secretKey: 'STAYS_SECRET_KEY',
      webhookPrivateTargets: 'STAYS_WEBHOOK_DENY_PRIVATE',
      webhookTimeoutMs: 'STAYS_WEBHOOK_TIMEOUT_MS',
      webhookDisableAfter: 'STAYS_WEBHOOK_DISABLE_AFTER',
      webhookRetryDelaysMs: 'STAYS_TEST_WEBHOOK_RETRY_MS',
      sSyncWaitMs: 'STAYS_S_SYNC_WAIT_MS',
      publicUrl: 'STAYS_PUBLIC_URL',
      oauthAccessTtlS: 'STAYS_OAUTH_ACCESS_TTL_S',
      oauthRegisterPerHour: 'STAYS_OAUTH_REGISTER_PER_HOUR',
      headersTimeoutMs: 'STAYS_HEADERS_TIMEOUT_MS',
      maxConnectionsPerAddress: 'STAYS_MAX_CONNECTIONS_PER_ADDRESS',
      apifyToken: 'STAYS_APIFY_TOKEN',
      apifyBaseUrl: 'STAYS_APIFY_BASE_URL',
      actors: 'STAYS_ACTORS',
      apifyRetries: 'STAYS_APIFY_RETRIES',
    };
    const key = issue.key;
    const flag = overrides[key as keyof Config] !== undefined ? flags[key as keyof Config] : undefined;
    throw new ConfigError(`invalid ${flag ? `option ${flag}` : `setting ${names[key] ?? key}`}: ${issue.message}`);
  }
  // A clock set to another time is for demos and tests of the simulated world, never for real data.
  if (parsed.config.now !== undefined && parsed.config.upstream === 'apify') {
    throw new ConfigError('invalid setting STAYS_NOW: a clock set to another time cannot be used with a real upstream (STAYS_UPSTREAM=apify); use it with the simulated upstream');
  }
  return parsed.config;
}

/** STAYS_WEBHOOK_DENY_PRIVATE: 1/true/yes/deny, 0/false/no/allow, or unset/auto. Anything else is kept, to be refused. */
function privateTargets(v: string | undefined): string {
  const t = (v ?? '').trim().toLowerCase();
  if (t === '' || t === 'auto') return 'auto';
  if (['1', 'true', 'yes', 'deny'].includes(t)) return 'deny';
  if (['0', 'false', 'no', 'allow'].includes(t)) return 'allow';
  return t;
}

export const databaseFile = (dataDir: string) => join(dataDir, 'stays.db');

/** Whether the process runs in CI (for the CLI's non-interactive defaults). */
export const isCI = (env: NodeJS.ProcessEnv = process.env) => Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');

/**
 * The error and warning reference shipped with the package (errors.md, warnings.md), as a file:
 * URL: dist/docs beside the built bundle, or docs/ of a source checkout.
 */
export function shippedDocsUrl(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const dir = [join(here, 'docs'), join(here, '..', 'docs'), join(here, '..', '..', 'docs')].find((d) => existsSync(join(d, 'errors.md'))) ?? join(here, '..', 'docs');
  return pathToFileURL(dir).href;
}
