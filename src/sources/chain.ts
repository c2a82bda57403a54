// Per platform, an ordered chain of sources (primary, then fallbacks), each call bounded by a
// deadline. A definitive answer (not found, identity mismatch…) ends the chain; an upstream
// failure moves to the next source. When every source fails, the failures decide the code:
// all timed out → actor_timeout, all blocked → actor_blocked, all refused to start (429/402) →
// upstream_unavailable, else all_actors_failed.
// A source may serve only some needs (an actor per need, src/sources/apify/); each call goes
// through the sources that serve its need, in their order.
import { ServiceError, isUpstreamFailure } from '../core/errors.js';
import type { EnabledPlatform } from '../core/platforms.js';
import type { Need, SourceReport, Upstream } from '../core/upstream.js';

type Chains = Record<EnabledPlatform, Upstream[]>;

function withDeadline<T>(p: Promise<T>, ms: number, platform: string, source: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServiceError('actor_timeout', `${platform}: source ${source} gave no data within ${ms} ms.`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Why a chain has no source for a need: the upstream's own reason (an actor table's), else this. */
export type WhyUnserved = (platform: EnabledPlatform, need: Need) => string | null | undefined;
const noSource = (platform: EnabledPlatform, need: Need) => `${platform}: no source is configured for ${need} on this server.`;

async function runChain<T>(platform: EnabledPlatform, need: Need, all: Upstream[], deadlineMs: number, report: ((r: SourceReport) => void) | undefined, call: (u: Upstream) => Promise<T>): Promise<T> {
  const sources = all.filter((s) => s.serves?.(platform, need) ?? true);
  if (sources.length === 0) throw new ServiceError('upstream_unavailable', noSource(platform, need));
  const failures: ServiceError[] = [];
  for (const source of sources) {
    const started = Date.now();
    // What the source itself tells of the call (a run id, its cost), folded into one report.
    let detail: Partial<SourceReport> = {};
    const view = report && source.observe ? source.observe((r) => (detail = r)) : source;
    try {
      const value = await withDeadline(call(view), source.deadlineMs ?? deadlineMs, platform, source.name);
      report?.({ platform, need, source: source.name, ms: Date.now() - started, ...detail, ok: true });
      return value;
    } catch (e) {
      if (e instanceof ServiceError) report?.({ platform, need, source: source.name, ms: Date.now() - started, ...detail, ok: false, code: e.code });
      if (!isUpstreamFailure(e)) throw e;
      failures.push(e);
    }
  }
  if (failures.length === 1) throw failures[0]!;
  const codes = new Set(failures.map((f) => f.code));
  const detail = failures.map((f) => f.message).join(' ');
  if (codes.size === 1 && codes.has('actor_timeout')) throw new ServiceError('actor_timeout', `${platform}: every source timed out. ${detail}`);
  if (codes.size === 1 && codes.has('actor_blocked')) throw new ServiceError('actor_blocked', `${platform}: every source was blocked. ${detail}`);
  // The platform refused every start (429 rate limit, 402 memory or concurrency): retry later.
  if (codes.size === 1 && codes.has('upstream_unavailable')) throw new ServiceError('upstream_unavailable', `${platform}: every source is unavailable for now. ${detail}`);
  throw new ServiceError('all_actors_failed', `${platform}: every source failed. ${detail}`);
}

function noArea(platform: EnabledPlatform, source: string): never {
  // D12: what this server cannot ask of a platform at all is platform_not_enabled (free, not retryable).
  throw new ServiceError('platform_not_enabled', `${platform}: the source ${source} cannot search a bounding box (its actor takes no map bounds); search a location instead.`, { param: 'bbox' });
}

export function chainUpstream(chains: Chains, deadlineMs: number, report?: (r: SourceReport) => void, why?: WhyUnserved): Upstream {
  const first = Object.values(chains)[0]?.[0];
  const run = <T>(p: EnabledPlatform, need: Need, call: (u: Upstream) => Promise<T>) => runChain(p, need, chains[p], deadlineMs, report, call);
  return {
    name: first?.name ?? 'chain',
    unsupported: (p, need) => (chains[p].some((s) => s.serves?.(p, need) ?? true) ? null : (why?.(p, need) ?? noSource(p, need))),
    simulated: Object.values(chains).some((c) => c.some((u) => u.simulated)),
    estimateSeconds: (p) => chains[p][0]?.estimateSeconds(p) ?? 0,
    searchPlatform: (p, location, o) => run(p, 'search', (u) => u.searchPlatform(p, location, o)),
    // A source without searchAnswer answers a place, never an area (issue 38): it is refused an area search.
    searchAnswer: (p, location, o) => run(p, 'search', (u) => (u.searchAnswer ? u.searchAnswer(p, location, o) : o.area ? noArea(p, u.name) : u.searchPlatform(p, location, o))),
    listing: (p, id, o) => run(p, 'listing', (u) => u.listing(p, id, o)),
    price: (p, id, stay) => run(p, 'price', (u) => u.price(p, id, stay)),
    availability: (p, id, s, e) => run(p, 'availability', (u) => u.availability(p, id, s, e)),
    reviews: (p, id) => run(p, 'reviews', (u) => u.reviews(p, id)),
    compareGoogle: (q, stay) => run('google', 'compare', (u) => u.compareGoogle(q, stay)),
    // A view whose calls also go to `r` (the executor names the source of each leg with it).
    observe: (r) =>
      chainUpstream(
        chains,
        deadlineMs,
        (x) => {
          report?.(x);
          r(x);
        },
        why,
      ),
  };
}
