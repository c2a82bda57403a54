// Pieces every Family U operation shares: meta, platform checks, the live admission gate.
import { requireLiveUnlocked } from '../auth.js';
import type { RequestContext, Services } from '../context.js';
import { isSandbox } from '../context.js';
import { ServiceError, docPageUrl } from '../errors.js';
import { platformOf } from '../listing-ref.js';
import { ALL_PLATFORMS, ENABLED_PLATFORMS, type EnabledPlatform, type Platform, RATING_SCALE, isEnabled } from '../platforms.js';
import type { Meta, Pagination, PlatformResult, Warning } from '../schemas/resources.js';

/**
 * A rating filter above a platform's native scale (ratings are never rescaled) matches nothing
 * there: one warning per such platform, so an empty answer says why (issue 22, item 17).
 */
export function ratingScaleWarnings(param: string, value: number | undefined, platforms: readonly Platform[], what: string): Omit<Warning, 'docUrl'>[] {
  if (value === undefined) return [];
  const scales = ENABLED_PLATFORMS.map((p) => `${p} ${RATING_SCALE[p]}`).join(', ');
  return platforms
    .filter((p) => value > RATING_SCALE[p])
    .map((platform) => ({
      code: 'rating_out_of_scale',
      platform,
      message: `${param} ${value} is above ${platform}'s rating scale (0 to ${RATING_SCALE[platform]}), so no ${platform} ${what} can match. Ratings keep each platform's own scale (${scales}).`,
    }));
}

export function buildMeta(
  services: Services,
  ctx: RequestContext,
  m: {
    platforms: Platform[];
    currency: string;
    pagination?: Pagination | null;
    platformResults?: PlatformResult[];
    warnings?: Omit<Warning, 'docUrl'>[];
    cached?: boolean;
  },
): Meta {
  const platformResults = m.platformResults ?? [];
  return {
    requestId: ctx.requestId,
    environment: isSandbox(ctx) ? 'test' : 'live',
    sandbox: isSandbox(ctx),
    platforms: m.platforms,
    cached: m.cached ?? false,
    partial: platformResults.some((r) => r.status === 'failed'),
    creditsCharged: platformResults.reduce((s, r) => s + r.creditsCharged, 0),
    currency: m.currency,
    pagination: m.pagination ?? null,
    platformResults,
    warnings: (m.warnings ?? []).map((w) => ({ ...w, docUrl: docPageUrl(services.config.docsUrl, 'warnings', w.code) })),
  };
}

export const okResult = (platform: Platform, count: number, creditsCharged = 0, cached = false): PlatformResult => ({
  platform,
  status: 'ok',
  creditsCharged,
  cached,
  count,
});

export function failedResult(platform: Platform, err: ServiceError): PlatformResult {
  return {
    platform,
    status: 'failed',
    creditsCharged: 0,
    cached: false,
    count: 0,
    error: { type: err.type, code: err.code, message: err.message, retryable: err.retryable },
  };
}

/**
 * The platform of a single-listing call: the one asked for, else the one its listing reference
 * names (a listing URL's site, a stays_<platform>_<id> id); missing_parameter when neither says.
 */
export function platformFor(asked: Platform | undefined, ref: unknown): Platform {
  const platform = asked ?? platformOf(ref);
  if (platform === null) throw new ServiceError('missing_parameter', 'platform is required (or pass a listing URL or a stays_<platform>_<id> listingId).', { param: 'platform' });
  return platform;
}

/** Single-platform endpoints refuse a platform they do not serve with platform_not_enabled (D12). */
export function requireEnabled<P extends EnabledPlatform>(platform: Platform, allowed: readonly P[], what: string): P {
  if (!(allowed as readonly Platform[]).includes(platform)) {
    const why = isEnabled(platform) ? `${what} is not available on ${platform}` : `${platform} is not enabled on this service`;
    throw new ServiceError('platform_not_enabled', `${why}; use one of ${allowed.join(', ')}.`, { param: 'platform' });
  }
  return platform as P;
}

export function parsePlatform(value: string, param: string): Platform {
  const v = value.trim().toLowerCase();
  if (!(ALL_PLATFORMS as readonly string[]).includes(v)) {
    // Name only what can be used: the enum's other values (expedia, hotels, tripadvisor) are refused later as not enabled.
    throw new ServiceError('invalid_parameter', `${param}: unknown platform ${JSON.stringify(value)}; use one of ${ENABLED_PLATFORMS.join(', ')}.`, { param });
  }
  return v as Platform;
}

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
