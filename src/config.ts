// The only reader of process.env. Everything configurable is validated here once.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import envPaths from 'env-paths';
import { type Config, ConfigSchema } from './core/settings.js';

export type { Config };

/** A setting (environment variable or option) that cannot be used; the CLI exits 2 with it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function defaultDataDir(): string {
  return envPaths('stays', { suffix: '' }).data;
}

/**
 * `flags` names the command-line option an override came from (`{ databaseUrl: '--database-url' }`),
 * so an invalid value is reported under the name the user typed, not the environment variable's.
 */
export function loadConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env, flags: Partial<Record<keyof Config, string>> = {}): Config {
  const parsed = ConfigSchema.safeParse({
    dataDir: overrides.dataDir ?? env.STAYS_DATA_DIR ?? defaultDataDir(),
    databaseUrl: overrides.databaseUrl ?? (env.STAYS_DATABASE_URL || undefined),
    databasePoolMax: overrides.databasePoolMax ?? env.STAYS_DATABASE_POOL_MAX ?? 10,
    databaseQueueMax: overrides.databaseQueueMax ?? env.STAYS_DATABASE_QUEUE_MAX ?? 1000,
    databaseQueueTimeoutMs: overrides.databaseQueueTimeoutMs ?? env.STAYS_DATABASE_QUEUE_TIMEOUT_MS ?? 5_000,
    docsUrl: overrides.docsUrl ?? (env.STAYS_DOCS_URL || shippedDocsUrl()),
    logLevel: overrides.logLevel ?? env.STAYS_LOG_LEVEL ?? 'info',
    freeTierBudget: overrides.freeTierBudget ?? env.STAYS_FREE_TIER_BUDGET ?? 300,
    anonymousRpm: overrides.anonymousRpm ?? env.STAYS_ANON_RPM ?? 600,
    upstream: overrides.upstream ?? (env.STAYS_UPSTREAM || 'none'),
    simLatency: overrides.simLatency ?? env.STAYS_SIM_LATENCY_MS,
    simFail: overrides.simFail ?? env.STAYS_SIM_FAIL,
    sourceDeadlineMs: overrides.sourceDeadlineMs ?? env.STAYS_SOURCE_DEADLINE_MS ?? 120_000,
    jobLeaseMs: overrides.jobLeaseMs ?? env.STAYS_JOB_LEASE_MS ?? 30_000,
    shutdownGraceMs: overrides.shutdownGraceMs ?? env.STAYS_SHUTDOWN_GRACE_MS ?? 10_000,
    memoryCacheMb: overrides.memoryCacheMb ?? env.STAYS_MEMORY_CACHE_MB ?? 64,
    heapGrowthPercent: overrides.heapGrowthPercent ?? env.STAYS_HEAP_GROWTH_PERCENT ?? 100,
    topupMaxPerDay: overrides.topupMaxPerDay ?? env.STAYS_TOPUP_MAX_PER_DAY ?? 0,
    secretKey: overrides.secretKey ?? (env.STAYS_SECRET_KEY || undefined),
    webhookPrivateTargets: overrides.webhookPrivateTargets ?? privateTargets(env.STAYS_WEBHOOK_DENY_PRIVATE),
    listenHost: overrides.listenHost,
    webhookTimeoutMs: overrides.webhookTimeoutMs ?? env.STAYS_WEBHOOK_TIMEOUT_MS ?? 10_000,
    webhookDisableAfter: overrides.webhookDisableAfter ?? env.STAYS_WEBHOOK_DISABLE_AFTER ?? 20,
    webhookRetryDelaysMs: overrides.webhookRetryDelaysMs?.join(',') ?? (env.STAYS_TEST_WEBHOOK_RETRY_MS || undefined),
    sSyncWaitMs: overrides.sSyncWaitMs ?? env.STAYS_S_SYNC_WAIT_MS ?? 60_000,
    publicUrl: overrides.publicUrl ?? (env.STAYS_PUBLIC_URL || undefined),
    oauthAccessTtlS: overrides.oauthAccessTtlS ?? env.STAYS_OAUTH_ACCESS_TTL_S ?? 3600,
    oauthRegisterPerHour: overrides.oauthRegisterPerHour ?? env.STAYS_OAUTH_REGISTER_PER_HOUR ?? 20,
    headersTimeoutMs: overrides.headersTimeoutMs ?? env.STAYS_HEADERS_TIMEOUT_MS ?? 15_000,
    maxConnectionsPerAddress: overrides.maxConnectionsPerAddress ?? env.STAYS_MAX_CONNECTIONS_PER_ADDRESS ?? 1024,
    apifyToken: overrides.apifyToken ?? (env.STAYS_APIFY_TOKEN || undefined),
    apifyBaseUrl: overrides.apifyBaseUrl ?? (env.STAYS_APIFY_BASE_URL || 'https://api.apify.com'),
    actors: overrides.actors ?? (env.STAYS_ACTORS || undefined),
    apifyRetries: overrides.apifyRetries ?? env.STAYS_APIFY_RETRIES ?? 2,
    docsUrlFixed: overrides.docsUrlFixed ?? Boolean(overrides.docsUrl ?? env.STAYS_DOCS_URL),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
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
      simLatency: 'STAYS_SIM_LATENCY_MS',
      simFail: 'STAYS_SIM_FAIL',
      sourceDeadlineMs: 'STAYS_SOURCE_DEADLINE_MS',
      jobLeaseMs: 'STAYS_JOB_LEASE_MS',
      shutdownGraceMs: 'STAYS_SHUTDOWN_GRACE_MS',
      memoryCacheMb: 'STAYS_MEMORY_CACHE_MB',
      heapGrowthPercent: 'STAYS_HEAP_GROWTH_PERCENT',
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
    const key = String(issue.path[0]);
    const flag = overrides[key as keyof Config] !== undefined ? flags[key as keyof Config] : undefined;
    throw new ConfigError(`invalid ${flag ? `option ${flag}` : `setting ${names[key] ?? key}`}: ${issue.message}`);
  }
  return parsed.data;
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
