// The local sandbox key of an in-process data directory: provisioned on first use and kept in the
// config. Provisioning holds a lock directory in the data directory, so commands started together
// on a fresh machine (a CI matrix, a shell loop with &) create one account, not one each.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { InProcessTransport } from '../../../src/client/in-process.js';
import type { Runtime } from '../../../src/runtime.js';
import { openConfig, readProfile } from './profiles.js';
import { io } from '../runtime/io.js';

/** A lock older than this was left by a process that died while provisioning. */
const STALE_LOCK_MS = 30_000;
const POLL_MS = 25;

async function savedKey(rt: Runtime, profileName: string, dir: string): Promise<string | null> {
  const saved = readProfile(profileName).localKeys?.[dir];
  if (!saved) return null;
  const { authenticate } = await import('../../../src/core/auth.js');
  // The data dir may have been wiped since; then provision again rather than fail with 401.
  return (await authenticate(rt, `Bearer ${saved.key}`).then(
    () => true,
    () => false,
  ))
    ? saved.key
    : null;
}

/** Takes the lock (mkdir is atomic), waiting for another holder; false if it cannot be made at all. */
async function lock(path: string): Promise<boolean> {
  for (;;) {
    try {
      mkdirSync(path);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_LOCK_MS) rmSync(path, { recursive: true, force: true });
    } catch {}
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Where the local key's account lives, as the config indexes it: the absolute data directory, or
 * on PostgreSQL (STAYS_DATABASE_URL) the database's URL without its password.
 */
export async function localKeyIndex(config: Runtime['config']): Promise<string> {
  if (!config.databaseUrl) return resolve(config.dataDir);
  const { redactUrl } = await import('../../../src/store/db-url.js');
  return `postgres:${redactUrl(config.databaseUrl)}`;
}

/**
 * The store an in-process command runs on, as a user recognises it (never the password): the
 * local SQLite store of the data directory, or the PostgreSQL database of STAYS_DATABASE_URL.
 */
export async function storeLabel(config: { databaseUrl?: string; dataDir: string }): Promise<string> {
  if (!config.databaseUrl) return `the local store in ${resolve(config.dataDir)}`;
  const { redactUrl } = await import('../../../src/store/db-url.js');
  return `the PostgreSQL store ${redactUrl(config.databaseUrl)} (STAYS_DATABASE_URL)`;
}

/** The store of an in-process command, for `stays auth status`: the SQLite file, or the PostgreSQL URL without its password. */
export async function storeOf(config: { databaseUrl?: string; dataDir: string }): Promise<{ kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }> {
  if (config.databaseUrl) return { kind: 'postgres', url: (await import('../../../src/store/db-url.js')).redactUrl(config.databaseUrl) };
  return { kind: 'sqlite', path: (await import('../../../src/config.js')).databaseFile(resolve(config.dataDir)) };
}

/** The account and key ids behind a key on the in-process store (nulls when it is not one of its keys). */
export async function keyOwner(rt: Runtime, key: string): Promise<{ account: string | null; key: string | null }> {
  const { authenticate } = await import('../../../src/core/auth.js');
  const who = await authenticate(rt, `Bearer ${key}`).catch(() => null);
  return who ? { account: who.account.id, key: who.key.id } : { account: null, key: null };
}

/**
 * The local sandbox key, made on first use; null on PostgreSQL (STAYS_DATABASE_URL): a database
 * the servers share is no place for accounts nobody asked for (docs/decisions.md), so there the
 * command needs a key of an existing account.
 */
export async function localKey(t: InProcessTransport, profileName: string): Promise<string | null> {
  const rt = await t.runtime();
  if (rt.config.databaseUrl) return null;
  const dir = resolve(rt.config.dataDir);
  const index = await localKeyIndex(rt.config);
  const existing = await savedKey(rt, profileName, index);
  if (existing) return existing;
  mkdirSync(dir, { recursive: true });
  const lockPath = join(dir, '.provisioning.lock');
  const locked = await lock(lockPath);
  try {
    // Whoever held the lock before us may have provisioned already.
    const theirs = locked ? await savedKey(rt, profileName, index) : null;
    if (theirs) return theirs;
    const { createAccount, createKey } = await import('../../../src/core/admin.js');
    const account = await createAccount(rt, { plan: 'free' });
    const key = await createKey(rt, { accountId: account.id, env: 'sandbox' });
    (await openConfig()).saveLocalKey(profileName, index, { key: key.key, keyId: key.id, accountId: account.id });
    io().stderr.write(`stays: created a local sandbox account (${account.id}) and key for ${dir}; sandbox data is free and deterministic.\n`);
    return key.key;
  } finally {
    if (locked) rmSync(lockPath, { recursive: true, force: true });
  }
}
