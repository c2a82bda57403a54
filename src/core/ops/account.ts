// GET /v1/account and POST /v1/billing/topups (D24).
import { requireScope } from '../auth.js';
import type { RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { PLANS } from '../plans.js';
import { topupBody } from '../schemas/param-schemas.js';
import type { Account } from '../schemas/resources.js';
import type { CreditsRow } from '../ports/store.js';
import { type RawInput, parseParams } from '../validate.js';
import { DAY_MS } from '../clock.js';

function creditsView(c: CreditsRow): Account['credits'] {
  return { balance: c.balance, available: c.balance - c.held, held: c.held, expiringSoon: c.expiringSoon };
}

export async function account(services: Services, ctx: RequestContext): Promise<{ data: Account }> {
  const credits = await services.store.getCredits(ctx.account.id);
  return {
    data: {
      id: ctx.account.id,
      plan: { code: ctx.account.planCode, name: ctx.account.planName, status: ctx.account.planStatus },
      key: { env: ctx.key.env },
      credits: creditsView(credits),
      rateLimit: { requestsPerMinute: ctx.account.requestsPerMinute },
    },
  };
}

/**
 * D24 as amended. The checks run in this order (docs/decisions.md, "Top-up guards"): the key's
 * scope, the body, the plan (both environments, so a sandbox integration meets the answer its
 * live twin would), then a sandbox key gets its test-mode answer (the figures as they are, nothing
 * written), and only a live top-up meets the server's daily cap, checked and written in one
 * store transaction so concurrent top-ups cannot pass it together.
 */
export async function topup(services: Services, ctx: RequestContext, body: RawInput): Promise<{ data: { credits: Account['credits'] } }> {
  requireScope(ctx, 'billing.write');
  const { credits } = parseParams(topupBody(), body);
  const a = ctx.account;
  if (!PLANS[a.planCode].paid || (a.planStatus !== 'active' && a.planStatus !== 'trialing')) {
    throw new ServiceError('subscription_required', `Top-ups need an active paid plan; this account is on ${a.planCode} (${a.planStatus}).`);
  }
  if (ctx.key.env === 'sandbox') return { data: { credits: creditsView(await services.store.getCredits(a.id)) } };

  const max = services.config.topupMaxPerDay;
  if (max === 0) throw new ServiceError('topups_disabled');
  const now = services.clock.now();
  const r = await services.store.topup({ accountId: a.id, credits, keyId: ctx.key.id, requestId: ctx.requestId, at: now, since: now - (now % DAY_MS), max });
  if (!r.ok) {
    const left = Math.max(0, max - r.used);
    const what = left === 0 ? 'none remain today' : `${left} remain today`;
    const next = left === 0 ? 'Ask the operator for more' : `Top up at most ${left}, or ask the operator for more`;
    throw new ServiceError(
      'topup_limit_exceeded',
      `Top-ups are capped at ${max} credits per account per UTC day; ${r.used} used, ${what} (the cap resets at 00:00 UTC). ${next}: stays admin credits grant.`,
      { param: 'credits' },
    );
  }
  return { data: { credits: creditsView(r.credits) } };
}
