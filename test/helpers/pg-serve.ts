// `stays serve` on a fresh PostgreSQL database (the e2e tier), with accounts made on that database
// as `stays admin --database-url` makes them: the `Api` a scenario written for either store takes.
import { createRuntime } from '../../src/runtime.js';
import { type TestDatabase, freshDatabase } from './pg.js';
import { accountOn } from './seed.js';
import { type Api, type Stays, startStays } from './stays.js';

export interface PgServer {
  api: Api;
  stop(): Promise<void>;
}

export async function servePg(env: Record<string, string> = {}): Promise<PgServer> {
  const db: TestDatabase = await freshDatabase();
  const store = { STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'ab'.repeat(32) };
  let s: Stays;
  try {
    s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '', ...store, ...env });
  } catch (e) {
    await db.drop();
    throw e;
  }
  const api: Api = {
    ...s,
    async account(o) {
      const rt = createRuntime({ config: { dataDir: s.dataDir }, env: store });
      try {
        return await accountOn(rt, o);
      } finally {
        await rt.close();
      }
    },
  };
  return {
    api,
    async stop() {
      await s.stop();
      await db.drop();
    },
  };
}
