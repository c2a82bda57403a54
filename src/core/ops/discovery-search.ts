// Discovery's searches as the API makes them (issue 38, item 2): each cell is a GET /v1/search
// with its bbox (and price band), paged through to the last row with the cursor, every page
// through the same executor as the route (admission, cache, jobs, billing, observations). So a
// discovery costs what the same searches made by hand cost, and every row it sees is recorded.
//
// A collection's discovery names each page's request (`pages.id`: the same on every attempt of
// the item) and keeps each page's answer once charged (`pages.keep`): claimed again after its
// instance died, it reads the pages already charged (`pages.kept`) instead of buying them again.
import type { RequestContext, Services } from '../context.js';
import { executeToEnd } from '../execute.js';
import { newRequestId } from '../ids.js';
import { SEARCH_LIMIT } from '../limits.js';
import { searchPlan } from './search.js';
import type { Meta, Property } from '../schemas/resources.js';
import type { CellAnswer, CellQuery, CellSearch, DiscoveryRow } from '../collections/discovery.js';

export interface BilledSearch {
  search: CellSearch;
  /** Credits charged so far, over every page of every search (a page read back from `pages` counts what it was charged). */
  charged(): number;
  /** Calls made (pages), each billed as a call by hand; pages read back are not calls. */
  calls(): number;
}

/** How long one page waits for its job before waiting again (a live search runs as a job). */
const PAGE_WAIT_MS = 30_000;

/** Makes a call within a budget: reserves its worst case first (throwing when it cannot), gives back what it did not spend. */
export type Spend = <T>(worstCase: number, call: () => Promise<{ data: T; meta: Meta }>) => Promise<{ data: T; meta: Meta }>;

/** One page as discovery reads it: the rows' few fields it uses, the platform's truncation, the next cursor, the charge. */
export interface DiscoveryPage {
  rows: DiscoveryRow[];
  truncated: NonNullable<Meta['truncated']>;
  nextCursor: string | null;
  charged: number;
}

/** Where a discovery's pages are named, kept once charged and read back. */
export interface DiscoveryPages {
  id(query: Record<string, unknown>): string;
  /**
   * The page an earlier attempt kept under this id, or made under it (its job's answer, written
   * with its charge); or else what the ledger charged under it already (a page answered from the
   * cache, whose attempt died before keeping it: bought again, and that earlier charge counted with
   * this attempt's, so the item's charges stay the ledger's).
   */
  kept(requestId: string): Promise<{ page: DiscoveryPage | null; chargedBefore: number }>;
  keep(requestId: string, page: DiscoveryPage): Promise<void>;
}

/** What discovery keeps of a search page's answer. */
export function pageOf(data: readonly Property[], meta: Meta): DiscoveryPage {
  return {
    rows: data.map((p) => ({ platform: p.platform, platformListingId: p.platformListingId, location: p.location, bedrooms: p.bedrooms })),
    truncated: meta.truncated ?? [],
    nextCursor: meta.pagination?.nextCursor ?? null,
    charged: meta.creditsCharged,
  };
}

/**
 * One search page as discovery makes it: named by `pages` (or a new request id), read back when an
 * earlier attempt kept it, else made within `spend` and kept. `charged` is what it was charged,
 * with, when it was made again, what an earlier attempt was charged under its id and did not keep.
 */
export async function billedPage(
  services: Services,
  ctx: RequestContext,
  query: Record<string, unknown>,
  o: { spend?: Spend | undefined; pages?: DiscoveryPages | undefined; made?(): void },
): Promise<DiscoveryPage> {
  const requestId = o.pages ? o.pages.id(query) : newRequestId(services.ids);
  const before = o.pages ? await o.pages.kept(requestId) : null;
  if (before?.page) return before.page;
  const call: RequestContext = { ...ctx, requestId };
  const sp = searchPlan(services, call, query);
  const make = (): Promise<{ data: Property[]; meta: Meta }> => {
    o.made?.();
    return executeToEnd(services, call, sp.plan, { waitMs: PAGE_WAIT_MS, memoKey: sp.memoKey });
  };
  const got = await (o.spend ? o.spend(sp.plan.worstCase, make) : make());
  const answer = pageOf(got.data, got.meta);
  await o.pages?.keep(requestId, answer);
  return { ...answer, charged: answer.charged + (before?.chargedBefore ?? 0) };
}

export function billedCellSearch(services: Services, ctx: RequestContext, o: { location: string; currency?: string; spend?: Spend; pages?: DiscoveryPages }): BilledSearch {
  let charged = 0;
  let calls = 0;
  const page = (raw: Record<string, unknown>) =>
    billedPage(services, ctx, raw, {
      spend: o.spend,
      pages: o.pages,
      made: () => {
        calls++;
      },
    });
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
    const rows: DiscoveryPage['rows'] = [];
    let truncated: CellAnswer['truncated'] = null;
    let cursor: string | null = null;
    do {
      const got = await page(cursor === null ? raw : { ...raw, cursor });
      charged += got.charged;
      rows.push(...got.rows);
      const t = got.truncated.find((x) => x.platform === q.platform);
      if (t) truncated = { cap: t.cap, returned: t.returned, reported: t.reported };
      cursor = got.nextCursor;
    } while (cursor !== null);
    return { rows, truncated };
  };
  return { search, charged: () => charged, calls: () => calls };
}
