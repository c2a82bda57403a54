// GET /v1/history/observations (issue 26, item 5: `stays history export` against a server): every
// stored observation last seen since an instant, in the order stored, cursor-paged without gaps or
// repeats, free; empty for a sandbox key (its histories are synthetic); typed errors for bad input,
// never a 500. Through the app in-process on the SQLite store with the simulated upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 26, 12);
const clock = manualClock(T0);
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  a = await t.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

type Obs = { platform: string; listingId: string; kind: string; key: string; firstSeen: string; lastSeen: string; timesSeen: number };
type Page = { data: Obs[]; meta: { creditsCharged: number; pagination: { nextCursor: string | null; hasMore: boolean } } };
const get = async (path: string, key = a.liveKey) => {
  const r = await t.req(path, { key, headers: { prefer: 'wait=30' } });
  return { status: r.status, body: JSON.parse(await r.text()) as Page };
};

describe('GET /v1/history/observations', () => {
  it('live: every observation since the instant, in pages that join up to the whole; free', async () => {
    await get('/v1/search?location=Faro&platforms=airbnb');
    clock.advance(2 * HOUR);
    const found = await get('/v1/search?location=Porto&platforms=vrbo');
    expect(found.status).toBe(200);
    const whole = await get(`/v1/history/observations?since=${new Date(T0).toISOString()}&limit=1000`);
    expect(whole.status).toBe(200);
    expect(whole.body.meta.creditsCharged).toBe(0);
    expect(whole.body.meta.pagination.hasMore).toBe(false);
    const platforms = new Set(whole.body.data.map((o) => o.platform));
    expect(platforms).toEqual(new Set(['airbnb', 'vrbo']));
    // Pages of 5, each after the last: the same rows in the same order, none twice.
    const paged: Obs[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p = await get(`/v1/history/observations?since=${new Date(T0).toISOString()}&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(p.body.data.length).toBeLessThanOrEqual(5);
      paged.push(...p.body.data);
      cursor = p.body.meta.pagination.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(paged).toEqual(whole.body.data);
    // Since after the first search was last seen: only what the second one recorded.
    const later = await get(`/v1/history/observations?since=${new Date(T0 + HOUR).toISOString()}&limit=1000`);
    expect(later.body.data.length).toBeGreaterThan(0);
    expect(later.body.data.every((o) => o.platform === 'vrbo' && Date.parse(o.lastSeen) >= T0 + HOUR)).toBe(true);
  });

  it('sandbox: an empty export, free', async () => {
    const r = await get('/v1/history/observations?since=2026-01-01', a.sandboxKey);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.meta.pagination.hasMore).toBe(false);
  });

  it('bad input: typed errors, free, never a 500', async () => {
    const since = new Date(T0).toISOString();
    const first = await get(`/v1/history/observations?since=${since}&limit=1`);
    const other = first.body.meta.pagination.nextCursor!;
    const cases: [string, string, string][] = [
      ['', 'missing_parameter', 'since'],
      ['since=yesterday', 'invalid_parameter', 'since'],
      ['since=2026-13-45', 'invalid_parameter', 'since'],
      [`since=${since}&limit=0`, 'limit_out_of_range', 'limit'],
      [`since=${since}&limit=1001`, 'limit_out_of_range', 'limit'],
      [`since=${since}&cursor=abc`, 'invalid_cursor', 'cursor'],
      // A cursor of another export (another since) is refused, not followed.
      [`since=2026-01-01&cursor=${other}`, 'invalid_cursor', 'cursor'],
    ];
    for (const [query, code, param] of cases) await expectError(await t.req(`/v1/history/observations?${query}`, { key: a.liveKey }), 400, code, param);
  });
});
