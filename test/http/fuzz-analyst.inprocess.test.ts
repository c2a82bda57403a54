// The analyst endpoints fuzzed on SQLite (fuzz-analyst.scenario.ts; PostgreSQL: fuzz-analyst.pg.test.ts).
import { fuzzAnalystSuite } from './fuzz-analyst.scenario.js';

fuzzAnalystSuite('analyst endpoints under random input, SQLite', async () => ({ env: {} }));
