// Discovery's searches as the API makes them (issue 38, item 2): each cell is a GET /v1/search
// with its bbox (and price band), paged through to the last row with the cursor, every page
// through the same executor as the route (admission, cache, jobs, billing, observations). So a
// discovery costs what the same searches made by hand cost, and every row it sees is recorded.
import type { RequestContext, Services } from '../context.js';
import { executeToEnd } from '../execute.js';
import { newRequestId } from '../ids.js';
import { SEARCH_LIMIT } from '../limits.js';
import { searchPlan } from './search.js';
import type { Meta, Property } from '../schemas/resources.js';
import type { CellAnswer, CellQuery, CellSearch } from '../collections/discovery.js';

export interface BilledSearch {
  search: CellSearch;
  /** Credits charged so far, over every page of every search. */
  charged(): number;
  /** Calls made (pages), each billed as a call by hand. */
  calls(): number;
}

/** How long one page waits for its job before waiting again (a live search runs as a job). */
const PAGE_WAIT_MS = 30_000;

/** Makes a call within a budget: reserves its worst case first (throwing when it cannot), gives back what it did not spend. */
export type Spend = <T>(worstCase: number, call: () => Promise<{ data: T; meta: Meta }>) => Promise<{ data: T; meta: Meta }>;

export function billedCellSearch(services: Services, ctx: RequestContext, o: { location: string; currency?: string; spend?: Spend }): BilledSearch {
  let charged = 0;
  let calls = 0;
  const page = async (raw: Record<string, unknown>): Promise<{ data: Property[]; meta: Meta }> => {
    const call: RequestContext = { ...ctx, requestId: newRequestId(services.ids) };
    const sp = searchPlan(services, call, raw);
    const made = (): Promise<{ data: Property[]; meta: Meta }> => {
      calls++;
      return executeToEnd(services, call, sp.plan, { waitMs: PAGE_WAIT_MS, memoKey: sp.memoKey });
    };
    return o.spend ? o.spend(sp.plan.worstCase, made) : made();
  };
  const search = async (q: CellQuery): Promise<CellAnswer> => {
    const b = q.bbox;
    const raw: Record<string, unknown> = {
      location: o.location,
      bbox: `${b.west},${b.south},${b.east},${b.north}`,
      platforms: q.platform,
      limit: String(SEARCH_LIMIT.max),
      ...(o.currency ? { currency: o.currency } : {}),
      ...(q.priceMin !== undefined ? { priceMin: String(q.priceMin) } : {}),
      ...(q.priceMax !== undefined ? { priceMax: String(q.priceMax) } : {}),
    };
    const rows: Property[] = [];
    let truncated: CellAnswer['truncated'] = null;
    let cursor: string | null = null;
    do {
      const got = await page(cursor === null ? raw : { ...raw, cursor });
      charged += got.meta.creditsCharged;
      rows.push(...got.data);
      const t = got.meta.truncated?.find((x) => x.platform === q.platform);
      if (t) truncated = { cap: t.cap, returned: t.returned, reported: t.reported };
      cursor = got.meta.pagination?.nextCursor ?? null;
    } while (cursor !== null);
    return { rows, truncated };
  };
  return { search, charged: () => charged, calls: () => calls };
}
