// Which store a process uses: PostgreSQL when STAYS_DATABASE_URL (or --database-url) names one,
// shared by every instance pointed at it; else the embedded SQLite file in the data directory.
import { type Config, databaseFile } from '../config.js';
import { openPgStore } from './postgres/store.js';
import { openSqliteStore } from './sqlite/store.js';
import type { Store } from '../core/ports/store.js';

export function openStore(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'databasePoolMax' | 'databaseQueueMax' | 'databaseQueueTimeoutMs'>): Store {
  if (config.databaseUrl) {
    return openPgStore(config.databaseUrl, { poolMax: config.databasePoolMax, queueMax: config.databaseQueueMax, queueTimeoutMs: config.databaseQueueTimeoutMs });
  }
  return openSqliteStore(databaseFile(config.dataDir));
}
