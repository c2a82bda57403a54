// Issue 21 (7): dynamic client registration cannot grow the database without bound. 3,000
// unauthenticated registrations of 10 redirect URIs of 1.9 KB each all got 201. Now: at most 5
// redirect URIs of at most 512 characters and a client_name of at most 200; at most
// STAYS_OAUTH_REGISTER_PER_HOUR registrations per address (429 + Retry-After, counted in the store
// so instances on one PostgreSQL database share it); and a client that never got a grant is
// deleted a day after it registered. On real `stays serve` processes of both stores.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../src/core/schemas/resources.js';
import { type Instance, admin, sql, startInstance, stopAll } from '../helpers/multi.js';
import { freshDatabase, pgAvailable } from '../helpers/pg.js';
import { type Stays, startStays } from '../helpers/stays.js';
import { REDIRECT, authorizeUrl, pkce, register, signIn } from './helpers.js';

const LIMIT = 4;
const env = { STAYS_OAUTH_REGISTER_PER_HOUR: String(LIMIT), STAYS_ANON_RPM: '100000' };
const DAY = 86_400_000;

type Server = Pick<Stays, 'url'>;

async function oauthError(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(400);
  return (JSON.parse(text) as { error: string }).error;
}

/** Registrations past the bound: a typed 429 with a Retry-After of about the hour. */
async function expectLimited(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(429);
  const body = ErrorEnvelopeSchema.parse(JSON.parse(text));
  expect(body.error.code).toBe('rate_limit_exceeded');
  expect(body.error.message).toContain('STAYS_OAUTH_REGISTER_PER_HOUR');
  const after = Number(res.headers.get('retry-after'));
  expect(after).toBeGreaterThan(3000);
  expect(after).toBeLessThanOrEqual(3600);
}

async function expectBounds(s: Server): Promise<void> {
  const uri = (n: number) => `https://agent.example/${'p'.repeat(n - 'https://agent.example/'.length)}`;
  const six = Array.from({ length: 6 }, (_, i) => `http://127.0.0.1:${5000 + i}/cb`);
  expect(await oauthError(await register(s as Stays, { redirect_uris: six }))).toBe('invalid_redirect_uri');
  expect(await oauthError(await register(s as Stays, { redirect_uris: [uri(513)] }))).toBe('invalid_redirect_uri');
  expect(await oauthError(await register(s as Stays, { redirect_uris: Array.from({ length: 10 }, () => uri(1900)) }))).toBe('invalid_redirect_uri');
  expect(await oauthError(await register(s as Stays, { redirect_uris: [REDIRECT], client_name: 'n'.repeat(201) }))).toBe('invalid_client_metadata');
}

/** Whether the server knows `clientId`: its consent page opens (200) or says the client is not registered (400). */
async function known(s: Server, clientId: string): Promise<boolean> {
  const res = await fetch(authorizeUrl(s as Stays, { clientId, challenge: pkce().challenge }));
  const html = await res.text();
  if (res.status === 400) expect(html).toContain('not registered');
  else expect(res.status, html).toBe(200);
  return res.status === 200;
}

const clientIdOf = async (res: Response) => {
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return (JSON.parse(text) as { client_id: string }).client_id;
};

describe('on SQLite', () => {
  let s: Stays | undefined;
  afterAll(async () => {
    await s?.stop();
  });

  it('bounds the redirect URIs and client_name, then the registrations of one address per hour (refusals do not count)', async () => {
    s = await startStays(env);
    await expectBounds(s);
    // The most one registration may hold is accepted.
    const five = Array.from({ length: 5 }, (_, i) => `https://agent.example/${String(i).repeat(512 - 'https://agent.example/'.length)}`);
    await clientIdOf(await register(s, { redirect_uris: five, client_name: 'n'.repeat(200) }));
    for (let i = 1; i < LIMIT; i++) await clientIdOf(await register(s));
    await expectLimited(await register(s));
    await expectLimited(await register(s));
  });

  it('a client that never got a grant is deleted a day after it registered; one that did is kept', async () => {
    // A fresh server: the last test used up this address's registrations.
    await s!.stop('SIGTERM');
    s = await startStays(env);
    const acct = await s.account();
    const used = (await signIn(s, acct.sandboxKey)).clientId;
    const unused = await clientIdOf(await register(s));
    const fresh = await clientIdOf(await register(s));
    expect(await known(s, used)).toBe(true);
    expect(await known(s, unused)).toBe(true);
    // Back-date two of them past the retention, and restart: the server purges at start.
    const dataDir = s.dataDir;
    await s.stop('SIGTERM', { keepData: true });
    const db = new Database(join(dataDir, 'stays.db'));
    db.prepare(`UPDATE oauth_clients SET created_at = created_at - ? WHERE id IN (?, ?)`).run(DAY + 60_000, used, unused);
    db.close();
    s = await startStays(env, dataDir);
    expect(await known(s, unused)).toBe(false);
    expect(await known(s, used)).toBe(true);
    expect(await known(s, fresh)).toBe(true);
  });
});

describe.skipIf(!(await pgAvailable()))('on PostgreSQL, two instances', { timeout: 120_000 }, () => {
  let dbDrop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await stopAll();
    await dbDrop?.();
  });

  it('the bounds hold, the per-address count is shared by the instances, and unused clients are purged', async () => {
    const db = await freshDatabase();
    dbDrop = db.drop;
    const [first, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
    let a: Instance = first;
    await expectBounds(a);
    await expectBounds(b);
    const acct = await admin<{ id: string }>(db.url, 'account', 'create', '--plan', 'pro', '--credits', '100');
    const key = (await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct.id, '--env', 'sandbox')).key;
    const used = (await signIn(a as unknown as Stays, key)).clientId;
    const unused = await clientIdOf(await register(b as unknown as Stays));
    await clientIdOf(await register(a as unknown as Stays));
    await clientIdOf(await register(b as unknown as Stays));
    // LIMIT reached over both: each refuses.
    await expectLimited(await register(a as unknown as Stays));
    await expectLimited(await register(b as unknown as Stays));
    // Concurrent registrations on both instances never pass the bound together.
    await sql(db.url, `UPDATE oauth_clients SET created_at = created_at - $1`, [2 * 3_600_000]);
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => register((i % 2 ? a : b) as unknown as Stays)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(LIMIT);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(12 - LIMIT);
    // Past the retention, a restarted instance purges the unused client and keeps the used one.
    await sql(db.url, `UPDATE oauth_clients SET created_at = created_at - $1 WHERE id IN ($2, $3)`, [DAY, used, unused]);
    await a.stop();
    a = await startInstance('A2', db.url, env);
    expect(await known(a, unused)).toBe(false);
    expect(await known(b, used)).toBe(true);
  });
});
