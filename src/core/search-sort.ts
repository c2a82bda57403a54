// The orders of GET /v1/search's sort values (D16), in one place: the service sorts each page with
// them, and the CLI's --all, whose pages cannot be ordered as a whole server-side (the limit is
// per platform, so page two may start below page one's last row), re-sorts the walked rows with
// the very same comparators. Types only from the schemas: importing this loads no zod.
import type { Property } from './schemas/resources.js';

export type PropertyComparator = (a: Pick<Property, 'price' | 'guestRating' | 'ratingScale'>, b: Pick<Property, 'price' | 'guestRating' | 'ratingScale'>) => number;

const byPrice =
  (dir: 1 | -1): PropertyComparator =>
  (a, b) => {
    // Rows without a price sort last in either direction.
    if (!a.price || !b.price) return (a.price ? 0 : 1) - (b.price ? 0 : 1);
    return dir * (a.price.nightlyPrice - b.price.nightlyPrice);
  };

// Ratings compare across platforms on a common 0..1 footing; the rows keep their native scale.
const byRating: PropertyComparator = (a, b) => (b.guestRating ?? 0) / (b.ratingScale || 1) - (a.guestRating ?? 0) / (a.ratingScale || 1);

/** Every sort but `recommended` (round-robin across platforms, an interleaving rather than an order). */
export const SEARCH_COMPARATORS = {
  price_asc: byPrice(1),
  price_desc: byPrice(-1),
  rating_desc: byRating,
} as const satisfies Record<string, PropertyComparator>;

/** The comparator of a sort value as the API accepts it (case-insensitive), or null (recommended, unknown). */
export function searchComparator(sort: string | undefined): PropertyComparator | null {
  const key = sort?.toLowerCase();
  return key !== undefined && Object.hasOwn(SEARCH_COMPARATORS, key) ? SEARCH_COMPARATORS[key as keyof typeof SEARCH_COMPARATORS] : null;
}
