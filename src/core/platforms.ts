// Platform values (spec "Platform values") and which are enabled where (D12).

export const ALL_PLATFORMS = ['airbnb', 'booking', 'vrbo', 'expedia', 'hotels', 'google', 'tripadvisor'] as const;
export type Platform = (typeof ALL_PLATFORMS)[number];

/** D12: the platforms this service can reach. The others are valid values that are not enabled. */
export const ENABLED_PLATFORMS = ['vrbo', 'booking', 'airbnb', 'google'] as const satisfies readonly Platform[];
export type EnabledPlatform = (typeof ENABLED_PLATFORMS)[number];

/** Search fan-out order when platforms[] is omitted (spec default vrbo,booking,airbnb,google). */
export const DEFAULT_SEARCH_PLATFORMS: readonly EnabledPlatform[] = ['vrbo', 'booking', 'airbnb', 'google'];

export const REVIEW_PLATFORMS = ['vrbo', 'booking', 'airbnb'] as const satisfies readonly EnabledPlatform[];
export const SINGLE_LISTING_PLATFORMS = ENABLED_PLATFORMS;

/** Native rating scales, preserved and never rescaled. */
export const RATING_SCALE: Record<Platform, number> = {
  airbnb: 5,
  vrbo: 5,
  tripadvisor: 5,
  google: 5,
  booking: 10,
  expedia: 10,
  hotels: 10,
};

export function isPlatform(v: unknown): v is Platform {
  return typeof v === 'string' && (ALL_PLATFORMS as readonly string[]).includes(v);
}

export function isEnabled(p: Platform): p is EnabledPlatform {
  return (ENABLED_PLATFORMS as readonly string[]).includes(p);
}
