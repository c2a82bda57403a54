// GET /v1/market (issue 27, item 2): market metrics of a location, a bounding box or a comp set
// over a span of nights, computed from what this deployment observed (src/core/analytics/market.ts),
// each figure with its method and sample size. Free: it reads the history port
// (src/core/ports/history.ts): live keys what live calls observed, sandbox keys the sandbox
// world's one synthetic history (the same for every caller, endpoint and day). The read goes a
// bounded batch of listings at a time and yields the event loop between batches; past its time
// budget it stops with analysis_too_large. Nothing observed for the scope and nights: 404
// no_observations, never figures of zero.
import { EDGE_NIGHTS } from '../analytics/bookings.js';
import { requireScope } from '../auth.js';
import { type ListingObs, type Prepared, intervals, mainCurrency, methodTexts, metricsOf, prepare, summarize, windowOf } from '../analytics/market.js';
import { addDays } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { historyFor } from '../context.js';
import { ServiceError } from '../errors.js';
import { locationKey } from '../observe.js';
import type { HistoryPort } from '../ports/history.js';
import type { CompSetRow } from '../ports/store.js';
import { MARKET_MAX_NIGHTS, type MarketView, marketParams } from '../schemas/market.js';
import { type RawInput, daysBetween, exactlyOne, parseParams } from '../validate.js';
import { buildMeta } from './common.js';
import { boxAround, distanceMeters } from '../analytics/geometry.js';
import { ownCompSet, platformsOf } from './compsets.js';

/** minLng,minLat,maxLng,maxLat. */
function parseBbox(s: string): { minLng: number; minLat: number; maxLng: number; maxLat: number } {
  const parts = s.split(',').map((x) => (x.trim() === '' ? Number.NaN : Number(x)));
  const bad = (why: string) => new ServiceError('invalid_parameter', `bbox ${why}: give minLng,minLat,maxLng,maxLat in degrees (-9.2,38.7,-9.1,38.8).`, { param: 'bbox' });
  if (parts.length !== 4 || parts.some((x) => !Number.isFinite(x))) throw bad('must be four numbers');
  const [minLng, minLat, maxLng, maxLat] = parts as [number, number, number, number];
  if (minLat < -90 || maxLat > 90 || minLng < -180 || maxLng > 180) throw bad('is outside the globe');
  if (minLat > maxLat || minLng > maxLng) throw bad('has a minimum above its maximum');
  return { minLng, minLat, maxLng, maxLat };
}

/** A listing in scope before its observations are read, with the bedrooms its placing stated. */
interface Member {
  platform: string;
  listingId: string;
  bedrooms: number | null;
}

/** Listings prepared between two yields of the event loop. */
const PREPARE_STEP = 50;
/** How long before the window a price's stay may check in and still price its first nights. */
const PRICE_LOOKBACK_DAYS = 90;

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

/** The listings a comp set holds: observed within its radius of the anchor (and of its bedroom count). */
async function compSetMembers(history: HistoryPort, cs: CompSetRow, platforms: readonly string[]): Promise<Member[]> {
  const placed = await history.listingsWithin({ ...boxAround(cs.anchorLat, cs.anchorLng, cs.radiusMeters), platforms });
  return placed.filter((p) => distanceMeters(cs.anchorLat, cs.anchorLng, p.lat, p.lng) <= cs.radiusMeters && (cs.bedrooms === null || p.bedrooms === cs.bedrooms));
}

/** Every member's history over the window, read in bounded steps, and each listing prepared (its inference made) in steps too. */
async function gather(
  history: HistoryPort,
  members: readonly Member[],
  from: string,
  to: string,
  check: () => void,
): Promise<{ listings: ListingObs[]; prepared: Prepared[]; currency: string; excluded: number }> {
  const placedBedrooms = new Map(members.map((m) => [`${m.platform}|${m.listingId}`, m.bedrooms]));
  const lastNight = addDays(to, -1);
  const listings: ListingObs[] = [];
  // The window's nights and a month either side (a hold across an edge is judged whole, as
  // /v1/history/bookings judges it); prices of stays that may cover the window's first nights.
  const nights = { from: addDays(from, -EDGE_NIGHTS), to: addDays(to, EDGE_NIGHTS - 1) };
  await history.histories(members, { nights, checkIns: { from: addDays(from, -PRICE_LOOKBACK_DAYS), to: lastNight } }, (batch) => {
    for (const h of batch) listings.push({ ...h, bedrooms: h.bedrooms ?? placedBedrooms.get(`${h.platform}|${h.listingId}`) ?? null });
    check();
  });
  const { currency, excluded } = mainCurrency(listings);
  const prepared: Prepared[] = [];
  for (let i = 0; i < listings.length; i += PREPARE_STEP) {
    for (const l of listings.slice(i, i + PREPARE_STEP)) prepared.push(prepare(l, from, to, currency));
    check();
    await yieldLoop();
  }
  return { listings, prepared, currency, excluded };
}

export async function market(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<MarketView>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(marketParams(), raw);
  const form = exactlyOne(q, ['location', 'bbox', 'compSet'], 'market');
  if (q.to <= q.from) throw new ServiceError('invalid_date_range', 'to must be after from.', { param: 'to' });
  const nights = daysBetween(q.from, q.to);
  if (nights > MARKET_MAX_NIGHTS) throw new ServiceError('window_too_long', `The window is ${nights} nights; at most ${MARKET_MAX_NIGHTS}.`, { param: 'to' });
  let platforms = platformsOf(q.platforms);
  let bedrooms = q.bedrooms ?? null;
  const history = historyFor(services, ctx);
  let members: Member[];
  let bbox: number[] | null = null;
  let compSet: string | null = null;
  let where: string;
  if (form === 'location') {
    where = q.location!;
    members = (await history.listingsShownIn({ place: locationKey(q.location!), platforms, from: 0, to: Number.MAX_SAFE_INTEGER })).listings.map((l) => ({ ...l, bedrooms: null }));
  } else if (form === 'bbox') {
    const box = parseBbox(q.bbox!);
    bbox = [box.minLng, box.minLat, box.maxLng, box.maxLat];
    where = `the box ${bbox.join(',')}`;
    members = await history.listingsWithin({ ...box, platforms });
  } else {
    const cs = await ownCompSet(services, ctx, q.compSet!, 'compSet');
    compSet = cs.id;
    where = `comp set ${cs.name} (${cs.id})`;
    if (cs.platforms !== null) platforms = platforms.filter((p) => cs.platforms!.includes(p));
    if (bedrooms === null) bedrooms = cs.bedrooms;
    members = await compSetMembers(history, cs, platforms);
  }
  const gathered = await gather(history, members, q.from, q.to, budget(services));
  const { currency, excluded } = gathered;
  const prepared = bedrooms === null ? gathered.prepared : gathered.prepared.filter((p) => p.obs.bedrooms === bedrooms);
  const window = windowOf(prepared, q.from, q.to);
  if (window.observations === 0) {
    throw new ServiceError(
      'no_observations',
      `This deployment observed nothing of ${where} for the nights ${q.from} to ${q.to}${bedrooms !== null ? ` with ${bedrooms} bedrooms` : ''} on ${platforms.join(', ')}: no figure is given rather than zeros.`,
      { param: form },
    );
  }
  // Only listings with something observed in the window are in scope for every figure.
  const used = prepared.filter((p) => windowOf([p], q.from, q.to).observations > 0);
  const overall = metricsOf(used, q.from, q.to);
  const byPlatform = [...new Set(used.map((p) => p.obs.platform))].sort().map((platform) => ({
    platform,
    metrics: metricsOf(
      used.filter((p) => p.obs.platform === platform),
      q.from,
      q.to,
    ),
  }));
  const rooms = [...new Set(used.map((p) => p.obs.bedrooms))].sort((a, b) => (a ?? -1) - (b ?? -1));
  const byBedrooms = rooms.map((b) => ({
    bedrooms: b === null ? null : Math.round(b),
    metrics: metricsOf(
      used.filter((p) => p.obs.bedrooms === b),
      q.from,
      q.to,
    ),
  }));
  const series = q.interval === undefined ? null : intervals(q.from, q.to, q.interval).map((w) => ({ ...w, metrics: metricsOf(used, w.from, w.to) }));
  const texts = methodTexts();
  return {
    data: {
      scope: { location: form === 'location' ? q.location! : null, bbox, compSet, platforms, bedrooms },
      nights: { from: q.from, to: q.to, count: nights },
      currency,
      excludedPrices: excluded,
      observationWindow: { firstObserved: new Date(window.first).toISOString(), lastObserved: new Date(window.last).toISOString(), observations: window.observations, listings: window.listings },
      methods: texts,
      overall,
      byPlatform,
      byBedrooms,
      series,
      summary: summarize(overall, currency, where, q.from, q.to, window),
    },
    meta: buildMeta(services, ctx, { platforms, currency }),
  };
}
