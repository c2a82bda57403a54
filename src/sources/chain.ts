// Per platform, an ordered chain of sources (primary, then fallbacks), each call bounded by a
// deadline. A definitive answer (not found, identity mismatch…) ends the chain; an upstream
// failure moves to the next source. When every source fails, the failures decide the code:
// all timed out → actor_timeout, all blocked → actor_blocked, else all_actors_failed.
import { ServiceError, isUpstreamFailure } from '../core/errors.js';
import type { EnabledPlatform } from '../core/platforms.js';
import type { Upstream } from '../core/upstream.js';

type Chains = Record<EnabledPlatform, Upstream[]>;

function withDeadline<T>(p: Promise<T>, ms: number, platform: string, source: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServiceError('actor_timeout', `${platform}: source ${source} gave no data within ${ms} ms.`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

async function runChain<T>(platform: EnabledPlatform, sources: Upstream[], deadlineMs: number, call: (u: Upstream) => Promise<T>): Promise<T> {
  const failures: ServiceError[] = [];
  for (const source of sources) {
    try {
      return await withDeadline(call(source), deadlineMs, platform, source.name);
    } catch (e) {
      if (!isUpstreamFailure(e)) throw e;
      failures.push(e);
    }
  }
  if (failures.length === 1) throw failures[0]!;
  const codes = new Set(failures.map((f) => f.code));
  const detail = failures.map((f) => f.message).join(' ');
  if (codes.size === 1 && codes.has('actor_timeout')) throw new ServiceError('actor_timeout', `${platform}: every source timed out. ${detail}`);
  if (codes.size === 1 && codes.has('actor_blocked')) throw new ServiceError('actor_blocked', `${platform}: every source was blocked. ${detail}`);
  throw new ServiceError('all_actors_failed', `${platform}: every source failed. ${detail}`);
}

export function chainUpstream(chains: Chains, deadlineMs: number): Upstream {
  const first = Object.values(chains)[0]?.[0];
  const run = <T>(p: EnabledPlatform, call: (u: Upstream) => Promise<T>) => runChain(p, chains[p], deadlineMs, call);
  return {
    name: first?.name ?? 'chain',
    simulated: Object.values(chains).some((c) => c.some((u) => u.simulated)),
    estimateSeconds: (p) => chains[p][0]?.estimateSeconds(p) ?? 0,
    searchPlatform: (p, location, o) => run(p, (u) => u.searchPlatform(p, location, o)),
    listing: (p, id, o) => run(p, (u) => u.listing(p, id, o)),
    price: (p, id, stay) => run(p, (u) => u.price(p, id, stay)),
    availability: (p, id, s, e) => run(p, (u) => u.availability(p, id, s, e)),
    reviews: (p, id) => run(p, (u) => u.reviews(p, id)),
    compareGoogle: (q, stay) => run('google', (u) => u.compareGoogle(q, stay)),
  };
}
