// The source chain per need: sources that do not serve a need are skipped, an observed chain
// reports who served each call (the executor's meta.platformResults[].source), and a need no
// source serves is a retryable upstream_unavailable.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import type { Need, SourceReport, Upstream } from '../../src/core/upstream.js';
import { chainUpstream } from '../../src/sources/chain.js';

function source(name: string, needs: Need[], answer: () => Promise<unknown>): Upstream {
  const no = () => Promise.reject(new Error('not called'));
  return {
    name,
    simulated: false,
    estimateSeconds: () => 1,
    serves: (_p, n) => needs.includes(n),
    searchPlatform: answer as never,
    listing: no,
    price: no,
    availability: no,
    reviews: answer as never,
    compareGoogle: no,
  };
}

describe('chainUpstream per need', () => {
  it('skips sources that do not serve the need, falls back on failure, and reports each attempt', async () => {
    const a = source('a~search', ['search'], () => Promise.reject(new ServiceError('actor_blocked')));
    const b = source('b~reviews', ['reviews'], () => Promise.resolve([]));
    const c = source('c~search', ['search'], () => Promise.resolve([]));
    const chain = chainUpstream({ airbnb: [a, b, c], booking: [], vrbo: [], google: [] }, 1000);
    const seen: SourceReport[] = [];
    await chain.observe!((r) => seen.push(r)).searchPlatform('airbnb', 'x', { currency: 'USD', rooms: 1 });
    expect(seen.map((r) => [r.source, r.ok, r.code])).toEqual([
      ['a~search', false, 'actor_blocked'],
      ['c~search', true, undefined],
    ]);
    seen.length = 0;
    await chain.observe!((r) => seen.push(r)).reviews('airbnb', '1');
    expect(seen.map((r) => r.source)).toEqual(['b~reviews']);
  });

  it('a need without a source is a retryable upstream_unavailable', async () => {
    const chain = chainUpstream({ airbnb: [], booking: [], vrbo: [], google: [] }, 1000);
    const e = await chain.reviews('booking', 'us/x').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'upstream_unavailable', retryable: true });
  });
});
