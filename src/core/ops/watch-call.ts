// The call of a watch as a plan, checked as its endpoint checks it (GET /v1/price, /v1/availability,
// /v1/search): at creation, to refuse what the endpoint would refuse, and at each run, to make it.
import type { RequestContext, Services } from '../context.js';
import type { Plan } from '../plan.js';
import type { Availability, Price, Property } from '../schemas/resources.js';
import type { WatchCall } from '../schemas/watches.js';
import { availabilityPlan } from './availability.js';
import { pricePlan } from './price.js';
import { searchPlan } from './search.js';

/** A call's plan, typed by the call: its answer is what the rule engine keeps of it (analytics/watch-rules.ts). */
export type CallPlan = { type: 'price'; plan: Plan<Price> } | { type: 'availability'; plan: Plan<Availability[]> } | { type: 'search'; plan: Plan<Property[]> };

export function callPlan(services: Services, ctx: RequestContext, call: WatchCall): CallPlan {
  if (call.type === 'price') return { type: 'price', plan: pricePlan(services, ctx, call.params) };
  if (call.type === 'availability') return { type: 'availability', plan: availabilityPlan(services, ctx, call.params) };
  return { type: 'search', plan: searchPlan(services, ctx, call.params).plan };
}
