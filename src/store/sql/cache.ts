// The upstream answer cache (D4): one row per key, good until its expiry.
import { ENTRY_OVERHEAD, Lru, keyBytes } from '../../core/lru.js';
import type { CacheStore } from '../../core/ports/store.js';
import type { Db } from './db.js';

/**
 * `copyBytes`: a store across the network (PostgreSQL) keeps copies of the entries this process
 * read or wrote, up to that many bytes: an entry is good until its expiry whoever reads it, so a
 * hot answer costs no round trip. The text is kept and parsed per hit, so no two requests share
 * one object. An embedded file reads as fast as a copy would: 0, none kept.
 */
export function cacheStore(db: Db, copyBytes: number): CacheStore {
  const write = async (key: string, text: string, storedAt: number, expiresAt: number) => {
    await db.query(
      `INSERT INTO cache_entries (key, value, stored_at, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at, expires_at = excluded.expires_at`,
      [key, text, storedAt, expiresAt],
    );
  };
  const copies =
    copyBytes > 0 ? new Lru<string, { text: string; storedAt: number; expiresAt: number }>({ maxBytes: copyBytes, sizeOf: (v, k) => keyBytes(k) + keyBytes(v.text) + ENTRY_OVERHEAD }) : null;
  const read = `SELECT value, stored_at, expires_at FROM cache_entries WHERE key = $1 AND expires_at > $2`;
  if (copies === null) {
    return {
      async cacheGet(key, now) {
        const r = (await db.query(read, [key, now]))[0];
        return r ? { value: JSON.parse(r.value as string), storedAt: r.stored_at as number } : null;
      },
      cacheSet: (key, value, storedAt, expiresAt) => write(key, JSON.stringify(value), storedAt, expiresAt),
    };
  }
  return {
    async cacheGet(key, now) {
      const near = copies.get(key);
      if (near !== undefined && near.expiresAt > now) return { value: JSON.parse(near.text), storedAt: near.storedAt };
      const r = (await db.query(read, [key, now]))[0];
      if (!r) return null;
      copies.set(key, { text: r.value as string, storedAt: r.stored_at as number, expiresAt: r.expires_at as number });
      return { value: JSON.parse(r.value as string), storedAt: r.stored_at as number };
    },
    async cacheSet(key, value, storedAt, expiresAt) {
      const text = JSON.stringify(value);
      await write(key, text, storedAt, expiresAt);
      copies.set(key, { text, storedAt, expiresAt });
    },
  };
}
