// GET /v1/market (issue 27, item 2): market metrics of a location, a bounding box or a comp set
// over a span of nights, computed from what this deployment observed (src/core/analytics/market.ts),
// each figure with its method and sample size. Free: it reads the deployment's own store. Live
// keys read what live calls observed; sandbox keys a synthetic history of the sandbox world
// (its searches, calendars and the bookings it shows), the same for every caller and every day.
// Nothing observed for the scope and nights: 404 no_observations, never figures of zero.
import { requireScope } from '../auth.js';
import { type ListingObs, intervals, mainCurrency, methodTexts, metricsOf, prepare, summarize, windowOf } from '../analytics/market.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { isSandbox } from '../context.js';
import { fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { locationKey } from '../observe.js';
import type { EnabledPlatform } from '../platforms.js';
import type { CompSetRow, ObservationRow } from '../ports/store.js';
import { MARKET_MAX_NIGHTS, type MarketView, marketParams } from '../schemas/market.js';
import type { Property } from '../schemas/resources.js';
import type { StayQuery } from '../upstream.js';
import { type RawInput, daysBetween, exactlyOne, parseParams } from '../validate.js';
import { buildMeta } from './common.js';
import { boxAround, distanceMeters } from '../analytics/geometry.js';
import { ownCompSet, platformsOf } from './compsets.js';

const DAY_MS = 86_400_000;
const dateMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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

/** A listing in scope before its observations are read. */
interface Member {
  platform: EnabledPlatform;
  listingId: string;
  bedrooms: number | null;
}

const rowValue = <T>(r: ObservationRow | undefined) => (r === undefined ? undefined : (r.value as T));

/** One listing's observations from the store: calendar nights of the window, dated prices, its facts. */
async function liveObs(services: Services, m: Member, from: string, to: string): Promise<ListingObs> {
  const { store } = services;
  const lastNight = isoDate(dateMs(to) - DAY_MS);
  // A stay starting up to 90 nights before the window may cover its first nights.
  const earliest = isoDate(dateMs(from) - 90 * DAY_MS);
  const [days, quotes, searches, facts] = await Promise.all([
    store.observationsOfListing({ platform: m.platform, listingId: m.listingId, kind: 'day', keyFrom: from, keyTo: lastNight }),
    store.observationsOfListing({ platform: m.platform, listingId: m.listingId, kind: 'quote', keyFrom: earliest, keyTo: `${lastNight}~` }),
    store.observationsOfListing({ platform: m.platform, listingId: m.listingId, kind: 'search', keyFrom: '', keyTo: '\uffff' }),
    store.observationsOfListing({ platform: m.platform, listingId: m.listingId, kind: 'listing', keyFrom: '', keyTo: '' }),
  ]);
  const fact = rowValue<{ bedrooms?: number | null }>(facts.at(-1));
  const searched = [...searches].reverse().find((r) => typeof (r.value as { bedrooms?: unknown }).bedrooms === 'number');
  const bedrooms = fact?.bedrooms ?? rowValue<{ bedrooms?: number }>(searched)?.bedrooms ?? m.bedrooms;
  return { platform: m.platform, listingId: m.listingId, bedrooms, days, prices: [...quotes, ...searches.filter((r) => r.key.includes('@'))] };
}

/** Every member's observations, a few listings' reads at a time (a pool of PostgreSQL connections serves them together). */
async function liveAll(services: Services, members: readonly Member[], from: string, to: string): Promise<ListingObs[]> {
  const out: ListingObs[] = [];
  for (let i = 0; i < members.length; i += 8) out.push(...(await Promise.all(members.slice(i, i + 8).map((m) => liveObs(services, m, from, to)))));
  return out;
}

/** The sandbox's history of some listings over [from, to): see sandboxCalendar in ./history.ts. */
async function sandboxObs(services: Services, where: string, members: readonly (Member & { row: Property })[], from: string, to: string): Promise<ListingObs[]> {
  const first = dateMs(from) - 60 * DAY_MS;
  const out: ListingObs[] = [];
  // One synthetic dated search a week of the window, per platform: its prices are the rows' prices.
  const weekly = new Map<string, ObservationRow[]>();
  let id = 0;
  for (const platform of new Set(members.map((m) => m.platform))) {
    for (const w of intervals(from, to, 'week')) {
      const stay: StayQuery = { checkIn: w.from, checkOut: w.to, adults: 2, children: 0, childAges: [], currency: 'USD' };
      const rows = await services.sandboxUpstream.searchPlatform(platform, where, { currency: 'USD', rooms: 1, stay });
      for (const p of rows) {
        if (!p.price) continue;
        const k = `${platform}|${p.platformListingId}`;
        const list = weekly.get(k) ?? [];
        list.push({
          id: ++id,
          platform,
          listingId: p.platformListingId,
          kind: 'search',
          key: `${locationKey(where)}@${w.from}/${w.to}/2`,
          currency: p.price.currency,
          value: { name: p.name, nightlyPrice: p.price.nightlyPrice, totalPrice: p.price.totalPrice },
          source: 'sandbox',
          firstSeen: first,
          lastSeen: dateMs(w.from) - DAY_MS,
          timesSeen: (dateMs(w.from) - DAY_MS - first) / DAY_MS + 1,
        });
        weekly.set(k, list);
      }
    }
  }
  for (const m of members) {
    const cal = await services.sandboxUpstream.availability(m.platform, m.listingId, from, to);
    const days: ObservationRow[] = [];
    // Each run of taken nights is one booking, made some days before its first night (a function
    // of the listing and that night): every night of the run turned unavailable at that instant.
    let booked = 0;
    for (const [i, d] of cal.dates.entries()) {
      const night = dateMs(d.date);
      const day = { available: d.available, minNights: d.minNights, checkIn: d.checkIn, checkOut: d.checkOut, bookable: d.bookable };
      const base = { platform: m.platform, listingId: m.listingId, kind: 'day' as const, key: d.date, currency: null, source: 'sandbox' };
      if (d.available) {
        days.push({ ...base, id: ++id, value: day, firstSeen: first, lastSeen: night, timesSeen: (night - first) / DAY_MS + 1 });
        continue;
      }
      if (i === 0 || cal.dates[i - 1]!.available) {
        const lead = 1 + (fingerprint([m.platform, m.listingId, d.date]).charCodeAt(0) % 45);
        booked = Math.max(first + DAY_MS, night - lead * DAY_MS);
      }
      // Before it was taken the night was open: check-in and check-out allowed where the platform states them.
      const open = { ...day, available: true, checkIn: day.checkIn === null ? null : true, checkOut: day.checkOut === null ? null : true, bookable: day.bookable === null ? null : true };
      days.push({ ...base, id: ++id, value: open, firstSeen: first, lastSeen: booked - DAY_MS, timesSeen: (booked - DAY_MS - first) / DAY_MS + 1 });
      days.push({ ...base, id: ++id, value: day, firstSeen: booked, lastSeen: night, timesSeen: (night - booked) / DAY_MS + 1 });
    }
    out.push({ platform: m.platform, listingId: m.listingId, bedrooms: m.bedrooms, days, prices: weekly.get(`${m.platform}|${m.listingId}`) ?? [] });
  }
  return out;
}

const inBox = (lat: number, lng: number, b: { minLng: number; minLat: number; maxLng: number; maxLat: number }) => lat >= b.minLat && lat <= b.maxLat && lng >= b.minLng && lng <= b.maxLng;

/** The sandbox's listings around a point: a search of the point on each platform. */
async function sandboxAround(services: Services, lat: number, lng: number, platforms: readonly EnabledPlatform[]) {
  const where = `${lat.toFixed(5)},${lng.toFixed(5)}`;
  const rows: (Member & { row: Property })[] = [];
  for (const platform of platforms) {
    for (const p of await services.sandboxUpstream.searchPlatform(platform, where, { currency: 'USD', rooms: 1 })) {
      rows.push({ platform, listingId: p.platformListingId, bedrooms: p.bedrooms, row: p });
    }
  }
  return { where, rows };
}

const located = (r: { row: Property }) => typeof r.row.location.lat === 'number' && typeof r.row.location.lng === 'number';

/** The listings a comp set holds: observed within its radius of the anchor (and of its bedroom count). */
async function compSetMembers(services: Services, sandbox: boolean, cs: CompSetRow, platforms: EnabledPlatform[]) {
  const box = boxAround(cs.anchorLat, cs.anchorLng, cs.radiusMeters);
  const near = (lat: number, lng: number) => distanceMeters(cs.anchorLat, cs.anchorLng, lat, lng) <= cs.radiusMeters;
  if (sandbox) {
    const { where, rows } = await sandboxAround(services, cs.anchorLat, cs.anchorLng, platforms);
    return { where, members: rows.filter((r) => located(r) && near(r.row.location.lat!, r.row.location.lng!) && (cs.bedrooms === null || r.bedrooms === cs.bedrooms)) };
  }
  await services.store.observationsWritten();
  const placed = await services.store.listingsWithin({ ...box, platforms });
  return {
    where: null,
    members: placed
      .filter((p) => near(p.lat, p.lng) && (cs.bedrooms === null || p.bedrooms === cs.bedrooms))
      .map((p) => ({ platform: p.platform as EnabledPlatform, listingId: p.listingId, bedrooms: p.bedrooms })),
  };
}

export async function market(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<MarketView>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(marketParams(), raw);
  const form = exactlyOne(q, ['location', 'bbox', 'compSet'], 'market');
  if (q.to <= q.from) throw new ServiceError('invalid_date_range', 'to must be after from.', { param: 'to' });
  const nights = daysBetween(q.from, q.to);
  if (nights > MARKET_MAX_NIGHTS) throw new ServiceError('window_too_long', `The window is ${nights} nights; at most ${MARKET_MAX_NIGHTS}.`, { param: 'to' });
  let platforms = platformsOf(q.platforms);
  const sandbox = isSandbox(ctx);
  let bedrooms = q.bedrooms ?? null;
  let listings: ListingObs[];
  let bbox: number[] | null = null;
  let compSet: string | null = null;
  let where: string;
  if (form === 'location') {
    const location = q.location!;
    where = location;
    if (sandbox) {
      const members: (Member & { row: Property })[] = [];
      for (const platform of platforms) {
        for (const p of await services.sandboxUpstream.searchPlatform(platform, location, { currency: 'USD', rooms: 1 })) {
          members.push({ platform, listingId: p.platformListingId, bedrooms: p.bedrooms, row: p });
        }
      }
      listings = await sandboxObs(services, location, members, q.from, q.to);
    } else {
      const seen = await services.store.listingsSeenIn({ location: locationKey(location), platforms, from: 0, to: Number.MAX_SAFE_INTEGER });
      listings = await liveAll(
        services,
        seen.listings.map((l) => ({ platform: l.platform as EnabledPlatform, listingId: l.listingId, bedrooms: null })),
        q.from,
        q.to,
      );
    }
  } else if (form === 'bbox') {
    const box = parseBbox(q.bbox!);
    bbox = [box.minLng, box.minLat, box.maxLng, box.maxLat];
    where = `the box ${bbox.join(',')}`;
    if (sandbox) {
      const { where: point, rows } = await sandboxAround(services, (box.minLat + box.maxLat) / 2, (box.minLng + box.maxLng) / 2, platforms);
      listings = await sandboxObs(
        services,
        point,
        rows.filter((r) => located(r) && inBox(r.row.location.lat!, r.row.location.lng!, box)),
        q.from,
        q.to,
      );
    } else {
      await services.store.observationsWritten();
      const placed = await services.store.listingsWithin({ ...box, platforms });
      listings = await liveAll(
        services,
        placed.map((p) => ({ platform: p.platform as EnabledPlatform, listingId: p.listingId, bedrooms: p.bedrooms })),
        q.from,
        q.to,
      );
    }
  } else {
    const cs = await ownCompSet(services, ctx, q.compSet!, 'compSet');
    compSet = cs.id;
    where = `comp set ${cs.name} (${cs.id})`;
    if (cs.platforms !== null) platforms = platforms.filter((p) => cs.platforms!.includes(p));
    if (bedrooms === null) bedrooms = cs.bedrooms;
    const found = await compSetMembers(services, sandbox, cs, platforms);
    if (sandbox) listings = await sandboxObs(services, found.where!, found.members as (Member & { row: Property })[], q.from, q.to);
    else listings = await liveAll(services, found.members, q.from, q.to);
  }
  if (bedrooms !== null) listings = listings.filter((l) => l.bedrooms === bedrooms);
  const { currency, excluded } = mainCurrency(listings);
  const prepared = listings.map((l) => prepare(l, q.from, q.to, currency));
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
