// PLATFORM ID arguments where the user gave only a listing URL or a stays_ id, whose platform the
// core reads off it (src/core/listing-ref.ts platformOf): `stays listing https://www.airbnb.com/rooms/1`
// is `stays listing airbnb https://www.airbnb.com/rooms/1`. The id goes to the service as typed.
import { platformOf } from '../../../src/core/listing-ref.js';
import { UsageError } from '../runtime/errors.js';
import { PLATFORMS } from './options.js';

/**
 * [platform, ids]: when the first argument is no platform name but a reference that names one, it
 * becomes the first id; with no platform at all, a --url names it.
 */
export function platformFromRef(platform: string | undefined, ids: string[], url?: unknown): [string | undefined, string[]] {
  if (platform === undefined) return [platformOf(url) ?? undefined, ids];
  if ((PLATFORMS as readonly string[]).includes(platform)) return [platform, ids];
  const p = platformOf(platform);
  if (p !== null) return [p, [platform, ...ids]];
  // A URL of another site is no platform and no listing: say so rather than "Missing ID".
  if (ids.length === 0 && /^[a-z][a-z0-9+.-]*:\/\//i.test(platform)) {
    throw new UsageError(`${platform.slice(0, 80)} is not a listing URL of ${PLATFORMS.join(', ')}; give PLATFORM ID, or a listing URL of one of them.`, 'platform');
  }
  return [platform, ids];
}
