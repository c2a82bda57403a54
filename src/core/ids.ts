// Identifiers: request ids, job ids, account/key ids and API keys. Randomness comes through the
// IdGenerator port so tests can inject a deterministic one.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export interface IdGenerator {
  /** A 26-character Crockford ULID (48-bit time, 80-bit randomness). */
  ulid(): string;
  /** n random bytes. */
  bytes(n: number): Buffer;
}

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits → 16 base-32 characters.
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out.slice(0, 16);
}

export function systemIds(now: () => number = Date.now): IdGenerator {
  // One crypto call per 400 ids instead of one per id (request ids are minted on every request).
  let pool = randomBytes(0);
  let at = 0;
  const random10 = () => {
    if (at + 10 > pool.length) {
      pool = randomBytes(4000);
      at = 0;
    }
    at += 10;
    return pool.subarray(at - 10, at);
  };
  // Request ids are minted many per millisecond under load: the time part is written once per ms.
  // Monotonic within a millisecond (the ULID spec's variant): a second id minted in the same ms is
  // the first's random part plus one, so ids sort in the order they were minted (an account's two
  // keys, created in one ms, list sandbox then live every time, not in an order left to chance).
  let lastMs = Number.NaN;
  let lastTime = '';
  const random = new Uint8Array(10);
  return {
    ulid: () => {
      const t = now();
      if (t !== lastMs) {
        lastTime = encodeTime(t);
        lastMs = t;
        random.set(random10());
      } else {
        for (let i = 9; i >= 0 && ++random[i]! === 256; i--) random[i] = 0;
      }
      return lastTime + encodeRandom(random);
    },
    bytes: (n) => randomBytes(n),
  };
}

export const newRequestId = (ids: IdGenerator) => `req_${ids.ulid()}`;
export const newJobId = (ids: IdGenerator) => `job_${ids.ulid()}`;
export const newAccountId = (ids: IdGenerator) => `acct_${ids.ulid().toLowerCase()}`;
export const newKeyId = (ids: IdGenerator) => `key_${ids.ulid().toLowerCase()}`;

export type KeyEnv = 'live' | 'sandbox';

/** A new secret API key: stay_live_… (or sk_live_…) or stay_test_… followed by 32 base62 characters. */
export function newApiKey(ids: IdGenerator, env: KeyEnv, livePrefix: 'sk_live_' | undefined = undefined): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = ids.bytes(32);
  let body = '';
  for (const b of bytes) body += alphabet[b % 62];
  return `${env === 'live' ? (livePrefix ?? 'stay_live_') : 'stay_test_'}${body}`;
}

/** Keys are stored only as SHA-256 hashes (D14). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** D14: the environment a key's prefix selects, or null for any other shape. */
export function keyEnvOf(key: string): KeyEnv | null {
  if (!/^[A-Za-z0-9_]{8,200}$/.test(key)) return null;
  if (key.startsWith('stay_test_')) return 'sandbox';
  if (key.startsWith('stay_live_') || key.startsWith('sk_live_')) return 'live';
  return null;
}
