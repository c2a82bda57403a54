// STAYS_UPSTREAM=apify: per platform, a chain (src/sources/chain.ts) of actor sources: one per
// (need, actor) in the configured order, each serving only its need, so a need's fallbacks follow
// its primary. Each source runs its actor (run.ts) on the mapped input (inputs.ts) and reads the
// items through the normalizers (answers.ts). Nothing here loads apify-client until a call.
import { ServiceError } from '../../core/errors.js';
import { ENABLED_PLATFORMS, type EnabledPlatform } from '../../core/platforms.js';
import { NEEDS, type Need, type SourceReport, type Upstream } from '../../core/upstream.js';
import { chainUpstream } from '../chain.js';
import { type ActorSpec, type ActorTable, unservedReason } from './actors.js';
import * as answer from './answers.js';
import { type Ask, inputFor } from './inputs.js';
import { type ClientOptions, type RunResult, runActor } from './run.js';

export interface ApifyOptions extends ClientOptions {
  actors: ActorTable;
  /** Operators' log of each run: actor, need, ms, cost (never the token). */
  log?: (r: SourceReport) => void;
  /** For tests: replaces runActor. */
  run?: typeof runActor;
}

function actorSource(platform: EnabledPlatform, need: Need, spec: ActorSpec, o: ApifyOptions, report?: (r: SourceReport) => void): Upstream {
  const run = o.run ?? runActor;
  const call = async <T>(ask: Ask, read: (c: answer.Ctx, r: RunResult) => T): Promise<T> => {
    if (ask.need !== need) throw new ServiceError('internal_error', `actor ${spec.id} serves ${need}, not ${ask.need}`);
    const started = Date.now();
    let r: RunResult | undefined;
    try {
      r = await run(o, spec, inputFor(platform, ask));
      const value = read({ platform, actor: spec.id, statusMessage: r.statusMessage }, r);
      report?.({ platform, need, source: spec.id, ok: true, ms: Date.now() - started, costUsd: r.costUsd, runId: r.runId, items: r.items.length });
      return value;
    } catch (e) {
      if (e instanceof ServiceError)
        report?.({ platform, need, source: spec.id, ok: false, code: e.code, ms: Date.now() - started, costUsd: r?.costUsd ?? null, runId: r?.runId ?? null, items: r?.items.length ?? 0 });
      throw e;
    }
  };
  const self: Upstream = {
    name: spec.id,
    simulated: false,
    // The chain's backstop deadline: the run's own timeout plus the time to start and fetch it.
    deadlineMs: (spec.timeoutSecs + 30) * 1000,
    estimateSeconds: () => Math.min(spec.timeoutSecs, 60),
    serves: (p, n) => p === platform && n === need,
    searchPlatform: (_p, location, x) => call({ need: 'search', location, currency: x.currency, rooms: x.rooms, stay: x.stay }, (c, r) => answer.searchAnswer(c, r.items, x.stay)),
    // Only airbnb's actors take a map area (a search URL with bounds, issue 38); the others are refused one (D12).
    searchAnswer: (_p, location, x) => {
      if (x.area && platform !== 'airbnb') {
        return Promise.reject(
          new ServiceError('platform_not_enabled', `${platform}: the actor ${spec.id} takes no map bounds, so it cannot search a bounding box; search a location instead.`, { param: 'bbox' }),
        );
      }
      return call({ need: 'search', location, currency: x.currency, rooms: x.rooms, stay: x.stay, area: x.area }, (c, r) => answer.searchAnswer(c, r.items, x.stay));
    },
    listing: (_p, id, x) => call({ need: 'listing', id, currency: x.currency }, (c, r) => answer.listingAnswer(c, r.items, id)),
    price: (_p, id, stay) => call({ need: 'price', id, stay }, (c, r) => answer.priceAnswer(c, r.items, id, stay)),
    availability: (_p, id, s, e) => call({ need: 'availability', id, startDate: s, endDate: e }, (c, r) => answer.availabilityAnswer(c, r.items, id, s, e)),
    reviews: (_p, id) => call({ need: 'reviews', id }, (c, r) => answer.reviewsAnswer(c, r.items, id)),
    compareGoogle: (q, stay) => call({ need: 'compare', query: q, stay }, (c, r) => answer.compareAnswer(c, r.items, q, stay)),
    observe: (r) =>
      actorSource(platform, need, spec, o, (x) => {
        report?.(x);
        r(x);
      }),
  };
  return self;
}

/** The apify upstream: per platform, every need's actors in order, under one chain. */
export function apifyUpstream(o: ApifyOptions, deadlineMs: number): Upstream {
  const chains = Object.fromEntries(ENABLED_PLATFORMS.map((p) => [p, NEEDS.flatMap((need) => o.actors[p][need].map((spec) => actorSource(p, need, spec, o, o.log)))])) as Record<
    EnabledPlatform,
    Upstream[]
  >;
  const chain = chainUpstream(chains, deadlineMs, undefined, (p, need) => unservedReason(p, need));
  return { ...chain, name: 'apify' };
}
