// The async run path (an actor whose timeout is past the sync cut-off), fallbacks within a need,
// platform refusals, and the fake's own contract as raw HTTP sees it (both prefixes, ?token=,
// compressed bodies, pagination headers, 401/404/400).
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/core/errors.js';
import type { SourceReport } from '../../../src/core/upstream.js';
import { ACTORS, FIXTURES, IDS } from '../../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../../fakes/apify/server.js';
import { actorsSetting, upstreamOver } from './helpers.js';

let fake: ApifyFake;
beforeAll(async () => {
  fake = await startApifyFake({ syncLimitMs: 300 });
});
afterAll(() => fake.close());

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
  );

describe('async runs (mode async, or a timeout past the sync cut-off)', () => {
  const setting = actorsSetting({ airbnb: { ...Object.fromEntries(Object.entries(ACTORS.airbnb).map(([n, a]) => [n, [a]])), search: [{ id: 'async~airbnb', mode: 'async', timeoutSecs: 1 }] } });

  it('polls the run to SUCCEEDED, reads its dataset, reports its cost and run id', async () => {
    const u = upstreamOver(fake, setting);
    fake.script('async~airbnb', { kind: 'items', items: FIXTURES.airbnb.search!.normal, runMs: 150, costUsd: 0.042 });
    const seen: SourceReport[] = [];
    const rows = (await u.observe!((r) => seen.push(r)).searchPlatform('airbnb', 'London', { currency: 'USD', rooms: 1 })) as unknown[];
    expect(rows).toHaveLength(2);
    expect(seen[0]).toMatchObject({ source: 'async~airbnb', ok: true, costUsd: 0.042, items: 2 });
    expect(seen[0]!.runId).toMatch(/^run/);
    const paths = fake.calls
      .filter((c) => c.path.includes('async~airbnb') || c.path.startsWith('/v2/actor-runs') || c.path.startsWith('/v2/datasets'))
      .map((c) => `${c.method} ${c.path.replace(/\/[A-Za-z0-9]{17}/g, '/:id')}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /v2/actors/async~airbnb/runs', 'GET /v2/actor-runs/:id', 'GET /v2/datasets/:id/items']));
  });

  it('a run still RUNNING at its deadline is aborted and actor_timeout', async () => {
    const u = upstreamOver(fake, setting);
    fake.script('async~airbnb', { kind: 'slow', runMs: 10_000 });
    expect(await code(u.searchPlatform('airbnb', 'London', { currency: 'USD', rooms: 1 }))).toBe('actor_timeout');
    expect(fake.calls.some((c) => c.method === 'POST' && /\/v2\/actor-runs\/\w+\/abort$/.test(c.path))).toBe(true);
  });

  it('FAILED with a block message is actor_blocked; FAILED otherwise all_actors_failed; TIMED-OUT actor_timeout', async () => {
    const u = upstreamOver(fake, setting);
    fake.script('async~airbnb', { kind: 'failed', statusMessage: '❌ HTTP Error 429: Too Many Requests … 💔 Failed' });
    expect(await code(u.searchPlatform('airbnb', 'London', { currency: 'USD', rooms: 1 }))).toBe('actor_blocked');
    fake.script('async~airbnb', { kind: 'failed' });
    expect(await code(u.searchPlatform('airbnb', 'London', { currency: 'USD', rooms: 1 }))).toBe('all_actors_failed');
    fake.script('async~airbnb', { kind: 'timed-out' });
    expect(await code(u.searchPlatform('airbnb', 'London', { currency: 'USD', rooms: 1 }))).toBe('actor_timeout');
  });
});

describe('fallbacks within a need', () => {
  const setting = actorsSetting({ booking: { ...Object.fromEntries(Object.entries(ACTORS.booking).map(([n, a]) => [n, [a]])), listing: ['first~booking', 'second~booking'] } });

  it('the primary fails, the fallback serves, and the report names both attempts', async () => {
    const u = upstreamOver(fake, setting);
    fake.script('first~booking', { kind: 'failed' });
    fake.script('second~booking', { kind: 'items', items: FIXTURES.booking.listing!.normal });
    const seen: SourceReport[] = [];
    await u.observe!((r) => seen.push(r)).listing('booking', IDS.booking, { currency: 'EUR' });
    expect(seen.map((r) => [r.source, r.ok])).toEqual([
      ['first~booking', false],
      ['second~booking', true],
    ]);
  });

  it('every actor FAILED → all_actors_failed; every actor refused with 402/429 → retryable upstream_unavailable; a definitive answer ends the chain', async () => {
    const u = upstreamOver(fake, setting);
    fake.script('first~booking', { kind: 'failed' });
    fake.script('second~booking', { kind: 'empty' });
    expect(await code(u.listing('booking', IDS.booking, { currency: 'EUR' }))).toBe('all_actors_failed');
    fake.script('first~booking', { kind: 'payment' });
    fake.script('second~booking', { kind: 'rate-limit' });
    const e = await u.listing('booking', IDS.booking, { currency: 'EUR' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'upstream_unavailable', retryable: true });
    fake.script('first~booking', { kind: 'items', items: FIXTURES.booking.listing!.other! });
    fake.script('second~booking', { kind: 'items', items: FIXTURES.booking.listing!.normal });
    expect(await code(u.listing('booking', IDS.booking, { currency: 'EUR' }))).toBe('identity_mismatch');
  });

  it('an unknown actor (404) or invalid input (400) fails that source; a bad token names the setting, never the token', async () => {
    const u = upstreamOver(fake, actorsSetting({ google: { search: ['nobody~missing'] } }));
    expect(await code(u.searchPlatform('google', 'Vienna', { currency: 'USD', rooms: 1 }))).toBe('all_actors_failed');
    fake.script(ACTORS.vrbo.search!, { kind: 'invalid-input' });
    const bad = await upstreamOver(fake)
      .searchPlatform('vrbo', 'Destin', { currency: 'USD', rooms: 1 })
      .catch((x: unknown) => x as ServiceError);
    expect(bad).toMatchObject({ code: 'all_actors_failed' });
    expect((bad as ServiceError).message).toMatch(/Input is not valid/);
    const wrong = { ...fake, token: 'apify_api_wrong_secret' };
    const e = (await upstreamOver(wrong)
      .searchPlatform('vrbo', 'Destin', { currency: 'USD', rooms: 1 })
      .catch((x: unknown) => x)) as ServiceError;
    expect(e.message).toMatch(/STAYS_APIFY_TOKEN/);
    expect(e.message).not.toContain('apify_api_wrong_secret');
  });
});

describe('the fake, as raw HTTP sees it', () => {
  const post = async (path: string, body: Buffer, headers: Record<string, string>) =>
    fetch(`${fake.url}${path}`, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'application/json', ...headers } });

  it('the legacy /v2/acts prefix with ?token= and a gzip body: 201, a bare array, the pagination headers', async () => {
    fake.script('x~y', { kind: 'items', items: [{ a: 1 }, { a: 2 }, { a: 3 }] });
    const res = await post(`/v2/acts/x~y/run-sync-get-dataset-items?token=${fake.token}&offset=1&limit=1`, await promisify(gzip)(Buffer.from(JSON.stringify({ q: 'gz' }))), {
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ a: 2 }]);
    expect(Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('x-apify-pagination')))).toEqual({
      'x-apify-pagination-offset': '1',
      'x-apify-pagination-limit': '1',
      'x-apify-pagination-count': '1',
      'x-apify-pagination-total': '3',
      'x-apify-pagination-desc': 'false',
    });
    expect(fake.calls.at(-1)).toMatchObject({ auth: 'query', encoding: 'gzip', input: { q: 'gz' } });
  });

  it('a brotli body under /v2/actors with Bearer; 401 without or with a wrong token; 404 actor-not-found; 400 run-failed', async () => {
    fake.script('x~y', { kind: 'items', items: [] });
    const br = await post('/v2/actors/x~y/runs', await promisify(brotliCompress)(Buffer.from(JSON.stringify({ q: 'br' }))), { 'content-encoding': 'br', authorization: `Bearer ${fake.token}` });
    expect(br.status).toBe(201);
    expect(br.headers.get('location')).toMatch(/\/v2\/actor-runs\/\w{17}$/);
    expect(fake.calls.at(-1)).toMatchObject({ input: { q: 'br' } });
    expect(((await br.json()) as { data: { status: string } }).data.status).toBe('SUCCEEDED');
    const none = await post('/v2/actors/x~y/runs', Buffer.from('{}'), {});
    expect([none.status, ((await none.json()) as { error: { type: string } }).error.type]).toEqual([401, 'token-not-provided']);
    const wrong = await post('/v2/actors/x~y/runs', Buffer.from('{}'), { authorization: 'Bearer nope' });
    expect([wrong.status, ((await wrong.json()) as { error: { type: string } }).error.type]).toEqual([401, 'invalid-token']);
    const missing = await post(`/v2/actors/no~body/runs?token=${fake.token}`, Buffer.from('{}'), {});
    expect([missing.status, ((await missing.json()) as { error: { type: string } }).error.type]).toEqual([404, 'actor-not-found']);
    fake.script('x~y', { kind: 'failed' });
    const failed = await post(`/v2/actors/x~y/run-sync-get-dataset-items?token=${fake.token}`, Buffer.from('{}'), {});
    const body = (await failed.json()) as { error: { type: string; message: string } };
    expect([failed.status, body.error.type]).toEqual([400, 'run-failed']);
    expect(body.error.message).toMatch(/^Actor run did not succeed \(run ID: \w{17}, status: FAILED\)$/);
  });
});
