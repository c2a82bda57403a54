// Collections CRUD (issue 38, item 1) as a client sees it over HTTP: created in each area form
// with its defaults stated, listed newest first, read by id or name, changed, paused and resumed,
// deleted; per account and key environment (another's is 404); the collections.write scope; the
// cap held against concurrent creations; every bad input a typed 400 with creditsCharged 0, and
// nothing charged by any of it. Shared by the SQLite and PostgreSQL tests (crud.test.ts,
// crud.pg.test.ts), each a `stays serve` reached over loopback.
import { expect } from 'vitest';
import { ErrorEnvelopeSchema } from '../../src/core/schemas/resources.js';
import type { Api } from '../helpers/stays.js';

const MAX = 20;

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> & { id?: string }; error?: { code: string; param: string | null; creditsCharged: number } };
  text: string;
}

export async function collectionsCrud(api: Api): Promise<void> {
  const a = await api.account({ credits: 1000 });
  const b = await api.account({ credits: 1000 });
  const readOnly = await api.account({ credits: 1000, scopes: 'stays.read,account.read' });
  const call = async (key: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await api.req(path, {
      key,
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Answer['body'], text };
  };
  const refused = async (r: Promise<Answer>, status: number, code: string, param?: string) => {
    const x = await r;
    expect(x.status, x.text).toBe(status);
    expect(ErrorEnvelopeSchema.safeParse(x.body).success, x.text).toBe(true);
    expect(x.body.error!.code, x.text).toBe(code);
    expect(x.body.error!.creditsCharged).toBe(0);
    if (param !== undefined) expect(x.body.error!.param, x.text).toBe(param);
    return x;
  };
  const key = a.sandboxKey;

  // Created in each form; defaults stated.
  const lisbon = await call(key, 'POST', '/v1/collections', { name: 'lisbon', location: '  Lisbon ', maxCreditsPerDay: 5000 });
  expect(lisbon.status, lisbon.text).toBe(201);
  expect(lisbon.body.data).toMatchObject({
    name: 'lisbon',
    location: 'Lisbon',
    bbox: null,
    compSet: null,
    platforms: expect.arrayContaining(['airbnb', 'booking', 'vrbo', 'google']),
    horizonNights: 180,
    cadence: 'daily',
    rates: 'auto',
    ratesByPlatform: { airbnb: 'sampled', booking: 'sampled', vrbo: 'sampled', google: 'sampled' },
    maxCreditsPerDay: 5000,
    status: 'active',
    progress: { listingsDiscovered: 0, listingsTracked: 0, lastCompletePass: null, coverage: null, creditsSpentToday: 0 },
  });
  expect(lisbon.body.data!.id).toMatch(/^col_[0-9a-z]{26}$/);
  const box = await call(key, 'POST', '/v1/collections', {
    name: 'alfama',
    bbox: '-9.14,38.70,-9.12,38.72',
    platforms: ['airbnb', 'vrbo'],
    cadence: 'weekly',
    horizonNights: 90,
    rates: 'none',
    maxCreditsPerDay: 800,
    status: 'paused',
  });
  expect(box.status, box.text).toBe(201);
  expect(box.body.data).toMatchObject({ bbox: [-9.14, 38.7, -9.12, 38.72], platforms: ['airbnb', 'vrbo'], cadence: 'weekly', horizonNights: 90, rates: 'none', status: 'paused' });
  expect(box.body.data!.ratesByPlatform).toEqual({ airbnb: 'none', vrbo: 'none' });
  const cs = await call(key, 'POST', '/v1/compsets', { name: 'near 100', near: 'airbnb:100', radiusMeters: 2000 });
  expect(cs.status, cs.text).toBe(201);
  const byCompSet = await call(key, 'POST', '/v1/collections', { name: 'comp', compSet: 'near 100', maxCreditsPerDay: 50 });
  expect(byCompSet.status, byCompSet.text).toBe(201);
  expect(byCompSet.body.data!.compSet).toBe(cs.body.data!.id);

  // A dry run: the collection it would be and its estimate, within its budget; nothing made.
  const dry = await call(key, 'POST', '/v1/collections', { name: 'porto', location: 'Porto', maxCreditsPerDay: 300, dryRun: true });
  expect(dry.status, dry.text).toBe(200);
  const est = dry.body.data!.estimate as {
    listings: number;
    tracked: number;
    sampled: boolean;
    creditsPerDay: number;
    creditsPerDayAll: number;
    discoveryCreditsPerPass: number;
    totalCreditsPerDay: number;
    basis: string;
  };
  expect(est.listings).toBeGreaterThan(0);
  // The discovery is paid first (estimated from the listings known: a search row each at least), tracking sized within the rest.
  expect(est.discoveryCreditsPerPass).toBeGreaterThanOrEqual(est.listings);
  expect(est.totalCreditsPerDay).toBe(est.creditsPerDay + est.discoveryCreditsPerPass);
  expect(est.totalCreditsPerDay).toBeLessThanOrEqual(300);
  expect(est.sampled).toBe(est.tracked < est.listings);
  expect(est.sampled).toBe(est.creditsPerDayAll + est.discoveryCreditsPerPass > 300);
  expect(est.basis).toContain(`${est.listings} listings`);
  const all = est.creditsPerDayAll + est.discoveryCreditsPerPass;
  const big = await call(key, 'POST', '/v1/collections', { name: 'porto', location: 'Porto', maxCreditsPerDay: all, dryRun: true });
  expect(big.body.data!.estimate).toMatchObject({ sampled: false, tracked: est.listings, creditsPerDay: est.creditsPerDayAll, totalCreditsPerDay: all });
  expect((await call(key, 'GET', '/v1/collections/porto')).status).toBe(404);

  // Read: newest first; by id and by name; the same answer.
  const list = await call(key, 'GET', '/v1/collections');
  expect((list.body.data as unknown as { name: string }[]).map((c) => c.name)).toEqual(['comp', 'alfama', 'lisbon']);
  const byId = await call(key, 'GET', `/v1/collections/${lisbon.body.data!.id}`);
  const byName = await call(key, 'GET', '/v1/collections/lisbon');
  expect(byId.body.data).toEqual(lisbon.body.data);
  expect(byName.body.data).toEqual(lisbon.body.data);
  expect((list.body.data as unknown as { estimate: unknown }[]).every((c) => c.estimate === null)).toBe(true);

  // Changed: pause, budget, rename; fields left out keep their value; the area is fixed.
  const paused = await call(key, 'PATCH', '/v1/collections/lisbon', { status: 'paused', maxCreditsPerDay: 1200, name: 'Lisbon all' });
  expect(paused.status, paused.text).toBe(200);
  expect(paused.body.data).toMatchObject({ id: lisbon.body.data!.id, name: 'Lisbon all', status: 'paused', maxCreditsPerDay: 1200, cadence: 'daily', location: 'Lisbon' });
  expect(paused.body.data!.progress).toMatchObject({ phase: 'idle' });
  const resumed = await call(key, 'PATCH', `/v1/collections/${lisbon.body.data!.id}`, { status: 'active' });
  expect(resumed.body.data).toMatchObject({ status: 'active', maxCreditsPerDay: 1200, name: 'Lisbon all' });
  await refused(call(key, 'PATCH', '/v1/collections/alfama', { location: 'Porto' }), 400, 'invalid_parameter', 'location');
  await refused(call(key, 'PATCH', '/v1/collections/alfama', { name: 'Lisbon all' }), 400, 'collection_name_taken', 'name');
  await refused(call(key, 'PATCH', '/v1/collections/alfama', { status: 'deleted' }), 400, 'invalid_parameter', 'status');

  // Bad input: a typed 400 each, nothing made.
  const good = { name: 'x', location: 'Porto', maxCreditsPerDay: 10 };
  const bad: [Record<string, unknown> | string, string, string][] = [
    [{ ...good, name: '   ' }, 'invalid_parameter', 'name'],
    [{ ...good, name: 'evil\u202egnp' }, 'invalid_parameter', 'name'],
    [{ ...good, name: 'n'.repeat(101) }, 'invalid_parameter', 'name'],
    [{ name: 'x', maxCreditsPerDay: 10 }, 'missing_parameter', 'location'],
    [{ ...good, bbox: '1,2,3,4' }, 'mutually_exclusive_params', 'bbox'],
    [{ name: 'x', bbox: '1,2,3', maxCreditsPerDay: 10 }, 'invalid_parameter', 'bbox'],
    [{ name: 'x', bbox: '10,10,9,9', maxCreditsPerDay: 10 }, 'invalid_parameter', 'bbox'],
    [{ ...good, horizonNights: 0 }, 'invalid_parameter', 'horizonNights'],
    [{ ...good, horizonNights: 366 }, 'invalid_parameter', 'horizonNights'],
    [{ ...good, cadence: 'hourly' }, 'invalid_parameter', 'cadence'],
    [{ ...good, rates: 'all' }, 'invalid_parameter', 'rates'],
    [{ ...good, maxCreditsPerDay: 0 }, 'invalid_parameter', 'maxCreditsPerDay'],
    [{ ...good, maxCreditsPerDay: 1.5 }, 'invalid_parameter', 'maxCreditsPerDay'],
    [{ name: 'x', location: 'Porto' }, 'missing_parameter', 'maxCreditsPerDay'],
    [{ ...good, platforms: ['airbnb', 'nope'] }, 'invalid_parameter', 'platforms'],
    [{ ...good, platforms: ['airbnb', 'expedia'] }, 'platform_not_enabled', 'platforms'],
    [{ ...good, status: 'deleted' }, 'invalid_parameter', 'status'],
    [{ ...good, stray: 1 }, 'invalid_parameter', 'stray'],
    ['{"name":', 'invalid_parameter', 'body'],
    ['[]', 'invalid_parameter', 'body'],
  ];
  for (const [body, code, param] of bad) await refused(call(key, 'POST', '/v1/collections', body), 400, code, param);
  await refused(call(key, 'POST', '/v1/collections', { name: 'x', compSet: 'cs_01aaaaaaaaaaaaaaaaaaaaaaaa', maxCreditsPerDay: 10 }), 404, 'compset_not_found', 'compSet');
  await refused(call(key, 'POST', '/v1/collections', { ...good, name: 'Lisbon all' }), 400, 'collection_name_taken', 'name');

  // Per account and environment: another account's (and the other environment's) is 404; the same name is free there.
  const id = lisbon.body.data!.id!;
  for (const [k, m] of [
    [b.sandboxKey, 'GET'],
    [b.sandboxKey, 'PATCH'],
    [b.sandboxKey, 'DELETE'],
    [a.liveKey, 'GET'],
  ] as const) {
    await refused(call(k, m, `/v1/collections/${id}`, m === 'PATCH' ? { status: 'paused' } : undefined), 404, 'collection_not_found', 'id');
  }
  expect((await call(b.sandboxKey, 'POST', '/v1/collections', { ...good, name: 'Lisbon all' })).status).toBe(201);
  expect((await call(a.liveKey, 'GET', '/v1/collections')).body.data).toEqual([]);

  // The write scope: a read-only key reads, never writes.
  await refused(call(readOnly.sandboxKey, 'POST', '/v1/collections', good), 403, 'scope_insufficient');
  expect((await call(readOnly.sandboxKey, 'GET', '/v1/collections')).status).toBe(200);

  // Deleted: answered as it was, then gone; deleting again is 404.
  const gone = await call(key, 'DELETE', '/v1/collections/alfama');
  expect(gone.status, gone.text).toBe(200);
  expect(gone.body.data).toMatchObject({ name: 'alfama', status: 'deleted' });
  await refused(call(key, 'GET', '/v1/collections/alfama'), 404, 'collection_not_found');
  await refused(call(key, 'DELETE', `/v1/collections/${box.body.data!.id}`), 404, 'collection_not_found');

  // The cap, against concurrent creations: exactly MAX live at once, the rest 403.
  const have = (await call(key, 'GET', '/v1/collections')).body.data as unknown as unknown[];
  const tries = await Promise.all(Array.from({ length: MAX + 5 - have.length }, (_, i) => call(key, 'POST', '/v1/collections', { ...good, name: `c${i}` })));
  expect(tries.filter((t) => t.status === 201).length).toBe(MAX - have.length);
  for (const t of tries.filter((x) => x.status !== 201)) expect(t.body.error?.code, t.text).toBe('collection_limit_exceeded');
  expect(((await call(key, 'GET', '/v1/collections')).body.data as unknown as unknown[]).length).toBe(MAX);

  // Nothing of this was charged.
  const account = await call(key, 'GET', '/v1/account');
  expect((account.body.data as { credits?: { balance?: number } }).credits?.balance ?? (account.body.data as { balance?: number }).balance).toBe(1000);
}
