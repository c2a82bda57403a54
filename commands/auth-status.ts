// What `stays auth status` (and `stays whoami`) reports: the mode and where it points, the profile,
// the config file, the key (a prefix, never the key) and where it came from, and the account
// behind it as GET /v1/account sees it. The status is printed even when the key is missing or
// refused, then the error, in CLI words, with exit code 4.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Account } from '../src/core/schemas/resources.js';
import { configFile, readProfile } from './_lib/config/profiles.js';
import { keyOwner, localKeyIndex, storeLabel, storeOf } from './_lib/config/local-key.js';
import { type Ctx, keyPrefix } from './_lib/runtime/context.js';
import type { GlobalOpts } from './_lib/flags/options.js';
import { chalkAt } from './_lib/runtime/term.js';
import { io } from './_lib/runtime/io.js';

type Source = NonNullable<Ctx['keySource']>;

interface AuthStatus {
  mode: 'in-process' | 'remote';
  /** Remote: the service root, and which setting gave it. */
  baseUrl: string | null;
  baseUrlFrom: 'flag' | 'env' | 'config' | null;
  /** In-process on the local SQLite store: its data directory (null on PostgreSQL). */
  dataDir: string | null;
  /** In-process: the store the command runs on (the PostgreSQL URL without its password); null remote. */
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string } | null;
  profile: string;
  configFile: string;
  configFileExists: boolean;
  /** null when no key is set (remote mode). */
  key: { prefix: string; env: 'live' | 'sandbox'; from: Source; id: string | null } | null;
  /** null when the account could not be read (no key, a refused key, no server). */
  account: {
    /** null in remote mode: GET /v1/account does not report it. */
    id: string | null;
    plan: Account['plan'];
    credits: Account['credits'];
    rateLimit: Account['rateLimit'];
  } | null;
  authenticated: boolean;
}

/**
 * The key createContext chose, found the same way (flag or STAYS_API_KEY, the profile, the local
 * sandbox key of the data dir); the context keeps only where it came from.
 */
function keyInUse(ctx: Ctx, opts: GlobalOpts, dataDir: string | null): string | null {
  if (ctx.keySource === null) return null;
  const profile = readProfile(ctx.profileName);
  if (ctx.keySource === 'local') return (dataDir !== null ? profile.localKeys?.[dataDir]?.key : undefined) ?? null;
  return opts.apiKey ?? profile['api-key'] ?? null;
}

const FROM: Record<Source, string> = {
  flag: 'from --api-key',
  env: 'from STAYS_API_KEY',
  config: 'from the config',
  local: 'the local key made for this data directory',
};
const BASE_FROM = { flag: '--base-url', env: 'STAYS_BASE_URL', config: 'the config' } as const;

async function gather(ctx: Ctx, opts: GlobalOpts): Promise<{ status: AuthStatus; error: unknown; config: { databaseUrl?: string; dataDir: string } | null }> {
  const rt = ctx.inProcess ? await ctx.inProcess.runtime() : null;
  const onPostgres = rt?.config.databaseUrl !== undefined;
  const dataDir = rt && !onPostgres ? resolve(rt.config.dataDir) : null;
  const store: AuthStatus['store'] = rt ? await storeOf(rt.config) : null;
  const file = configFile();
  const key = keyInUse(ctx, opts, rt ? await localKeyIndex(rt.config) : null);
  const status: AuthStatus = {
    mode: rt ? 'in-process' : 'remote',
    baseUrl: rt ? null : ctx.base,
    baseUrlFrom: ctx.baseSource,
    dataDir,
    store,
    profile: ctx.profileName,
    configFile: file,
    configFileExists: existsSync(file),
    key: key !== null && ctx.keySource !== null ? { prefix: keyPrefix(key), env: ctx.keyEnv, from: ctx.keySource, id: null } : null,
    account: null,
    authenticated: false,
  };
  let acct: Account;
  try {
    acct = (await ctx.client.account()).data;
  } catch (e) {
    return { status, error: e, config: rt?.config ?? null };
  }
  let ids = { account: null as string | null, key: null as string | null };
  if (rt && key !== null) {
    // In-process the store is at hand: the account and key ids behind the key.
    ids = await keyOwner(rt, key);
  }
  status.authenticated = true;
  if (status.key) status.key = { ...status.key, env: acct.key.env, id: ids.key };
  status.account = { id: ids.account ?? acct.id ?? null, plan: acct.plan, credits: acct.credits, rateLimit: acct.rateLimit };
  return { status, error: null, config: rt?.config ?? null };
}

const n = (v: number) => v.toLocaleString('en-US');

async function human(ctx: Ctx, s: AuthStatus, rt: { databaseUrl?: string; dataDir: string } | null): Promise<string> {
  const c = await chalkAt(ctx.term.outColor);
  const profileFlag = s.profile === 'default' ? '' : ` --profile ${s.profile}`;
  const rows: [string, string][] = [];
  if (s.mode === 'remote') {
    rows.push(['Mode', `remote: ${s.baseUrl} (base URL from ${s.baseUrlFrom ? BASE_FROM[s.baseUrlFrom] : 'the config'})`]);
  } else {
    rows.push(['Mode', `in-process on ${await storeLabel(rt!)} ${c.dim(`(no base URL set; for a server: stays config set base-url URL${profileFlag})`)}`]);
  }
  rows.push(['Profile', s.profile]);
  rows.push(['Config', `${s.configFile}${s.configFileExists ? '' : c.dim(' (not created yet)')}`]);
  rows.push(['Key', s.key ? `${s.key.prefix} (${s.key.env}, ${FROM[s.key.from]})${s.key.id ? c.dim(` ${s.key.id}`) : ''}` : c.red('none')]);
  if (s.account) {
    const a = s.account;
    rows.push(['Account', a.id ?? c.dim('(the server does not report account ids)')]);
    rows.push(['Plan', `${a.plan.name} (${a.plan.code}, ${a.plan.status})`]);
    rows.push([
      'Credits',
      `${n(a.credits.available)} available ${c.dim(`(${n(a.credits.balance)} balance, ${n(a.credits.held)} held)`)}${s.key?.env === 'sandbox' ? c.dim('; sandbox calls are free') : ''}`,
    ]);
    rows.push(['Rate limit', `${n(a.rateLimit.requestsPerMinute)} requests per minute`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  return rows.map(([k, v]) => `${c.bold(`${k}:`.padEnd(width))}${v}\n`).join('');
}

export async function authStatus(ctx: Ctx, opts: GlobalOpts): Promise<void> {
  const { status, error, config } = await gather(ctx, opts);
  if (ctx.fields !== null || ctx.jq !== null) {
    const { printSelected } = await import('./_lib/output/select.js');
    // --json FIELDS picks fields of the status object; --jq alone sees the whole object.
    await printSelected(ctx.fields !== null ? { data: status } : (status as unknown as { data: unknown }), { fields: ctx.fields, jq: ctx.jq }, ctx.term);
  } else if (ctx.format === 'json' || ctx.format === 'jsonl') {
    const { jsonText } = await import('./_lib/runtime/io.js');
    io().stdout.write(jsonText(status, ctx.format === 'json' && ctx.term.outTTY));
  } else {
    io().stdout.write(await human(ctx, status, config));
  }
  // execute() reports it (a 401 in CLI words: which setting is missing or refused, how to set it).
  if (error !== null) throw error;
}
