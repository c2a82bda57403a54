// Storage a free sandbox key can make a watch keep (issue 35, item 2), over the app in-process:
// call.params only what the watched endpoint takes (an unknown key is a typed 400 naming it; the
// whole at most WATCH_PARAMS_MAX_CHARS of JSON), a deleted watch gone with its events at once, the
// cap counting what an account keeps (ended watches too), a watch's events its newest
// WATCH_EVENTS_KEPT and none older than WATCH_EVENT_RETENTION_MS after the sweep; the largest row
// of watches, watch_events and webhook_outbox read off the SQLite file.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../src/config.js';
import { manualClock } from '../../src/core/clock.js';
import { runDueWatches } from '../../src/core/ops/watch-runs.js';
import { WATCH_EVENTS_KEPT, WATCH_EVENT_RETENTION_MS } from '../../src/core/ports/store.js';
import { MAX_ACTIVE_WATCHES, WATCH_PARAMS_MAX_CHARS } from '../../src/core/schemas/watches.js';
import { purgeExpired } from '../../src/jobs/leases.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { type TestAccount, tempDir } from '../helpers/stays.js';
import { createHook } from '../helpers/webhooks.js';

const MIN = 60_000;
const DAY = 1440 * MIN;
const clock = manualClock(Date.UTC(2027, 0, 4, 12));
const dataDir = tempDir();
let t: TestApp;
let r: Receiver;
beforeAll(async () => {
  t = await startApp({}, { clock, dataDir });
  r = await startReceiver();
});
afterAll(async () => {
  await t?.stop();
  await r?.close();
});

/** One value of the store's SQLite file, read beside the app (read-only). */
function sql<T>(query: string, ...params: unknown[]): T {
  const db = new Database(databaseFile(dataDir), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(query).get(...params) as T;
  } finally {
    db.close();
  }
}

const PRICE = { platform: 'airbnb', listingId: '100', checkIn: '2027-12-01', checkOut: '2027-12-04' };
const create = (a: TestAccount, body: unknown) => t.req('/v1/watches', { method: 'POST', key: a.sandboxKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const made = async (a: TestAccount, body: unknown) => {
  const res = await create(a, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
};

describe('what a watch stores', () => {
  it('call.params: a parameter the endpoint does not take is a typed 400 naming it; the whole bounded', async () => {
    const a = await t.account({ rpm: 1_000_000 });
    const pad = 'x'.repeat(8_000);
    await expectError(await create(a, { call: { type: 'price', params: { ...PRICE, junk: pad } }, rules: [{ type: 'price_below', amount: 10 }] }), 400, 'invalid_parameter', 'call.params.junk');
    await expectError(
      await create(a, { call: { type: 'search', params: { location: 'Lisbon', checkin: '2027-03-01' } }, rules: [{ type: 'new_listings' }] }),
      400,
      'invalid_parameter',
      'call.params.checkin',
    );
    // A parameter it takes, made long (every token a good one; a list, as no string may pass 8,192 characters).
    const amenities = Array.from({ length: 3_000 }, () => 'wifi');
    const big = await expectError(await create(a, { call: { type: 'search', params: { location: 'Lisbon', amenities } }, rules: [{ type: 'new_listings' }] }), 400, 'invalid_parameter', 'call.params');
    expect(big.error.message).toContain(`at most ${WATCH_PARAMS_MAX_CHARS}`);
    expect(sql<{ n: number }>('SELECT COUNT(*) AS n FROM watches WHERE account_id = ?', a.id).n).toBe(0);
  });

  it('a deleted watch is gone from the store with its events at once; create/delete pairs leave nothing', async () => {
    const a = await t.account({ rpm: 1_000_000 });
    await createHook(t, a.sandboxKey, r.url, ['watch.triggered']);
    for (let i = 0; i < 30; i++) {
      const id = await made(a, { call: { type: 'price', params: PRICE }, rules: [{ type: 'price_below', amount: 50 }], name: `pair ${i}` });
      if (i % 10 === 0) expect((await runDueWatches(t.runtime, { accountId: a.id })).map((x) => x.events.length)).toEqual([1]);
      const gone = await t.req(`/v1/watches/${id}`, { method: 'DELETE', key: a.sandboxKey });
      expect(((await gone.json()) as { data: { status: string } }).data.status).toBe('deleted');
      await expectError(await t.req(`/v1/watches/${id}`, { key: a.sandboxKey }), 404, 'watch_not_found', 'id');
    }
    expect(sql<{ n: number }>('SELECT COUNT(*) AS n FROM watches WHERE account_id = ?', a.id).n).toBe(0);
    expect(sql<{ n: number }>('SELECT COUNT(*) AS n FROM watch_events').n).toBe(0);
  });

  it('the cap counts what an account keeps: an ended watch too', async () => {
    const a = await t.account({ rpm: 1_000_000 });
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const tomorrow = new Date(clock.now() + DAY).toISOString().slice(0, 10);
    // A calendar watch of one night, which ends once that night is past.
    const ends = await made(a, {
      call: { type: 'availability', params: { platform: 'airbnb', listingId: '12345678', startDate: today, endDate: tomorrow } },
      rules: [{ type: 'nights_available' }],
      intervalMinutes: 1440,
    });
    for (let i = 1; i < MAX_ACTIVE_WATCHES; i++) await made(a, { call: { type: 'search', params: { location: 'Lisbon' } }, rules: [{ type: 'new_listings' }], intervalMinutes: 10_080 });
    clock.advance(DAY);
    const runs = await runDueWatches(t.runtime, { accountId: a.id });
    expect(runs.find((x) => x.watchId === ends)).toMatchObject({ outcome: 'ended' });
    await expectError(await create(a, { call: { type: 'search', params: { location: 'Lisbon' } }, rules: [{ type: 'new_listings' }] }), 403, 'watch_limit_exceeded');
    // Deleting the ended one makes room.
    expect((await t.req(`/v1/watches/${ends}`, { method: 'DELETE', key: a.sandboxKey })).status).toBe(200);
    await made(a, { call: { type: 'search', params: { location: 'Lisbon' } }, rules: [{ type: 'new_listings' }] });
  }, 60_000);

  it("a watch's events: its newest WATCH_EVENTS_KEPT, none older than the retention once swept; every row bounded", async () => {
    const a = await t.account({ rpm: 1_000_000 });
    await createHook(t, a.sandboxKey, r.url, ['watch.triggered']);
    // Ten rules that hold on every run (the sandbox trigger), each run ten events; the longest name.
    const rules = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? { type: 'price_below', amount: 50 + i } : { type: 'price_drop', percent: 10 + i }));
    const id = await made(a, { call: { type: 'price', params: PRICE }, rules, intervalMinutes: 15, name: 'n'.repeat(200) });
    const count = () => sql<{ n: number }>('SELECT COUNT(*) AS n FROM watch_events WHERE watch_id = ?', id).n;
    const runs = WATCH_EVENTS_KEPT / 10 + 5;
    for (let i = 0; i < runs; i++) {
      expect((await runDueWatches(t.runtime, { accountId: a.id })).map((x) => x.events.length)).toEqual([10]);
      clock.advance(15 * MIN);
    }
    expect(count()).toBe(WATCH_EVENTS_KEPT);
    // The newest kept: the last run's events are there.
    const newest = sql<{ t: number }>('SELECT MAX(occurred_at) AS t FROM watch_events WHERE watch_id = ?', id).t;
    expect(newest).toBe(clock.now() - 15 * MIN);
    clock.advance(WATCH_EVENT_RETENTION_MS);
    await runDueWatches(t.runtime, { accountId: a.id });
    await purgeExpired(t.runtime);
    expect(count()).toBe(10);
    // Every row of what watches keep, bounded (the watch.triggered payload carries the call).
    const largest = (table: string, cols: string) => sql<{ n: number }>(`SELECT MAX(${cols}) AS n FROM ${table}`).n;
    // (The largest watch row here is a search watch's of the test before: its state keeps up to 300 listings.)
    expect(largest('watches', 'length(call) + length(rules) + coalesce(length(state), 0) + coalesce(length(name), 0) + coalesce(length(last_error), 0)')).toBeLessThan(64 * 1024);
    expect(largest('watch_events', 'length(rule) + coalesce(length(before_value), 0) + coalesce(length(after_value), 0) + length(changes)')).toBeLessThan(64 * 1024);
    expect(largest('webhook_outbox', 'length(body)')).toBeLessThan(72 * 1024);
  }, 120_000);
});
