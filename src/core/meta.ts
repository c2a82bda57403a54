// The meta of every answer (Family U): request id, environment, platforms, what was charged and
// why, warnings with their doc pages. The executor and every operation build it here.
import { type RequestContext, type Services, isSandbox } from './context.js';
import { docPageUrl } from './errors.js';
import type { Platform } from './platforms.js';
import type { Meta, Pagination, PlatformResult, Warning } from './schemas/resources.js';

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
    truncated?: Meta['truncated'];
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
    // Only when a cap cut an answer: every other meta stays as it was (issue 38).
    ...(m.truncated && m.truncated.length > 0 ? { truncated: m.truncated } : {}),
  };
}
