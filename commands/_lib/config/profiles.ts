// The CLI's settings file (conf): named profiles of base-url, api-key, data-dir, output and
// timeout, plus the sandbox keys provisioned for local data directories. Every data command reads
// it, so reads are a plain JSON parse of the file conf writes (loading conf itself costs tens of
// milliseconds of start-up); writes go through conf (atomic, file mode 0600 since keys are secrets).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { io } from '../runtime/io.js';

export const CONFIG_KEYS = {
  'base-url': 'service root for remote mode, e.g. http://127.0.0.1:8787',
  'api-key': 'API key (stay_test_… or stay_live_…)',
  'data-dir': 'data directory for in-process mode',
  output: 'default output: table, tsv, json, jsonl or csv',
  timeout: 'default wait bound for jobs, e.g. 300s or 5m',
  upstream: 'in-process live data: none, simulated or apify (as STAYS_UPSTREAM)',
  'apify-token': "the scraping platform's API token for upstream apify (as STAYS_APIFY_TOKEN; a secret)",
  'apify-base-url': "the platform's API root (as STAYS_APIFY_BASE_URL)",
  actors: "platform → need → actor ids, JSON or a JSON file's path (as STAYS_ACTORS)",
} as const;

/** Settings a profile may hold for the in-process runtime, and the variable each stands for. */
const RUNTIME_KEYS = [
  ['upstream', 'STAYS_UPSTREAM', 'upstream'],
  ['apify-token', 'STAYS_APIFY_TOKEN', 'apifyToken'],
  ['apify-base-url', 'STAYS_APIFY_BASE_URL', 'apifyBaseUrl'],
  ['actors', 'STAYS_ACTORS', 'actors'],
] as const;

/**
 * The profile's upstream settings as runtime config overrides, for in-process commands and
 * `stays doctor`. The environment wins over the profile, as it does for every setting.
 */
export function runtimeSettings(profile: Profile, env: NodeJS.ProcessEnv = io().env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, variable, field] of RUNTIME_KEYS) {
    const v = profile[key];
    if (v !== undefined && !env[variable]) out[field] = v;
  }
  return out;
}

export type ConfigKey = keyof typeof CONFIG_KEYS;

export interface LocalKey {
  key: string;
  keyId: string;
  accountId: string;
}

export type Profile = Partial<Record<ConfigKey, string>> & {
  /** Sandbox keys auto-provisioned for in-process mode, by absolute data directory. */
  localKeys?: Record<string, LocalKey>;
};

interface ConfigFile {
  profiles?: Record<string, Profile>;
}

const CONFIG_NAME = 'config';

/** STAYS_CONFIG_DIR (tests, several setups side by side) or the user config dir. */
function configDir(env: NodeJS.ProcessEnv = io().env): string {
  return env.STAYS_CONFIG_DIR || envPaths('stays', { suffix: 'nodejs' }).config;
}

export const configFile = (env: NodeJS.ProcessEnv = io().env) => join(configDir(env), `${CONFIG_NAME}.json`);

export function isConfigKey(k: string): k is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, k);
}

/** The profile's own settings, without what it inherits from the default profile. */
export function readOwnProfile(name: string, env: NodeJS.ProcessEnv = io().env): Profile {
  try {
    return (JSON.parse(readFileSync(configFile(env), 'utf8')) as ConfigFile).profiles?.[name] ?? {};
  } catch {
    return {};
  }
}

/** The profile's settings (over the default profile's), read without loading conf; {} when there is no file yet. */
export function readProfile(name: string, env: NodeJS.ProcessEnv = io().env): Profile {
  let text: string;
  try {
    text = readFileSync(configFile(env), 'utf8');
  } catch {
    return {};
  }
  let profiles: ConfigFile['profiles'];
  try {
    profiles = (JSON.parse(text) as ConfigFile).profiles;
  } catch {
    throw new Error(`The config file ${configFile(env)} is not valid JSON; fix or delete it.`);
  }
  const own = profiles?.[name] ?? {};
  if (name === 'default') return own;
  // A named profile inherits every setting it does not set from the default profile (as an AWS
  // or gh profile does): `config set base-url …` then `config set api-key … --profile prod` is a
  // complete prod profile. Local sandbox keys are per profile and never inherited.
  const { localKeys: _, ...inherited } = profiles?.default ?? {};
  return { ...inherited, ...own };
}

/** The profiles of the config file, with the implicit `default` first (it exists without a file). */
export function profileNames(env: NodeJS.ProcessEnv = io().env): string[] {
  let names: string[] = [];
  try {
    names = Object.keys((JSON.parse(readFileSync(configFile(env), 'utf8')) as ConfigFile).profiles ?? {});
  } catch {}
  return ['default', ...names.filter((n) => n !== 'default').sort()];
}

/** Edit distance counting a swap of two neighbours as one edit (prdo → prod). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Why the named profile cannot be used, or null when it can: `default` always can (a fresh
 * machine has no config file); any other name must be in the file. A typo must not run on
 * another account's settings or leave a profile behind; only `config set` and `auth login`
 * create one (as the AWS CLI does).
 */
export function unknownProfile(name: string, env: NodeJS.ProcessEnv = io().env): string | null {
  if (name === 'default') return null;
  const names = profileNames(env);
  if (names.includes(name)) return null;
  const near = names
    .map((n) => ({ n, d: distance(name.toLowerCase(), n.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d);
  const from = env.STAYS_PROFILE === name ? ' (from STAYS_PROFILE)' : '';
  return `profile ${name}${from} not found; profiles: ${names.join(', ')}.${near.length ? ` Did you mean ${near[0]!.n}?` : ''} Create it with: stays config set KEY VALUE --profile ${name}`;
}

/** The writable store (conf, loaded on demand). */
export async function openConfig(env: NodeJS.ProcessEnv = io().env) {
  const { default: Conf } = await import('conf');
  // Data-directory paths contain dots, so dot-notation access is off; profiles are read and
  // written whole.
  const conf = new Conf<ConfigFile>({ projectName: 'stays', cwd: configDir(env), configName: CONFIG_NAME, configFileMode: 0o600, accessPropertiesByDotNotation: false });
  const profiles = () => conf.get('profiles') ?? {};
  const update = (name: string, change: (p: Profile) => void) => {
    const all = profiles();
    const p = { ...all[name] };
    change(p);
    conf.set('profiles', { ...all, [name]: p });
  };
  return {
    path: conf.path,
    profiles,
    get: (name: string): Profile => profiles()[name] ?? {},
    set: (name: string, key: ConfigKey, value: string) => update(name, (p) => (p[key] = value)),
    unset: (name: string, key: ConfigKey) => update(name, (p) => delete p[key]),
    /** Drops the stored API key; whether there was one. */
    dropKey: (name: string): boolean => {
      if (profiles()[name]?.['api-key'] === undefined) return false;
      update(name, (p) => delete p['api-key']);
      return true;
    },
    saveLocalKey: (name: string, dataDir: string, k: LocalKey) => update(name, (p) => (p.localKeys = { ...p.localKeys, [dataDir]: k })),
  };
}
