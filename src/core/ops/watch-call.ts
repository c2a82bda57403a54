// The call of a watch as a plan, checked as its endpoint checks it (GET /v1/price, /v1/availability,
// /v1/search): at creation, to refuse what the endpoint would refuse, and at each run, to make it.
import type { RequestContext, Services } from '../context.js';
import type { LegOutcome, Plan } from '../plan.js';
import type { Availability, Price, Property } from '../schemas/resources.js';
import type { WatchCall } from '../schemas/watches.js';
import { availabilityPlan } from './availability.js';
import { pricePlan } from './price.js';
import { searchPlan } from './search.js';

/**
 * A call's plan, typed by the call: its answer is what the rule engine keeps of it
 * (analytics/watch-rules.ts). A search's also gives, once composed, every listing its legs fetched
 * that matches the query, whatever the page (null if the answer came composed by another call).
 */
export type CallPlan = { type: 'price'; plan: Plan<Price> } | { type: 'availability'; plan: Plan<Availability[]> } | { type: 'search'; plan: Plan<Property[]>; whole(): Property[] | null };

export function callPlan(services: Services, ctx: RequestContext, call: WatchCall): CallPlan {
  if (call.type === 'price') return { type: 'price', plan: pricePlan(services, ctx, call.params) };
  if (call.type === 'availability') return { type: 'availability', plan: availabilityPlan(services, ctx, call.params) };
  const sp = searchPlan(services, ctx, call.params);
  let seen: LegOutcome[] | null = null;
  const plan: Plan<Property[]> = {
    ...sp.plan,
    compose: (outcomes) => {
      seen = outcomes;
      return sp.plan.compose(outcomes);
    },
  };
  return { type: 'search', plan, whole: () => (seen === null ? null : sp.matching(seen)) };
}
