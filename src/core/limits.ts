// Page sizes and caps that both the request schemas and the worst-case cost read. Plain
// constants, free of imports, so the CLI's cost guard can use them without loading zod.

/** GET /v1/search: results per platform. */
export const SEARCH_LIMIT = { default: 10, max: 40 } as const;
/** GET /v1/reviews: reviews per page. */
export const REVIEWS_LIMIT = { default: 20, max: 100 } as const;
/** D15: the longest stay, in nights, and the longest availability window, in days. */
export const MAX_STAY_NIGHTS = 90;
export const MAX_WINDOW_DAYS = 365;

/** D10: Family S rows per page: sync up to 240, async 241–250, above 250 clamped with a warning; presets 50. */
export const S_SYNC_MAX_ITEMS = 240;
export const S_MAX_ITEMS = 250;
export const PRESET_MAX_ITEMS = 50;
export const S_DEFAULT_MAX_ITEMS = 50;
/** POST /v1/stays/batch: entries per call. */
export const MAX_BATCH_ENTRIES = 50;
