// The sandbox world behind the upstream port: answers at once, from the deterministic world.
import { ENABLED_PLATFORMS } from '../../core/platforms.js';
import type { Property } from '../../core/schemas/resources.js';
import type { PhotographedListing, Upstream } from '../../core/upstream.js';
import { sandboxTruth } from './truth.js';
import type { SandboxWorld } from './types.js';

export function sandboxUpstream(world: SandboxWorld, name = 'sandbox'): Upstream {
  return {
    name,
    simulated: false,
    estimateSeconds: () => 0,
    searchPlatform: async (p, location, opts) => world.searchPlatform(p, location, opts),
    searchCandidates: async (p, location, opts) => world.searchCandidates(p, location, opts),
    searchAnswer: async (p, location, opts) => world.searchAnswer(p, location, opts),
    listing: async (p, id, opts) => {
      const { price: _price, identity: _identity, ...body } = world.listing(p, id, { currency: opts.currency, requestedId: id });
      return body;
    },
    price: async (p, id, stay) => world.price(p, id, stay),
    availability: async (p, id, start, end) => world.availability(p, id, start, end),
    reviews: async (p, id) => world.reviews(p, id),
    compareGoogle: async (q, stay) => world.compareGoogle(q, stay),
    matchCandidates: async (p, id) => {
      const subject = world.listing(p, id, { currency: 'USD', requestedId: id });
      const photos = (x: Property) => x.images.map((u) => sandboxTruth.photoHash(u)).filter((h): h is string => h !== null);
      const seen = new Set([`${p}:${id}`]);
      const candidates: PhotographedListing[] = [];
      const add = (x: Property) => {
        const k = `${x.platform}:${x.platformListingId}`;
        if (x.platform === p || seen.has(k)) return;
        seen.add(k);
        candidates.push({ property: x, photoHashes: photos(x) });
      };
      // The truth's listings around it (the property's, its neighbours'), then every search row of its city.
      for (const m of sandboxTruth.around(p, id)) add(world.listing(m.platform, m.id, { currency: 'USD', requestedId: m.id }));
      const city = subject.location.city;
      if (city) {
        for (const other of ENABLED_PLATFORMS) {
          if (other === p) continue;
          for (const row of world.searchPlatform(other, city, { currency: 'USD', rooms: 1 })) add(world.listing(other, row.platformListingId, { currency: 'USD', requestedId: row.platformListingId }));
        }
      }
      return { subject: { property: subject, photoHashes: photos(subject) }, candidates };
    },
  };
}
