// GET /v1/market (issue 27, item 2): market metrics of a location, a bounding box or a comp set
// over a span of nights, computed from what this deployment observed (src/core/analytics/market.ts),
// each figure with its method and sample size. Free: it reads the history port
// (src/core/ports/history.ts): live keys what live calls observed, sandbox keys the sandbox
// world's one synthetic history (the same for every caller, endpoint and day). The read goes a
// bounded batch of listings at a time and yields the event loop between batches; past its time
// budget it stops with analysis_too_large. Nothing observed for the scope and nights: 404
// no_observations, never figures of zero.
import { requireScope } from '../auth.js';
import { BOOKING_METHOD, type BookingMethod } from '../analytics/bookings.js';
import { summarizeListing } from '../analytics/listing-summary.js';
import { type Prepared, Tally, intervals, mainCurrency, methodTexts, prepare, summarize, windowOf } from '../analytics/market.js';
import { addDays, utcToday } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { historyFor } from '../context.js';
import { ServiceError } from '../errors.js';
import { locationKey } from '../observe.js';
import type { HistoryPort, ListingDigest } from '../ports/history.js';
import { MARKET_DEFAULT_NIGHTS, MARKET_MAX_NIGHTS, type MarketView, marketParams } from '../schemas/market.js';
import { type RawInput, daysBetween, exactlyOne, parseBbox, parseParams } from '../validate.js';
import { buildMeta } from '../meta.js';
import { compSetMembers, ownCompSet, platformsOf } from './compsets.js';
import { ownCollection } from './collections.js';
import type { CollectionRow } from '../ports/store.js';

/** A listing in scope before its observations are read, with the bedrooms its placing stated. */
interface Member {
  platform: string;
  listingId: string;
  bedrooms: number | null;
}

/** Listings prepared or tallied between two yields of the event loop. */
const TALLY_STEP = 200;

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Throws analysis_too_large once the read has run past its budget. */
function budget(services: Services): () => void {
  const start = services.clock.now();
  const ms = services.config.analyticsBudgetMs;
  return () => {
    if (services.clock.now() - start > ms) {
      throw new ServiceError('analysis_too_large', `The market read ran past its budget of ${ms} ms: narrow the scope (fewer listings, fewer platforms, a shorter window).`);
    }
  };
}

/**
 * Every member's digest over the window, in bounded steps: its summary (its one classification of
 * every night observed, kept by the store until its observations change:
 * src/core/analytics/listing-summary.ts), its calendar rows' count over the window's nights, and
 * its prices of stays checking in within the window; the answer's currency is the one most of
 * those prices are in.
 */
async function gather(
  history: HistoryPort,
  members: readonly Member[],
  from: string,
  to: string,
  check: () => void,
  method: BookingMethod,
  asOf: number,
): Promise<{ prepared: Prepared[]; currency: string; excluded: number }> {
  const keyOf = (l: { platform: string; listingId: string }) => `${l.platform}|${l.listingId}`;
  const placedBedrooms = new Map(members.map((m) => [keyOf(m), m.bedrooms]));
  const digests: ListingDigest[] = [];
  // The store keeps summaries by the default method only; another method's are made here, from
  // the listing's observations, on every read (issue 37: docs/decisions.md).
  await history.digests(members, { from, to: addDays(to, -1) }, summarizeListing, (batch) => {
    digests.push(...batch);
    check();
  });
  for (const [i, d] of digests.entries()) {
    if (d.summary === null || d.summary.method === method) continue;
    const o = await history.observedFor(d, { from, to: addDays(to, -1) });
    d.summary = summarizeListing(o.days, o.prices, o.span ?? undefined, method, o.ratings, asOf);
    if (i % TALLY_STEP === TALLY_STEP - 1) {
      check();
      await yieldLoop();
    }
  }
  const { currency, excluded } = mainCurrency(digests.map((d) => d.prices));
  const prepared: Prepared[] = [];
  for (const [i, d] of digests.entries()) {
    prepared.push(prepare({ ...d, bedrooms: d.bedrooms ?? placedBedrooms.get(keyOf(d)) ?? null }, from, to, currency));
    if (i % TALLY_STEP === TALLY_STEP - 1) {
      check();
      await yieldLoop();
    }
  }
  return { prepared, currency, excluded };
}

/** The figures of the listings with something observed in the window: overall, by platform, by bedrooms and by interval, in one pass that yields as it goes. */
async function tally(prepared: readonly Prepared[], from: string, to: string, currency: string, interval: 'week' | 'month' | undefined, check: () => void, method: BookingMethod) {
  const overall = new Tally(from, to, currency, method);
  const byPlatform = new Map<string, Tally>();
  const byBedrooms = new Map<number | null, Tally>();
  const series = interval === undefined ? null : intervals(from, to, interval).map((w) => ({ ...w, tally: new Tally(w.from, w.to, currency, method) }));
  let used = 0;
  for (const [i, p] of prepared.entries()) {
    if (p.window.observations === 0) continue;
    used++;
    overall.add(p);
    if (!byPlatform.has(p.platform)) byPlatform.set(p.platform, new Tally(from, to, currency, method));
    byPlatform.get(p.platform)!.add(p);
    if (!byBedrooms.has(p.bedrooms)) byBedrooms.set(p.bedrooms, new Tally(from, to, currency, method));
    byBedrooms.get(p.bedrooms)!.add(p);
    for (const w of series ?? []) w.tally.add(p);
    if (i % TALLY_STEP === TALLY_STEP - 1) {
      check();
      await yieldLoop();
    }
  }
  return {
    used,
    overall: overall.metrics(),
    byPlatform: [...byPlatform.keys()].sort().map((platform) => ({ platform, metrics: byPlatform.get(platform)!.metrics() })),
    byBedrooms: [...byBedrooms.keys()].sort((a, b) => (a ?? -1) - (b ?? -1)).map((b) => ({ bedrooms: b === null ? null : Math.round(b), metrics: byBedrooms.get(b)!.metrics() })),
    series: series === null ? null : series.map(({ tally: t, ...w }) => ({ ...w, metrics: t.metrics() })),
  };
}

/** How much of a collection's market the figures rest on (issue 38, item 6). */
async function coverageOf(services: Services, c: CollectionRow, population: number, observed: number): Promise<NonNullable<MarketView['coverage']>> {
  const latest = (await services.store.collectionPasses(c.id))[0];
  const tracked = latest ? Math.max(0, latest.items - 1) : 0;
  const share = population === 0 ? null : Math.round((observed / population) * 10_000) / 10_000;
  const pct = share === null ? '-' : `${(share * 100).toFixed(1)} %`;
  const sampled = tracked < population;
  return {
    population,
    tracked,
    sampled,
    observed,
    share,
    statement: `Occupancy over ${observed.toLocaleString('en-US')} of ${population.toLocaleString('en-US')} listings found, ${pct}${sampled ? ` (the budget tracks a stratified sample of ${tracked.toLocaleString('en-US')})` : ''}.`,
  };
}

export async function market(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<MarketView>> {
  requireScope(ctx, 'stays.read');
  const parsed = parseParams(marketParams(), raw);
  // A window left out is the last MARKET_DEFAULT_NIGHTS nights; one end left out, that many from the other.
  const today = utcToday(services.clock);
  const to = parsed.to ?? (parsed.from === undefined ? today : addDays(parsed.from, MARKET_DEFAULT_NIGHTS));
  const q = { ...parsed, from: parsed.from ?? addDays(to, -MARKET_DEFAULT_NIGHTS), to };
  const form = exactlyOne(q, ['location', 'bbox', 'compSet', 'collection'], 'market');
  if (q.to <= q.from) throw new ServiceError('invalid_date_range', 'to must be after from.', { param: 'to' });
  const nights = daysBetween(q.from, q.to);
  if (nights > MARKET_MAX_NIGHTS) throw new ServiceError('window_too_long', `The window is ${nights} nights; at most ${MARKET_MAX_NIGHTS}.`, { param: 'to' });
  let platforms = platformsOf(q.platforms);
  let bedrooms = q.bedrooms ?? null;
  const history = historyFor(services, ctx);
  let members: Member[];
  let bbox: number[] | null = null;
  let compSet: string | null = null;
  let collection: CollectionRow | null = null;
  let where: string;
  if (form === 'location') {
    where = q.location!;
    members = (await history.listingsOfPlace({ place: locationKey(q.location!), platforms })).map((l) => ({ ...l, bedrooms: null }));
  } else if (form === 'bbox') {
    const box = parseBbox(q.bbox!);
    bbox = [box.minLng, box.minLat, box.maxLng, box.maxLat];
    where = `the box ${bbox.join(',')}`;
    members = await history.listingsWithin({ ...box, platforms });
  } else if (form === 'collection') {
    const c = await ownCollection(services, ctx, q.collection!, 'collection');
    collection = c;
    where = `collection ${c.name} (${c.id})`;
    platforms = platforms.filter((p) => c.platforms.includes(p));
    const listings = await services.store.collectionListings(c.id);
    const latest = listings.reduce((n, l) => Math.max(n, l.lastPass), -1);
    members = listings
      .filter((l) => l.lastPass === latest && (platforms as readonly string[]).includes(l.platform))
      .map((l) => ({ platform: l.platform, listingId: l.listingId, bedrooms: l.bedrooms }));
  } else {
    const cs = await ownCompSet(services, ctx, q.compSet!, 'compSet');
    compSet = cs.id;
    where = `comp set ${cs.name} (${cs.id})`;
    if (cs.platforms !== null) platforms = platforms.filter((p) => cs.platforms!.includes(p));
    if (bedrooms === null) bedrooms = cs.bedrooms;
    members = await compSetMembers(history, cs, platforms);
  }
  const check = budget(services);
  const method = q.method ?? BOOKING_METHOD;
  const gathered = await gather(history, members, q.from, q.to, check, method, services.clock.now());
  const { currency, excluded } = gathered;
  const prepared = bedrooms === null ? gathered.prepared : gathered.prepared.filter((p) => p.bedrooms === bedrooms);
  const window = windowOf(prepared);
  if (window.observations === 0) {
    throw new ServiceError(
      'no_observations',
      `This deployment observed nothing of ${where} for the nights ${q.from} to ${q.to}${bedrooms !== null ? ` with ${bedrooms} bedrooms` : ''} on ${platforms.join(', ')}: no figure is given rather than zeros.`,
      { param: form },
    );
  }
  // Only listings with something observed in the window are in scope for every figure.
  const { overall, byPlatform, byBedrooms, series } = await tally(prepared, q.from, q.to, currency, q.interval, check, method);
  const texts = methodTexts(method);
  const coverage = collection === null ? null : await coverageOf(services, collection, members.length, overall.occupancy.calendarUnavailableRate.listings);
  return {
    data: {
      scope: { location: form === 'location' ? q.location! : null, bbox, compSet, collection: collection?.id ?? null, platforms, bedrooms },
      nights: { from: q.from, to: q.to, count: nights },
      currency,
      excludedPrices: excluded,
      observationWindow: { firstObserved: new Date(window.first).toISOString(), lastObserved: new Date(window.last).toISOString(), observations: window.observations, listings: window.listings },
      bookingMethod: method,
      methods: texts,
      overall,
      byPlatform,
      byBedrooms,
      series,
      coverage,
      summary: coverage === null ? summarize(overall, currency, where, q.from, q.to, window) : `${coverage.statement} ${summarize(overall, currency, where, q.from, q.to, window)}`,
    },
    meta: buildMeta(services, ctx, { platforms, currency }),
  };
}
