// GET /v1/account and POST /v1/billing/topups (D24).
import { requireScope } from '../auth.js';
import type { RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { PLANS } from '../plans.js';
import { TopupBody } from '../schemas/params.js';
import type { Account } from '../schemas/resources.js';
import type { CreditsRow } from '../../store/types.js';
import { type RawInput, parseParams } from '../validate.js';

export function creditsView(c: CreditsRow): Account['credits'] {
  return { balance: c.balance, available: c.balance - c.held, held: c.held, expiringSoon: c.expiringSoon };
}

export async function account(services: Services, ctx: RequestContext): Promise<{ data: Account }> {
  const credits = await services.store.getCredits(ctx.account.id);
  return {
    data: {
      plan: { code: ctx.account.planCode, name: ctx.account.planName, status: ctx.account.planStatus },
      key: { env: ctx.key.env },
      credits: creditsView(credits),
      rateLimit: { requestsPerMinute: ctx.account.requestsPerMinute },
    },
  };
}

export async function topup(services: Services, ctx: RequestContext, body: RawInput): Promise<{ data: { credits: Account['credits'] } }> {
  requireScope(ctx, 'billing.write');
  const { credits } = parseParams(TopupBody, body);
  const a = ctx.account;
  if (!PLANS[a.planCode].paid || (a.planStatus !== 'active' && a.planStatus !== 'trialing')) {
    throw new ServiceError('subscription_required', `Top-ups need an active paid plan; this account is on ${a.planCode} (${a.planStatus}).`);
  }
  const after = await services.store.addCredits(a.id, credits, 'topup', { requestId: ctx.requestId }, services.clock.now());
  return { data: { credits: creditsView(after) } };
}
