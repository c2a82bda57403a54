// The executor with an injected clock and a counting upstream: coalescing (D19), cache
// lifetimes (spec Limits, D20) and the listing's embedded price composed at read time.
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createAccount, createKey } from '../../src/core/admin.js';
import type { Upstream } from '../../src/core/upstream.js';
import { createApp } from '../../src/app.js';
import { type Runtime, createRuntime } from '../../src/runtime.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { simulatedUpstream } from '../../src/sources/simulated.js';
import { tempDir } from '../helpers/stays.js';

const HOUR = 3_600_000;
const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
});

async function setup() {
  const clock = manualClock(Date.now());
  const rt = createRuntime({ config: { dataDir: tempDir(), upstream: 'simulated' }, clock });
  runtimes.push(rt);
  const calls: Record<string, number> = {};
  const inner = simulatedUpstream(createSandboxWorld(), { latencyMs: { airbnb: 30, booking: 30, vrbo: 30, google: 30 }, fail: {} });
  const counting = Object.fromEntries(
    Object.entries(inner).map(([k, v]) => [
      k,
      typeof v === 'function' && k !== 'estimateSeconds' ? (...args: unknown[]) => ((calls[k] = (calls[k] ?? 0) + 1), (v as (...a: unknown[]) => unknown)(...args)) : v,
    ]),
  ) as unknown as Upstream;
  (rt as { upstream: Upstream | null }).upstream = counting;
  const app = createApp(rt);
  const acct = await createAccount(rt, { plan: 'pro', credits: 10_000 });
  const { key } = await createKey(rt, { accountId: acct.id, env: 'live' });
  const get = async (path: string, wait = true) => {
    const res = await app.request(path, { headers: { authorization: `Bearer ${key}`, ...(wait ? { prefer: 'wait=10' } : {}) } });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; meta: { creditsCharged: number; cached: boolean; warnings: { code: string }[] } } };
  };
  return { rt, clock, calls, get, accountId: acct.id };
}

const day = (clockNow: number, n: number) => new Date(clockNow + n * 86_400_000).toISOString().slice(0, 10);

describe('executor', () => {
  it('coalesces identical live calls in flight into one upstream call, billing each caller (D19)', async () => {
    const { rt, calls, get, accountId, clock } = await setup();
    const path = `/v1/price?platform=airbnb&listingId=5551234&checkIn=${day(clock.now(), 10)}&checkOut=${day(clock.now(), 12)}`;
    const results = await Promise.all(Array.from({ length: 6 }, () => get(path)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(calls.price).toBe(1);
    expect(results.map((r) => r.body.meta.creditsCharged)).toEqual([3, 3, 3, 3, 3, 3]);
    const ledger = await rt.store.ledger(accountId);
    expect(ledger.filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-3, -3, -3, -3, -3, -3]);
  });

  it('serves from cache within the lifetime, billing again; refetches after it (price: 1 hour)', async () => {
    const { calls, get, clock } = await setup();
    const path = `/v1/price?platform=booking&listingId=pt/casa-azul&checkIn=${day(clock.now(), 10)}&checkOut=${day(clock.now(), 12)}`;
    expect((await get(path)).body.meta.cached).toBe(false);
    clock.advance(HOUR - 1000);
    const hit = await get(path, false);
    expect(hit.status).toBe(200);
    expect(hit.body.meta).toMatchObject({ cached: true, creditsCharged: 3 });
    clock.advance(2000);
    expect((await get(path, false)).status).toBe(202);
    expect(calls.price).toBe(2);
  });

  it('availability is cached 6 hours, search 15 minutes', async () => {
    const { get, clock } = await setup();
    const avail = `/v1/availability?platform=airbnb&listingId=777&startDate=${day(clock.now(), 2)}&endDate=${day(clock.now(), 12)}`;
    const search = '/v1/search?location=Kyoto&limit=2&platforms=airbnb';
    await get(avail);
    await get(search);
    clock.advance(14 * 60_000);
    expect((await get(avail, false)).status).toBe(200);
    expect((await get(search, false)).status).toBe(200);
    clock.advance(2 * 60_000);
    expect((await get(search, false)).status).toBe(202);
    clock.advance(6 * HOUR);
    expect((await get(avail, false)).status).toBe(202);
  });

  it('a listing body is cached 24 hours and its embedded price 1 hour, composed at read time (D20)', async () => {
    const { calls, get, clock } = await setup();
    const base = '/v1/listing/airbnb/24682468';
    const dated = `${base}?checkIn=${day(clock.now(), 30)}&checkOut=${day(clock.now(), 33)}`;
    const first = await get(dated);
    expect(first.body.data.price).toMatchObject({ listingId: '24682468', nights: 3 });
    expect(first.body.meta.creditsCharged).toBe(3);
    clock.advance(2 * HOUR);
    const second = await get(dated);
    expect(second.body.data.price).toEqual(first.body.data.price);
    expect(calls.listing).toBe(1);
    expect(calls.price).toBe(2);
    const undated = await get(base, false);
    expect(undated.status).toBe(200);
    expect(undated.body.data.price).toBeNull();
    expect(undated.body.meta).toMatchObject({ cached: true, creditsCharged: 3 });
  });

  it('a listing with dates whose price cannot be quoted still answers and still bills (spec: best effort)', async () => {
    const { get, clock } = await setup();
    const r = await get(`/v1/listing/airbnb/410?checkIn=${day(clock.now(), 30)}&checkOut=${day(clock.now(), 33)}`);
    expect(r.status).toBe(200);
    expect(r.body.data.price).toBeNull();
    expect(r.body.meta.creditsCharged).toBe(3);
    expect(r.body.meta.warnings.map((w) => w.code)).toContain('price_unavailable');
  });

  it('a finished job is kept 24 hours, then 404 job_not_found (D18)', async () => {
    const { rt, clock } = await setup();
    const app = createApp(rt);
    const acct = await createAccount(rt, { plan: 'pro', credits: 100 });
    const { key } = await createKey(rt, { accountId: acct.id, env: 'live' });
    const auth = { authorization: `Bearer ${key}` };
    const accepted = (await (await app.request('/v1/reviews?platform=airbnb&listingId=13579', { headers: auth })).json()) as { data: { jobId: string } };
    await rt.jobs.wait(accepted.data.jobId, 5_000);
    const poll = () => app.request(`/v1/jobs/${accepted.data.jobId}`, { headers: auth });
    expect(((await (await poll()).json()) as { data: { status: string } }).data.status).toBe('completed');
    clock.advance(24 * HOUR - 1000);
    expect((await poll()).status).toBe(200);
    clock.advance(2000);
    const gone = await poll();
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('job_not_found');
  });
});
