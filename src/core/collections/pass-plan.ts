// A collection's pass, planned within its budget (issue 38, item 4; docs/decisions.md "Collection
// passes within a budget"): which listings a pass tracks, what it costs, and when each listing's
// fetch is due. A pure function of the population (the listings discovery found), the collection's
// settings and the start of the pass, so the estimate `stays collect create --dry-run` prints is
// the plan the runner then follows.
//
// - Cost: a tracked listing costs its calendar (availability over horizonNights, D2) and, unless
//   rates are `none`, one sampled stay's quote (PRICE_COST) a pass; a day costs the passes a day
//   (daily 1, weekly 1/7).
// - Budget first: when tracking every listing would cost more a day than maxCreditsPerDay, the
//   pass tracks a random sample, stratified by platform and bedrooms (each stratum's share of the
//   sample is its share of the population, to one listing), and never more than the budget. The
//   sample is the same from pass to pass (a listing's place in it is a hash of the collection and
//   the listing), so a tracked calendar is tracked every pass.
// - No midnight herd: the pass's fetches are due at instants spread evenly over its interval, in
//   the sample's random order (platforms interleaved).
import { PRICE_COST, availabilityCost, searchLegCost } from '../billing.js';
import { SEARCH_LIMIT } from '../limits.js';
import type { EnabledPlatform, Platform } from '../platforms.js';
import { SEARCH_CAPS } from '../search-caps.js';
import type { CollectionCadence, CollectionRates } from '../ports/store.js';

export interface Member {
  platform: string;
  listingId: string;
  bedrooms: number | null;
}

export interface PassSettings {
  /** The collection's id: the seed of its sample. */
  id: string;
  horizonNights: number;
  cadence: CollectionCadence;
  rates: CollectionRates;
  maxCreditsPerDay: number;
}

export interface PlannedFetch {
  /** `track:platform:listingId`: the work item's name. */
  item: string;
  platform: string;
  listingId: string;
  dueAt: number;
}

export interface Stratum {
  platform: string;
  bedrooms: number | null;
  listings: number;
  tracked: number;
}

export interface PassPlan {
  fetches: PlannedFetch[];
  /** The pass's interval, ms: a day or a week. */
  intervalMs: number;
  /** fraction: the share of each stratum tracked (each stratum's count is its share rounded, to one listing). */
  sample: { tracked: number; of: number; sampled: boolean; fraction: number; strata: Stratum[] };
  estimate: {
    /** What the pass's discovery costs (given: the latest discovery's charge, or discoveryEstimate's). */
    discoveryCreditsPerPass: number;
    /** Tracking and discovery, a day: at most maxCreditsPerDay when the discovery's cost is right. */
    totalCreditsPerDay: number;
    creditsPerPass: number;
    creditsPerDay: number;
    /** Tracking every listing found, a day (what the budget would need for full coverage). */
    creditsPerDayAll: number;
    byPlatform: Record<string, { listings: number; tracked: number; creditsPerListing: number; creditsPerPass: number; creditsPerDay: number }>;
  };
}

const DAY_MS = 86_400_000;
export const CADENCE_MS: Record<CollectionCadence, number> = { daily: DAY_MS, weekly: 7 * DAY_MS };

/** What tracking one listing costs a pass: its calendar over the horizon and, unless rates are none, one sampled stay's quote. */
export function listingPassCost(platform: string, s: Pick<PassSettings, 'horizonNights' | 'rates'>): number {
  return availabilityCost(platform as Platform, s.horizonNights) + (s.rates === 'none' ? 0 : PRICE_COST);
}

/**
 * What a discovery of this population would cost before one has run (after, its charge is known):
 * every listing's row paid once, in pages of SEARCH_LIMIT.max rows, plus a cap's worth of rows again
 * for each halving a population past the cap takes (the truncated searches of the cells it splits).
 * On the Metropolis bench's airbnb city (5,000 listings, cap 280) that is 6,400 rows for the 6,106
 * the discovery paid.
 */
export function discoveryEstimate(members: readonly Pick<Member, 'platform'>[]): number {
  const byPlatform = new Map<string, number>();
  for (const m of members) byPlatform.set(m.platform, (byPlatform.get(m.platform) ?? 0) + 1);
  let credits = 0;
  for (const [platform, n] of byPlatform) {
    const cap = SEARCH_CAPS[platform as EnabledPlatform] ?? SEARCH_LIMIT.max;
    const rows = n + (n > cap ? cap * Math.ceil(Math.log2(n / cap)) : 0);
    const pages = Math.ceil(rows / SEARCH_LIMIT.max);
    // Full pages, then the last one's rows.
    credits += (pages - 1) * searchLegCost(platform as Platform, SEARCH_LIMIT.max) + searchLegCost(platform as Platform, rows - (pages - 1) * SEARCH_LIMIT.max);
  }
  return credits;
}

/** A listing's place in its collection's sample: a 32-bit FNV-1a hash of the collection and the listing. */
function rank(id: string, m: Member): number {
  let h = 0x811c9dc5;
  const text = `${id}|${m.platform}|${m.listingId}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * How many of each stratum a fraction `f` of the population tracks: its share rounded down, then
 * one more to the strata with the largest remainders, while the budget allows.
 */
function allocate(strata: { n: number; cost: number }[], f: number, budgetPerPass: number): number[] {
  const counts = strata.map((s) => Math.floor(f * s.n));
  let spent = strata.reduce((sum, s, i) => sum + counts[i]! * s.cost, 0);
  const order = strata.map((s, i) => ({ i, r: f * s.n - counts[i]! })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i, r } of order) {
    if (r <= 0 || counts[i]! >= strata[i]!.n) continue;
    if (spent + strata[i]!.cost > budgetPerPass) continue;
    counts[i]!++;
    spent += strata[i]!.cost;
  }
  return counts;
}

/**
 * `discoveryPerPass`: what the pass's discovery costs (or cost), taken from its budget before the
 * tracking is sized.
 */
export function planPass(members: readonly Member[], s: PassSettings, passStart: number, discoveryPerPass = 0): PassPlan {
  const intervalMs = CADENCE_MS[s.cadence];
  const passesPerDay = DAY_MS / intervalMs;
  // The budget of one pass: what a day allows, over the passes a day (a weekly pass may spend a
  // week's), less its discovery.
  const budgetPerPass = Math.max(0, Math.floor(s.maxCreditsPerDay / passesPerDay + 1e-9) - discoveryPerPass);
  // Strata: platform × bedrooms, each member in its hash order.
  const byStratum = new Map<string, { platform: string; bedrooms: number | null; members: Member[] }>();
  const seen = new Set<string>();
  for (const m of members) {
    const k = `${m.platform}|${m.listingId}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const sk = `${m.platform}|${m.bedrooms ?? ''}`;
    const st = byStratum.get(sk) ?? { platform: m.platform, bedrooms: m.bedrooms, members: [] };
    st.members.push(m);
    byStratum.set(sk, st);
  }
  const strata = [...byStratum.values()].sort((a, b) => a.platform.localeCompare(b.platform) || (a.bedrooms ?? -1) - (b.bedrooms ?? -1));
  for (const st of strata) st.members.sort((a, b) => rank(s.id, a) - rank(s.id, b) || a.listingId.localeCompare(b.listingId));
  const sizes = strata.map((st) => ({ n: st.members.length, cost: listingPassCost(st.platform, s) }));
  const full = sizes.reduce((sum, x) => sum + x.n * x.cost, 0);
  let counts: number[];
  let fraction = 1;
  if (full <= budgetPerPass) counts = sizes.map((x) => x.n);
  else {
    // The largest fraction whose allocation fits the budget (bisection: the allocation's cost grows with f).
    let lo = 0;
    let hi = 1;
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      const c = allocate(sizes, mid, budgetPerPass);
      if (c.reduce((sum, n, i) => sum + n * sizes[i]!.cost, 0) <= budgetPerPass) lo = mid;
      else hi = mid;
    }
    counts = allocate(sizes, lo, budgetPerPass);
    fraction = lo;
  }
  const tracked = strata.flatMap((st, i) => st.members.slice(0, counts[i]));
  // Due instants spread evenly over the interval, in hash order (platforms interleaved).
  tracked.sort((a, b) => rank(`${s.id}#due`, a) - rank(`${s.id}#due`, b) || a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId));
  const fetches = tracked.map((m, i) => ({
    item: `track:${m.platform}:${m.listingId}`,
    platform: m.platform,
    listingId: m.listingId,
    dueAt: passStart + Math.floor((i * intervalMs) / tracked.length),
  }));
  const byPlatform: PassPlan['estimate']['byPlatform'] = {};
  strata.forEach((st, i) => {
    const cost = sizes[i]!.cost;
    const p = (byPlatform[st.platform] ??= { listings: 0, tracked: 0, creditsPerListing: cost, creditsPerPass: 0, creditsPerDay: 0 });
    p.listings += st.members.length;
    p.tracked += counts[i]!;
    p.creditsPerPass += counts[i]! * cost;
  });
  for (const p of Object.values(byPlatform)) p.creditsPerDay = Math.ceil(p.creditsPerPass * passesPerDay);
  const creditsPerPass = Object.values(byPlatform).reduce((sum, p) => sum + p.creditsPerPass, 0);
  return {
    fetches,
    intervalMs,
    sample: {
      tracked: tracked.length,
      of: seen.size,
      sampled: tracked.length < seen.size,
      fraction,
      strata: strata.map((st, i) => ({ platform: st.platform, bedrooms: st.bedrooms, listings: st.members.length, tracked: counts[i]! })),
    },
    estimate: {
      discoveryCreditsPerPass: discoveryPerPass,
      totalCreditsPerDay: Math.ceil((creditsPerPass + discoveryPerPass) * passesPerDay),
      creditsPerPass,
      creditsPerDay: Math.ceil(creditsPerPass * passesPerDay),
      creditsPerDayAll: Math.ceil(full * passesPerDay),
      byPlatform,
    },
  };
}
