// Validation and printing for `stays config`. A bad key or value is a usage error (exit 2).
import { serviceRoot } from '../../src/client/transport.js';
import { CONFIG_KEYS, type ConfigKey, isConfigKey, profileNames, readOwnProfile, readProfile, unknownProfile } from '../_lib/config/profiles.js';
import { keyPrefix, redact } from '../_lib/runtime/context.js';
import { parseDuration } from '../_lib/flags/options.js';
import { FORMATS } from '../_lib/output/print.js';
import { UsageError } from '../_lib/runtime/errors.js';
import { EXIT, jsonText, io } from '../_lib/runtime/io.js';

export { openConfig, readProfile } from '../_lib/config/profiles.js';

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
  if (json) return void io().stdout.write(jsonText(shown, io().stdout.isTTY === true));
  // A named profile shows what it inherits from the default profile, marked as such.
  const fromDefault = profile === 'default' ? {} : readProfile('default');
  const own = profile === 'default' ? p : readOwnProfile(profile);
  for (const [k, v] of Object.entries(shown)) {
    const inherited = own[k as ConfigKey] === undefined && fromDefault[k as ConfigKey] !== undefined;
    io().stdout.write(`${k}=${v}${inherited && io().stdout.isTTY ? '  (from the default profile)' : ''}\n`);
  }
}

/** `stays config profiles`: every profile (the implicit default too), the active one marked. */
export function listProfiles(active: string, json: boolean): void {
  const rows = profileNames().map((name) => {
    const p = readProfile(name);
    const key = p['api-key'];
    return { name, active: name === active, baseUrl: p['base-url'] ?? null, key: key === undefined ? null : keyPrefix(key) };
  });
  if (json) io().stdout.write(jsonText(rows, io().stdout.isTTY === true));
  else {
    // As `git branch` marks the current branch: "* name".
    const cells = rows.map((r) => [`${r.active ? '*' : ' '} ${r.name}`, r.baseUrl ?? 'in-process', r.key ?? 'none']);
    const widths = [0, 1].map((i) => Math.max(...cells.map((c) => c[i]!.length)));
    for (const c of cells) io().stdout.write(`${c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')}\n`);
  }
  const unknown = unknownProfile(active);
  if (unknown !== null) {
    io().stderr.write(`stays config: ${unknown}\n`);
    io().exitCode = EXIT.usage;
  }
}

/** Runs a config action; a usage error prints on stderr and exits 2. */
export async function guard(fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io().stderr.write(`stays config: ${e.message}\n`);
    io().exitCode = EXIT.usage;
  }
}
