// Which keys tell the two forms of a search apart (D8). Plain constants, free of imports, so the
// CLI can read them before anything else loads (commands/_lib/flags/family.ts builds its flags from them).

/** Keys only Family S has; any of them selects the S form of POST /v1/search. */
export const FAMILY_S_SEARCH_KEYS = ['locationQueries', 'searchUrls', 'maxItems', 'nextPageToken', 'fields', 'infants', 'pets', 'locale', 'minBeds', 'minBathrooms'] as const;
/** Keys only Family U has; one of them beside an S key is 400 mutually_exclusive_params. */
export const FAMILY_U_ONLY_SEARCH_KEYS = ['platforms', 'platform', 'limit', 'cursor', 'sort', 'rooms', 'childAges', 'propertyType', 'amenities', 'minGuestRating'] as const;
