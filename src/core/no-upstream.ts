// A live call on a server started without an upstream source (the executor's first check).
import { requireLiveUnlocked } from './auth.js';
import type { RequestContext, Services } from './context.js';
import { ServiceError } from './errors.js';

/**
 * A live call on a server with no upstream source: the admission checks still apply (D5, D7,
 * D27) so the caller learns what a configured server would say, then 503; nothing is held.
 */
export async function refuseWithoutUpstream(services: Services, ctx: RequestContext, worstCase: number): Promise<never> {
  requireLiveUnlocked(ctx);
  const credits = await services.store.getCredits(ctx.account.id);
  if (ctx.account.planCode === 'free' && credits.spent + credits.held + worstCase > ctx.account.freeTierBudget) {
    throw new ServiceError(
      'free_tier_budget_exhausted',
      `This call may cost up to ${worstCase} credits, which would take the free-tier spend (${credits.spent} of ${ctx.account.freeTierBudget}) past its budget.`,
    );
  }
  const available = credits.balance - credits.held;
  if (available < worstCase) {
    throw new ServiceError('credit_balance_too_low', `This call may cost up to ${worstCase} credits; ${available} ${available === 1 ? 'is' : 'are'} available.`);
  }
  throw new ServiceError(
    'upstream_unavailable',
    'No upstream source is configured on this server, so live keys cannot fetch data. Start it with STAYS_UPSTREAM=simulated for the simulated upstream, or use a stay_test_ key for the sandbox.',
  );
}
