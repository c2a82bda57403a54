// The sandbox world behind the upstream port: answers at once, from the deterministic world.
import type { Upstream } from '../../core/upstream.js';
import type { SandboxWorld } from './types.js';

export function sandboxUpstream(world: SandboxWorld, name = 'sandbox'): Upstream {
  return {
    name,
    simulated: false,
    estimateSeconds: () => 0,
    searchPlatform: async (p, location, opts) => world.searchPlatform(p, location, opts),
    searchCandidates: async (p, location, opts) => world.searchCandidates(p, location, opts),
    listing: async (p, id, opts) => {
      const { price: _price, identity: _identity, ...body } = world.listing(p, id, { currency: opts.currency, requestedId: id });
      return body;
    },
    price: async (p, id, stay) => world.price(p, id, stay),
    availability: async (p, id, start, end) => world.availability(p, id, start, end),
    reviews: async (p, id) => world.reviews(p, id),
    compareGoogle: async (q, stay) => world.compareGoogle(q, stay),
  };
}
