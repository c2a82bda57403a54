// The server key: STAYS_SECRET_KEY (32 bytes, hex or base64), or a key generated into the data
// directory on first use (secret.key, mode 0600). It seals webhook signing secrets at rest (they
// must be usable for signing, so they cannot be kept as a hash: AES-256-GCM) and keys the OAuth
// consent page's CSRF guard. Neither the key nor a secret is ever logged.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config.js';
import type { SecretBox } from './core/ports/runtime.js';

const VERSION = 'v1';

/** The 32-byte key from a setting: 64 hex digits, or base64 of 32 bytes. */
export function parseSecretKey(value: string): Buffer {
  const v = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
  if (key.length !== 32) throw new ConfigError('invalid setting STAYS_SECRET_KEY: expected 32 bytes as 64 hex digits or base64 (e.g. openssl rand -hex 32)');
  return key;
}

/** The data directory's key, created (exclusively, 0600) when there is none yet. */
export function dataDirKey(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key');
  try {
    return parseSecretKey(readFileSync(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    // Another process created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return parseSecretKey(readFileSync(file, 'utf8'));
}

export type { SecretBox };

export function secretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('A webhook secret is not in the sealed format.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('A webhook secret cannot be decrypted: the server key (STAYS_SECRET_KEY or secret.key in the data directory) is not the one it was sealed with.');
      }
    },
  };
}

/** The server's box: STAYS_SECRET_KEY, else the data directory's key. */
export function serverSecretBox(config: { secretKey?: string; dataDir: string; databaseUrl?: string }): SecretBox {
  return secretBox(serverKey(config));
}

/**
 * STAYS_SECRET_KEY, else the data directory's key. On PostgreSQL the key must be the setting:
 * every instance has its own data directory, and each must open the secrets any other sealed.
 */
export function serverKey(config: { secretKey?: string; dataDir: string; databaseUrl?: string }): Buffer {
  if (config.secretKey) return parseSecretKey(config.secretKey);
  if (config.databaseUrl) {
    throw new ConfigError('STAYS_DATABASE_URL needs STAYS_SECRET_KEY: every instance on one database must share the key that seals webhook secrets (e.g. openssl rand -hex 32).');
  }
  return dataDirKey(config.dataDir);
}
