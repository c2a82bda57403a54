// Issue 38, item 2: discovery over the real path. Each cell is a GET /v1/search with its bbox,
// paged to the end, through the executor the route uses (billedCellSearch): on the simulated
// upstream it finds all of Metropolis's airbnb listings, its charges are exactly the ledger's, and
// every listing it found is recorded as an observation with its coordinates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billedCellSearch } from '../../../src/core/ops/discovery-search.js';
import { discover } from '../../../src/core/collections/discovery.js';
import type { RequestContext } from '../../../src/core/context.js';
import { METROPOLIS, metropolisTruth } from '../../../src/sources/sandbox/metropolis.js';
import { type TestApp, startApp } from '../../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' });
});
afterAll(async () => {
  await app?.stop();
});

async function contextOf(env: 'live' | 'sandbox', credits: number): Promise<RequestContext> {
  const a = await app.account({ credits });
  const account = (await app.runtime.store.getAccount(a.id))!;
  const key = (await app.runtime.store.listKeys(a.id)).find((k) => k.env === env)!;
  return { requestId: 'req_discovery', account, key };
}

describe('discovery through the billed search path', () => {
  it('live key: finds every airbnb listing of Metropolis, bills exactly what the ledger says, records each with its coordinates', async () => {
    const ctx = await contextOf('live', 200_000);
    const billed = billedCellSearch(app.runtime, ctx, { location: 'Metropolis' });
    const r = await discover({ bbox: METROPOLIS.bbox, platforms: ['airbnb'], search: billed.search });
    const truth = metropolisTruth('airbnb');
    expect(r.listings.map((l) => l.platformListingId).sort()).toEqual(truth.map((x) => x.id).sort());
    expect(r.truncations.length).toBeGreaterThan(0);
    expect(r.truncations[0]).toMatchObject({ cap: 280, reported: truth.length });
    // Billed as the same calls by hand: every page a call, charged what its meta says.
    expect(billed.calls()).toBeGreaterThan(r.searches.airbnb!);
    expect(billed.charged()).toBeGreaterThan(0);
    const ledger = await app.runtime.store.ledger(ctx.account.id);
    const spent = -ledger.filter((l) => l.kind === 'charge').reduce((s, l) => s + l.amount, 0);
    expect(spent).toBe(billed.charged());
    // Recorded: a search observation of each listing found, with where it is.
    await app.runtime.store.observationsWritten();
    const seen = new Map<string, { lat?: number; lng?: number }>();
    for (let afterId = 0; ; ) {
      const rows = await app.runtime.store.observationsSince({ since: 0, afterId, limit: 5000 });
      if (rows.length === 0) break;
      for (const o of rows) if (o.kind === 'search' && o.platform === 'airbnb') seen.set(o.listingId, o.value as { lat?: number; lng?: number });
      afterId = rows[rows.length - 1]!.id;
    }
    const byId = new Map(truth.map((x) => [x.id, x]));
    expect(seen.size).toBe(truth.length);
    for (const [id, v] of seen) expect([v.lat, v.lng]).toEqual([byId.get(id)!.lat, byId.get(id)!.lng]);
  }, 120_000);

  it('sandbox key: the same listings, free', async () => {
    const ctx = await contextOf('sandbox', 0);
    const billed = billedCellSearch(app.runtime, ctx, { location: 'Metropolis' });
    const r = await discover({ bbox: METROPOLIS.bbox, platforms: ['vrbo'], search: billed.search });
    expect(r.listings).toHaveLength(metropolisTruth('vrbo').length);
    expect(billed.charged()).toBe(0);
  }, 120_000);
});
