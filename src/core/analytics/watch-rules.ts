// The watch rule engine (issue 26, item 4; docs/decisions.md "Watches"): what a run of a watch
// keeps of its answer (its state), and which of the watch's rules hold between the state the run
// before kept and this run's. Pure: answers and states in, events out; the operation
// (ops/watch-runs.ts) makes the call, stores the state and the events, and sends the webhooks.
import type { Availability, Price, Property } from '../schemas/resources.js';
import { type CalendarState, type PriceState, type SearchState, WATCH_STATE_LISTINGS, WATCH_STATE_NAME_CHARS, type WatchRule, type WatchState } from '../schemas/watches.js';

/** A change a calendar or search rule saw: a night that became available, a minimum stay that changed, a new listing. */
type WatchChange = { date: string; available: { from: false; to: true } } | { date: string; minNights: { from: number; to: number } } | SearchState['listings'][number];

/** A rule that held on a run: price rules carry both states, calendar and search rules what changed. */
export interface RuleEvent {
  rule: WatchRule;
  before: WatchState | null;
  after: WatchState | null;
  changes: WatchChange[];
}

export const priceState = (p: Price): PriceState => ({ nightlyPrice: p.nightlyPrice, totalPrice: p.totalPrice, currency: p.currency });

/** An availability watch watches one listing: its answer's first (only) calendar. */
export function calendarState(answer: Availability[]): CalendarState {
  const a = answer[0]!;
  return { listingId: a.listingId, days: Object.fromEntries(a.dates.map((d) => [d.date, { available: d.available, minNights: d.minNights }])) };
}

/**
 * What a search watch keeps: every listing the run's legs fetched that matched (the page, if that
 * is all it has), each once, at most WATCH_STATE_LISTINGS; and when.
 */
export function searchState(answer: Property[], at?: number): SearchState {
  const seen = new Set<string>();
  const listings: SearchState['listings'] = [];
  for (const p of answer) {
    const key = `${p.platform}:${p.platformListingId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    listings.push({ platform: p.platform, listingId: p.platformListingId, name: p.name.slice(0, WATCH_STATE_NAME_CHARS), nightlyPrice: p.price?.nightlyPrice ?? null });
    if (listings.length === WATCH_STATE_LISTINGS) break;
  }
  return at === undefined ? { listings } : { listings, at };
}

const NONE: ReadonlySet<string> = new Set();

const isPrice = (s: WatchState): s is PriceState => !('days' in s) && !('listings' in s);
const isCalendar = (s: WatchState): s is CalendarState => 'days' in s;
const isSearch = (s: WatchState): s is SearchState => 'listings' in s;

/**
 * The event a rule raises between two runs' states, or null. A first run (no state before) raises
 * only price_below. `known` (platform:id): listings the place's searches had shown by the run
 * before, which new_listings does not call new (issue 36, item 4).
 */
export function evaluate(rule: WatchRule, prev: WatchState | null, cur: WatchState, known: ReadonlySet<string> = NONE): RuleEvent | null {
  if (rule.type === 'price_below' || rule.type === 'price_drop') {
    if (!isPrice(cur)) return null;
    const now = cur[rule.field];
    const before = prev !== null && isPrice(prev) ? prev[rule.field] : null;
    if (now === null) return null;
    if (rule.type === 'price_below') {
      // Edge-triggered: once when it goes under, not on every run it stays under.
      if (!(now < rule.amount) || (before !== null && before < rule.amount)) return null;
    } else if (before === null || !(now <= before * (1 - rule.percent / 100))) return null;
    return { rule, before: prev, after: cur, changes: [] };
  }
  if (rule.type === 'nights_available' || rule.type === 'min_nights_changed') {
    if (prev === null || !isCalendar(prev) || !isCalendar(cur)) return null;
    const changes: WatchChange[] = [];
    for (const [date, d] of Object.entries(cur.days)) {
      const b = prev.days[date];
      if (b === undefined) continue;
      if (rule.type === 'nights_available' && !b.available && d.available) changes.push({ date, available: { from: false, to: true } });
      if (rule.type === 'min_nights_changed' && b.minNights !== null && d.minNights !== null && b.minNights !== d.minNights) {
        changes.push({ date, minNights: { from: b.minNights, to: d.minNights } });
      }
    }
    return changes.length === 0 ? null : { rule, before: null, after: null, changes };
  }
  if (prev === null || !isSearch(prev) || !isSearch(cur)) return null;
  const seen = new Set(prev.listings.map((l) => `${l.platform}:${l.listingId}`));
  const fresh = cur.listings.filter((l) => !seen.has(`${l.platform}:${l.listingId}`) && !known.has(`${l.platform}:${l.listingId}`));
  return fresh.length === 0 ? null : { rule, before: null, after: null, changes: fresh };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * What a sandbox trigger's run before is taken to have seen, and what this run saw, for one rule
 * (docs/sandbox.md): a price 100 times this one (any drop holds), this one under the rule's amount,
 * the first night taken with a longer minimum stay, the first listing absent. Deterministic, so a
 * CI job can assert it.
 */
export function triggerStates(rule: WatchRule, cur: WatchState): { prev: WatchState; cur: WatchState } {
  if (isCalendar(cur)) {
    const [first] = Object.keys(cur.days);
    if (first === undefined) return { prev: cur, cur };
    const day = cur.days[first]!;
    const now = { ...cur, days: { ...cur.days, [first]: { available: true, minNights: day.minNights ?? 1 } } };
    return { prev: { ...cur, days: { ...cur.days, [first]: { available: false, minNights: (day.minNights ?? 1) + 1 } } }, cur: now };
  }
  if (isSearch(cur)) return { prev: { listings: cur.listings.slice(1) }, cur };
  const field = 'field' in rule ? rule.field : 'nightlyPrice';
  const value = cur[field];
  // A price the run could not see is taken as 100 before; nothing holds on it now.
  if (value === null) return { prev: { ...cur, [field]: 10_000 }, cur };
  // Both prices move by one factor, so the nightly price and the total beside it agree in each
  // state (issue 36, item 11: a run before of 100 times the nightly price beside this run's total).
  const now = rule.type === 'price_below' && value > rule.amount * 0.9 ? scaled(cur, (rule.amount * 0.9) / value) : cur;
  return { prev: scaled(now, 100), cur: now };
}

/** A price state with both prices times `factor` (rounded to the cent). */
const scaled = (s: PriceState, factor: number): PriceState => ({
  ...s,
  nightlyPrice: s.nightlyPrice === null ? null : round2(s.nightlyPrice * factor),
  totalPrice: s.totalPrice === null ? null : round2(s.totalPrice * factor),
});

/**
 * The events a run raises, in the order of the watch's rules: each rule between the state the run
 * before kept (null on a first run) and this run's; for a sandbox trigger, between the states
 * triggerStates makes up, so every rule holds.
 */
export function ruleEvents(rules: readonly WatchRule[], prev: WatchState | null, cur: WatchState, opts: { trigger: boolean; known?: ReadonlySet<string> }): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const rule of rules) {
    const s = opts.trigger ? triggerStates(rule, cur) : { prev, cur };
    const e = evaluate(rule, s.prev, s.cur, opts.trigger ? NONE : opts.known);
    if (e) events.push(e);
  }
  return events;
}
