// Contract tests of the apify sources against the local fake of the platform's API: for each
// platform and need, the current and legacy recorded shapes, an empty dataset, a failed run, a
// timeout past the sync endpoint's limit, a 429, rows for another listing and not-found rows,
// each mapped to the right answer or error code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/core/errors.js';
import type { EnabledPlatform } from '../../../src/core/platforms.js';
import { AvailabilitySchema, PriceSchema, PropertySchema, ReviewSchema } from '../../../src/core/schemas/resources.js';
import type { Need, SourceReport, Upstream } from '../../../src/core/upstream.js';
import { ACTORS, FIXTURES, IDS, NOT_FOUND_ROWS } from '../../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../../fakes/apify/server.js';
import { actorsSetting, ask, upstreamOver } from './helpers.js';

let fake: ApifyFake;
let u: Upstream;
beforeAll(async () => {
  fake = await startApifyFake({ syncLimitMs: 300 });
  u = upstreamOver(fake);
});
afterAll(() => fake.close());

async function fails(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => new Error('expected a failure'),
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}

/** What a good answer of each need looks like (schema-valid, about the listing asked for). */
function expectAnswer(p: EnabledPlatform, need: Need, v: unknown) {
  switch (need) {
    case 'search': {
      const rows = v as unknown[];
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(PropertySchema.parse(r).platform).toBe(p);
      expect((rows as { platformListingId: string }[]).map((r) => r.platformListingId)).toContain(IDS[p]);
      return;
    }
    case 'listing':
      expect(PropertySchema.omit({ price: true, identity: true }).parse(v).platformListingId).toBe(IDS[p]);
      return;
    case 'price': {
      const q = PriceSchema.parse(v);
      expect(q).toMatchObject({ listingId: IDS[p], nights: 2 });
      expect(q.totalPrice).toBeGreaterThan(0);
      return;
    }
    case 'availability': {
      const a = AvailabilitySchema.parse(v);
      expect(a.listingId).toBe(IDS[p]);
      expect(a.dates.map((d) => d.date)).toEqual(['2026-11-06', '2026-11-07']);
      return;
    }
    case 'reviews': {
      const rs = v as unknown[];
      expect(rs.length).toBeGreaterThan(0);
      for (const r of rs) expect(ReviewSchema.parse(r).listingId).toBe(IDS[p]);
      return;
    }
    case 'compare':
      expect((v as { offers: unknown[] }).offers.length).toBeGreaterThan(0);
      return;
  }
}

const CASES = Object.entries(FIXTURES).flatMap(([p, needs]) => Object.keys(needs).map((n) => [p as EnabledPlatform, n as Need] as const));
const SINGLE = new Set<Need>(['listing', 'price', 'availability', 'reviews']);

describe.each(CASES)('%s %s', (p, need) => {
  const actor = ACTORS[p][need]!;
  const shapes = FIXTURES[p][need]!;

  it('reads the current shape, served by the configured actor over Bearer auth', async () => {
    fake.script(actor, { kind: 'items', items: shapes.normal });
    const seen: SourceReport[] = [];
    expectAnswer(
      p,
      need,
      await ask(
        u.observe!((r) => seen.push(r)),
        p,
        need,
      ),
    );
    expect(seen).toMatchObject([{ platform: p, need, source: actor, ok: true }]);
    const call = fake.calls.filter((c) => c.actor === actor).at(-1)!;
    expect(call).toMatchObject({ method: 'POST', auth: 'bearer' });
    expect(call.path).toBe(`/v2/actors/${actor}/run-sync-get-dataset-items`);
    // Ids go out as strings or URLs, never as numbers that lose digits.
    expect(JSON.stringify(call.input)).not.toMatch(/\b1381151382891849\d{3}\b(?!")/);
  });

  it('reads the legacy shape', async () => {
    fake.script(actor, { kind: 'items', items: shapes.legacy });
    expectAnswer(p, need, await ask(u, p, need));
  });

  if (need === 'search') {
    // Issue 36, item 6: an empty search is an answer unless the run or the query's width says block.
    it('an empty dataset of a SUCCEEDED sync run: a dated search is an empty answer, an undated one a block', async () => {
      fake.script(actor, { kind: 'empty' });
      expect(await ask(u, p, need)).toEqual([]);
      expect((await fails(u.searchPlatform(p, 'Prague', { currency: 'USD', rooms: 1 }))).code).toBe('actor_blocked');
    });

    it('an async run with no rows: its status message decides (pages loaded: empty; failed requests: a block)', async () => {
      const async = upstreamOver(fake, actorsSetting({ actors: { [actor]: { mode: 'async' } } }));
      fake.script(actor, { kind: 'empty', statusMessage: 'Finished! Total 3 requests: 3 succeeded, 0 failed.' });
      expect(await async.searchPlatform(p, 'Prague', { currency: 'USD', rooms: 1 })).toEqual([]);
      fake.script(actor, { kind: 'empty', statusMessage: 'Finished! Total 1 requests: 0 succeeded, 1 failed.' });
      expect((await fails(ask(async, p, need))).code).toBe('actor_blocked');
    });
  } else {
    it('an empty dataset of a SUCCEEDED run is actor_blocked', async () => {
      fake.script(actor, { kind: 'empty' });
      expect((await fails(ask(u, p, need))).code).toBe('actor_blocked');
    });
  }

  it('a FAILED run is all_actors_failed', async () => {
    fake.script(actor, { kind: 'failed', statusMessage: "TypeError: Cannot read properties of undefined (reading 'map')" });
    expect((await fails(ask(u, p, need))).code).toBe('all_actors_failed');
  });

  it('a run past the sync limit (408) is actor_timeout', async () => {
    fake.script(actor, { kind: 'slow', runMs: 5_000 });
    expect((await fails(ask(u, p, need))).code).toBe('actor_timeout');
  });

  it('a 429 is a retryable upstream_unavailable', async () => {
    fake.script(actor, { kind: 'rate-limit' });
    expect(await fails(ask(u, p, need))).toMatchObject({ code: 'upstream_unavailable', retryable: true });
  });

  if (shapes.other) {
    it('rows about another listing are identity_mismatch, never that listing', async () => {
      fake.script(actor, { kind: 'items', items: shapes.other! });
      expect((await fails(ask(u, p, need))).code).toBe('identity_mismatch');
    });
  }

  if (SINGLE.has(need)) {
    it('a not-found row is listing_not_found', async () => {
      fake.script(actor, { kind: 'items', items: NOT_FOUND_ROWS });
      expect((await fails(ask(u, p, need))).code).toBe('listing_not_found');
    });
  }
});
