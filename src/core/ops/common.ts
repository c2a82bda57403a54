// Pieces every Family U operation shares: platform checks (the meta is ../meta.ts, the executor's too).
import { ServiceError } from '../errors.js';
import { platformOf } from '../listing-ref.js';
import { ALL_PLATFORMS, ENABLED_PLATFORMS, type EnabledPlatform, type Platform, RATING_SCALE, isEnabled } from '../platforms.js';
import type { PlatformResult, Warning } from '../schemas/resources.js';

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
