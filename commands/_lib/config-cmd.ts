// Validation and printing for `stays config`. A bad key or value is a usage error (exit 2).
import { serviceRoot } from '../../src/client/transport.js';
import { CONFIG_KEYS, type ConfigKey, isConfigKey, readOwnProfile, readProfile, unknownProfile } from './config.js';
import { redact } from './context.js';
import { parseDuration } from './options.js';
import { FORMATS } from './output.js';
import { UsageError } from './errors.js';
import { EXIT, jsonText } from './io.js';

export { openConfig, readProfile } from './config.js';

export function checkKey(key: string): ConfigKey {
  if (!isConfigKey(key)) throw new UsageError(`Unknown setting ${JSON.stringify(key)}; one of ${Object.keys(CONFIG_KEYS).join(', ')}.`);
  return key;
}

/** An existing profile's name (`default` always exists); an unknown one is a usage error. */
export function checkProfile(name: string): string {
  const unknown = unknownProfile(name);
  if (unknown !== null) throw new UsageError(unknown, 'profile');
  return name;
}

export function checkValue(key: ConfigKey, value: string): string {
  if (key === 'output' && !(FORMATS as readonly string[]).includes(value)) throw new UsageError(`output must be one of ${FORMATS.join(', ')}.`);
  if (key === 'timeout') parseDuration(value);
  if (key === 'upstream' && !['none', 'simulated', 'apify'].includes(value)) throw new UsageError('upstream must be one of none, simulated, apify.', key);
  if (key === 'apify-base-url' && !/^https?:\/\/[^\s/]+/.test(value)) throw new UsageError('apify-base-url must be an http(s) URL, e.g. https://api.apify.com.', key);
  if (key === 'base-url') {
    try {
      serviceRoot(value);
    } catch (e) {
      throw new UsageError((e as Error).message, key);
    }
  }
  if (value.trim() === '') throw new UsageError(`${key} cannot be empty; use stays config unset ${key}.`);
  return value;
}

export function listProfile(profile: string, json: boolean): void {
  const p = readProfile(checkProfile(profile));
  const shown: Record<string, string> = {};
  for (const k of Object.keys(CONFIG_KEYS) as ConfigKey[]) {
    const v = p[k];
    if (v !== undefined) shown[k] = k === 'api-key' || k === 'apify-token' ? redact(v) : v;
  }
  if (json) return void process.stdout.write(jsonText(shown, process.stdout.isTTY === true));
  // A named profile shows what it inherits from the default profile, marked as such.
  const fromDefault = profile === 'default' ? {} : readProfile('default');
  const own = profile === 'default' ? p : readOwnProfile(profile);
  for (const [k, v] of Object.entries(shown)) {
    const inherited = own[k as ConfigKey] === undefined && fromDefault[k as ConfigKey] !== undefined;
    process.stdout.write(`${k}=${v}${inherited && process.stdout.isTTY ? '  (from the default profile)' : ''}\n`);
  }
}

/** Runs a config action; a usage error prints on stderr and exits 2. */
export async function guard(fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`stays config: ${e.message}\n`);
    process.exitCode = EXIT.usage;
  }
}
