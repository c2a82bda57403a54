// Watches (issue 26, item 4): POST/GET/DELETE /v1/watches and GET /v1/watches/{id}/events over the
// app in-process on the SQLite store, the runs made by runDueWatches (what `stays serve` does on
// its tick) on a manual clock: each run billed as the same call by hand, the cap per day, events
// as rows and as signed watch.triggered webhook deliveries, the sandbox trigger, typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { runDueWatches } from '../../src/core/ops/watch-runs.js';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import type { TestAccount } from '../helpers/stays.js';
import { createHook } from '../helpers/webhooks.js';

const MIN = 60_000;
const clock = manualClock(Date.UTC(2026, 10, 26, 12));
let t: TestApp;
let a: TestAccount;
let r: Receiver;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  a = await t.account({ credits: 10_000, rpm: 100_000 });
  r = await startReceiver();
});
afterAll(async () => {
  await t?.stop();
  await r?.close();
});

type Body = { data: Record<string, unknown> & Record<string, unknown>[]; meta: Record<string, unknown> };
const call = async (method: string, path: string, key: string, body?: unknown) => {
  const res = await t.req(path, { method, key, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Body };
};
const balance = async () => (await t.admin<{ credits: { balance: number } }>('account', 'show', a.id)).credits.balance;
const PRICE = { platform: 'airbnb', checkIn: '2027-03-01', checkOut: '2027-03-04', adults: 2 };

describe('watches', () => {
  it('sandbox: listing 100 triggers every rule on every run, free, as rows and signed webhook deliveries', async () => {
    const hook = await createHook(t, a.sandboxKey, r.url, ['watch.triggered']);
    const made = await call('POST', '/v1/watches', a.sandboxKey, {
      name: 'trigger',
      call: { type: 'price', params: { ...PRICE, listingId: '100' } },
      rules: [
        { type: 'price_below', amount: 50 },
        { type: 'price_drop', percent: 10, field: 'totalPrice' },
      ],
      intervalMinutes: 15,
    });
    expect(made.status).toBe(201);
    const w = made.body.data as unknown as { id: string; status: string; nextRunAt: string; rules: unknown[] };
    expect(w).toMatchObject({ status: 'active', nextRunAt: new Date(clock.now()).toISOString() });
    expect(w.rules).toEqual([
      { type: 'price_below', amount: 50, field: 'nightlyPrice' },
      { type: 'price_drop', percent: 10, field: 'totalPrice' },
    ]);
    const before = await balance();
    const first = await runDueWatches(t.runtime, { accountId: a.id });
    expect(first.map((x) => [x.watchId, x.outcome, x.events.length])).toEqual([[w.id, 'ok', 2]]);
    // Not due again until its interval passed.
    expect(await runDueWatches(t.runtime, { accountId: a.id })).toEqual([]);
    // Its deliveries made before the clock moves on (an attempt in flight would outlive its lease).
    await r.waitFor(2, 10_000, (x) => x.body.event === 'watch.triggered');
    while (t.runtime.dispatcher.active > 0) await new Promise((ok) => setTimeout(ok, 10));
    clock.advance(15 * MIN);
    const second = await runDueWatches(t.runtime, { accountId: a.id });
    expect(second[0]!.events).toHaveLength(2);
    expect(await balance()).toBe(before);
    const below = first[0]!.events[0]!;
    expect((below.after as { nightlyPrice: number }).nightlyPrice).toBeLessThan(50);

    const events = await call('GET', `/v1/watches/${w.id}/events`, a.sandboxKey);
    expect(events.status).toBe(200);
    expect(events.body.data.map((e) => (e.rule as { type: string }).type)).toEqual(['price_below', 'price_drop', 'price_below', 'price_drop']);
    // Each event is one signed delivery, its watch_event_id the event's id, signed when its run was (the manual clock's time then).
    const got = await r.waitFor(4, 10_000, (x) => x.body.event === 'watch.triggered');
    expect(got.map((x) => x.body.data.watch_event_id).sort()).toEqual(events.body.data.map((e) => e.id).sort());
    for (const x of got) {
      // Signed at the real time, whatever the service's clock (issue 36, item 18).
      expect(verifyWebhook(x.raw, String(x.headers['x-service-signature']), hook.secret).ok).toBe(true);
      expect(x.body.data).toMatchObject({ watch_id: w.id, name: 'trigger', call: { type: 'price' } });
    }
    const shown = await call('GET', `/v1/watches/${w.id}`, a.sandboxKey);
    expect(shown.body.data).toMatchObject({ runs: 2, triggers: 4, lastRun: { outcome: 'ok', creditsCharged: 0, error: null }, creditsToday: 0 });
    expect((await call('DELETE', `/v1/watches/${w.id}`, a.sandboxKey)).body.data).toMatchObject({ status: 'deleted', nextRunAt: null });
    clock.advance(15 * MIN);
    expect(await runDueWatches(t.runtime, { accountId: a.id })).toEqual([]);
    await expectError(await t.req(`/v1/watches/${w.id}/events`, { key: a.sandboxKey }), 404, 'watch_not_found', 'id');
  });

  it('live: each run billed as the same call by hand; nothing changed, no event; the daily cap skips runs for free', async () => {
    const found = await t.req('/v1/search?location=Faro&platforms=airbnb&limit=1', { key: a.liveKey, headers: { prefer: 'wait=30' } }).then(async (x) => (await x.json()) as Body);
    const id = (found.data[0] as { platformListingId: string }).platformListingId;
    const made = await call('POST', '/v1/watches', a.liveKey, {
      call: { type: 'price', params: { ...PRICE, listingId: id } },
      rules: [{ type: 'price_drop', percent: 50 }],
      intervalMinutes: 60,
      maxCreditsPerDay: 6,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const wid = (made.body.data as unknown as { id: string }).id;
    const b0 = await balance();
    const [run1] = await runDueWatches(t.runtime, { accountId: a.id });
    expect(run1).toMatchObject({ watchId: wid, outcome: 'ok', events: [] });
    // A quote by hand costs what the run cost (the spec's price: the run's charge, to the credit).
    expect(b0 - (await balance())).toBe(run1!.creditsCharged);
    expect(run1!.creditsCharged).toBeGreaterThan(0);
    clock.advance(61 * MIN);
    const [run2] = await runDueWatches(t.runtime, { accountId: a.id });
    clock.advance(61 * MIN);
    const [run3] = await runDueWatches(t.runtime, { accountId: a.id });
    const spent = run1!.creditsCharged + run2!.creditsCharged + run3!.creditsCharged;
    expect(b0 - (await balance())).toBe(spent);
    expect(spent).toBeLessThanOrEqual(6);
    // A run that could take the day past the cap (a quote may cost 3) is skipped, free, saying why; the others ran.
    let day = 0;
    for (const run of [run1!, run2!, run3!]) {
      if (day + 3 > 6) expect(run).toMatchObject({ outcome: 'skipped', creditsCharged: 0, error: { code: 'max_credits_per_day' } });
      else expect(run.outcome).toBe('ok');
      day += run.creditsCharged;
    }
    expect(run3!.outcome).toBe('skipped');
    const shown = await call('GET', `/v1/watches/${wid}`, a.liveKey);
    expect(shown.body.data).toMatchObject({ runs: 3, creditsToday: spent });
    // The sandbox key's list does not show the live watch.
    const listed = await call('GET', '/v1/watches', a.sandboxKey);
    expect(listed.body.data.map((w) => w.id)).not.toContain(wid);
    await expectError(await t.req(`/v1/watches/${wid}`, { key: a.sandboxKey }), 404, 'watch_not_found', 'id');
  });

  it('bad input: typed errors, free, never a 500', async () => {
    const b0 = await balance();
    const base = { call: { type: 'price', params: { ...PRICE, listingId: '12345' } }, rules: [{ type: 'price_below', amount: 100 }] };
    const cases: [unknown, string, string][] = [
      [{ ...base, intervalMinutes: 5 }, 'invalid_parameter', 'intervalMinutes'],
      [{ ...base, rules: [] }, 'invalid_parameter', 'rules'],
      [{ ...base, rules: [{ type: 'new_listings' }] }, 'invalid_parameter', 'rules[0].type'],
      [{ ...base, rules: [{ type: 'price_below' }] }, 'invalid_parameter', 'rules[0].amount'],
      [{ ...base, rules: [{ type: 'price_below', amount: -3 }] }, 'invalid_parameter', 'rules[0].amount'],
      [{ ...base, rules: [{ type: 'price_drop', percent: 100 }] }, 'invalid_parameter', 'rules[0].percent'],
      [{ ...base, call: { type: 'price', params: { ...PRICE, listingId: '1', checkOut: '2027-02-01' } } }, 'invalid_date_range', 'call.params.checkOut'],
      [{ ...base, call: { type: 'weather', params: {} } }, 'invalid_parameter', 'call.type'],
      [
        { call: { type: 'availability', params: { platform: 'booking', listingId: 'us/hotel-x', startDate: '2027-03-01', endDate: '2027-03-10' } }, rules: [{ type: 'min_nights_changed' }] },
        'invalid_parameter',
        'rules[0].type',
      ],
      [{ ...base, maxCreditsPerDay: 0 }, 'invalid_parameter', 'maxCreditsPerDay'],
    ];
    for (const [body, code, param] of cases) {
      const res = await t.req('/v1/watches', { method: 'POST', key: a.liveKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await expectError(res, 400, code, param);
    }
    await expectError(await t.req('/v1/watches/wat_nope', { key: a.liveKey }), 404, 'watch_not_found', 'id');
    await expectError(await t.req('/v1/watches/wat_nope', { method: 'DELETE', key: a.liveKey }), 404, 'watch_not_found', 'id');
    await expectError(await t.req('/v1/watches?cursor=zz', { key: a.liveKey }), 400, 'invalid_cursor', 'cursor');
    expect(await balance()).toBe(b0);
  });
});
