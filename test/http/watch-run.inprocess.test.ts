// POST /v1/watches/run (issue 34, item 5) over real HTTP on loopback (serveIn: `stays serve`'s
// startServer in this process): the due watches of the key's account and environment each run once
// and are answered as run reports (outcome, charge, events, with the watch's name and call); a
// second call at once runs nothing; another account's and the other environment's watches are not
// run; bad input is a typed 400 that charges nothing and runs nothing; the scopes as on every
// write route of watches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchRunView } from '../../src/core/schemas/watch-runs.js';
import { expectError, expectOk } from '../helpers/assert.js';
import type { TestAccount } from '../helpers/stays.js';
import { type Served, serveIn } from '../cli/serve-in.js';

const PRICE = { type: 'price', params: { platform: 'airbnb', listingId: '100', checkIn: '2027-03-01', checkOut: '2027-03-04' } };

describe('POST /v1/watches/run', () => {
  let s: Served;
  let a: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    s = await serveIn();
    a = await s.account({ rpm: 100_000 });
    other = await s.account({ rpm: 100_000 });
  });
  afterAll(async () => {
    await s?.stop();
  });
  const post = (path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
    s.req(path, { method: 'POST', key, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const create = async (key: string, name: string) => {
    const res = await post('/v1/watches', key, { call: PRICE, rules: [{ type: 'price_below', amount: 150 }], name });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };

  it("runs the key's due watches once: a report each, with its events; then nothing is due", async () => {
    const mine = await create(a.sandboxKey, 'mine');
    const theirs = await create(other.sandboxKey, 'theirs');
    const live = await create(a.liveKey, 'live, not run by a sandbox key');

    const { data, meta } = await expectOk<WatchRunView[]>(await post('/v1/watches/run', a.sandboxKey));
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ watchId: mine, name: 'mine', call: PRICE, outcome: 'ok', creditsCharged: 0, error: null });
    expect(data[0]!.events.map((e) => [e.watchId, e.rule.type])).toEqual([[mine, 'price_below']]);
    expect(meta.creditsCharged).toBe(0);
    // The events are the watch's own (GET /v1/watches/{id}/events).
    const events = await expectOk<{ id: string }[]>(await s.req(`/v1/watches/${mine}/events`, { key: a.sandboxKey }));
    expect(events.data.map((e) => e.id)).toEqual(data[0]!.events.map((e) => e.id));

    // Claimed and moved on by its interval: at once again, nothing runs (no body at all is the same as {}).
    const again = await expectOk<WatchRunView[]>(await s.req('/v1/watches/run', { method: 'POST', key: a.sandboxKey }));
    expect(again.data).toEqual([]);
    // The other account's and the other environment's watches did not run.
    for (const [id, key] of [
      [theirs, other.sandboxKey],
      [live, a.liveKey],
    ] as const) {
      expect((await expectOk<{ runs: number }>(await s.req(`/v1/watches/${id}`, { key }))).data.runs, id).toBe(0);
    }
  });

  it('bad input is a typed 400, charging nothing and running nothing', async () => {
    const due = await create(other.sandboxKey, 'due');
    const field = await expectError(await post('/v1/watches/run', other.sandboxKey, { limit: 1 }), 400, 'invalid_parameter', 'limit');
    expect(field.error.type).toBe('invalid_request');
    expect(field.error.message).toMatch(/takes no fields \(got "limit"\)/);
    await expectError(await post('/v1/watches/run', other.sandboxKey, [1]), 400, 'invalid_parameter', 'body');
    await expectError(await s.req('/v1/watches/run', { method: 'POST', key: other.sandboxKey, headers: { 'content-type': 'application/json' }, body: '{"a":' }), 400, 'invalid_parameter', 'body');
    await expectError(await s.req('/v1/watches/run', { method: 'POST', key: other.sandboxKey, headers: { 'content-type': 'text/plain' }, body: 'run' }), 415, 'unsupported_media_type');
    expect((await expectOk<{ runs: number }>(await s.req(`/v1/watches/${due}`, { key: other.sandboxKey }))).data.runs).toBe(0);
    // Then the good call runs it (and the account's watch made in the test before, due since).
    const ran = await expectOk<WatchRunView[]>(await post('/v1/watches/run', other.sandboxKey, {}));
    expect(ran.data.map((r) => r.watchId)).toContain(due);
  });

  it('needs a key (401) with watches.write (403 scope_insufficient)', async () => {
    await expectError(await s.req('/v1/watches/run', { method: 'POST' }), 401, 'missing_api_key');
    const readOnly = await s.account({ scopes: 'stays.read,account.read' });
    await expectError(await post('/v1/watches/run', readOnly.sandboxKey, {}), 403, 'scope_insufficient');
  });
});
