// In-process on a shared PostgreSQL store (STAYS_DATABASE_URL) with no key (issue 36, item 19): the
// refusal explains itself the same with --json as without: the JSON error's message is the CLI's
// explanation (which database, why no account is made, how to get a key), its type and code the
// API's. The built CLI as a child process; skips without a PostgreSQL server (test/helpers/pg.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { freshSandbox, stays } from './helpers.js';

describe.skipIf(!(await pgAvailable()))('no key, in-process on STAYS_DATABASE_URL', { timeout: 60_000 }, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('--json gives the same explanation as the human error', async () => {
    const env = { ...freshSandbox().env, STAYS_DATABASE_URL: db.url };
    const human = await stays(['search', 'Lisbon'], env);
    expect(human.code, human.stderr).toBe(4);
    const said = /^error: (.*)$/m.exec(human.stderr)?.[1];
    expect(said).toContain('where in-process commands do not create accounts');
    for (const flags of [['--json'], ['-o', 'jsonl'], ['--jq', '.data']]) {
      const r = await stays(['search', 'Lisbon', ...flags], env);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stdout).toBe('');
      const err = (JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { type: string; code: string; message: string } }).error;
      expect(err).toMatchObject({ type: 'authentication_error', code: 'missing_api_key' });
      expect(err.message).toBe(said);
    }
  });
});
