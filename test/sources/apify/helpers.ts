// Shared by the apify contract tests: the upstream over the fake, and one call per need.
import type { EnabledPlatform } from '../../../src/core/platforms.js';
import type { Need, StayQuery, Upstream } from '../../../src/core/upstream.js';
import { resolveActors } from '../../../src/sources/apify/actors.js';
import { apifyUpstream } from '../../../src/sources/apify/index.js';
import type { ApifyFake } from '../../fakes/apify/server.js';
import { ACTORS, IDS } from '../../fakes/apify/fixtures.js';

export const stay: StayQuery = { checkIn: '2026-11-06', checkOut: '2026-11-08', adults: 2, children: 0, childAges: [], currency: 'USD' };

/** STAYS_ACTORS as the tests configure it: one actor per platform and need (ACTORS). */
export const actorsSetting = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    ...Object.fromEntries(Object.entries(ACTORS).map(([p, needs]) => [p, Object.fromEntries(Object.entries(needs).map(([n, a]) => [n, [a]]))])),
    ...extra,
  });

export function upstreamOver(fake: ApifyFake, setting = actorsSetting()): Upstream {
  return apifyUpstream({ token: fake.token, baseUrl: fake.url, maxRetries: 0, actors: resolveActors(setting) }, 30_000);
}

export function ask(u: Upstream, p: EnabledPlatform, need: Need): Promise<unknown> {
  switch (need) {
    case 'search':
      return u.searchPlatform(p, 'Prague', { currency: 'USD', rooms: 1, stay });
    case 'listing':
      return u.listing(p, IDS[p], { currency: 'USD' });
    case 'price':
      return u.price(p, IDS[p], stay);
    case 'availability':
      return u.availability(p, IDS[p], '2026-11-06', '2026-11-08');
    case 'reviews':
      return u.reviews(p, IDS[p]);
    case 'compare':
      return u.compareGoogle({ googleHotelId: IDS.google }, stay);
  }
}
