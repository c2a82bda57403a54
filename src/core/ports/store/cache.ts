// The upstream answer cache (D4). Part of the store port (../store.ts).

export interface CacheHit {
  value: unknown;
  storedAt: number;
}

export interface CacheStore {
  cacheGet(key: string, now: number): Promise<CacheHit | null>;
  cacheSet(key: string, value: unknown, storedAt: number, expiresAt: number): Promise<void>;
}
