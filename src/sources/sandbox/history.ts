// The sandbox world's history (issue 34): the history port (src/core/ports/history.ts) for
// sandbox keys, made from the fixed world as it is read. One generator for every endpoint, so a
// sandbox listing has one history whichever endpoint asks, and the same one every day (D21):
// - its calendar was observed daily at 00:00 UTC from FIRST_LOOK_DAYS before each night until
//   the night; each run of nights the world shows taken was taken at once, 1 to 60 days before
//   its first night (a function of the listing and that night), and showed free before (check-in
//   and check-out allowed where the platform states such rules);
// - a quote of any stay was seen daily over the QUOTE_DAYS before its check-in, moving week by
//   week around the world's quote (-8 % to +8 %, the last week at the quote itself); the stays
//   quoted are each taken run's and a week from every Saturday;
// - the searches of a place showed its listings daily through 2026, a fifth of them leaving
//   during the year (a function of the listing).
import { EDGE_NIGHTS } from '../../core/analytics/bookings.js';
import { fingerprint } from '../../core/cursor.js';
import type { DateSpan, HistoryPort, ListingFacts, ListingRef } from '../../core/ports/history.js';
import type { ObservationRow, PlacedListing, SeenListing } from '../../core/ports/store.js';
import type { DayValue } from '../../core/schemas/observations.js';
import type { EnabledPlatform } from '../../core/platforms.js';
import type { StayQuery, Upstream } from '../../core/upstream.js';
import { DAY_MS, addDays, dayMs } from '../../core/clock.js';

const FIRST_LOOK_DAYS = 120;
/** How long before a window a quote's stay may check in and still price its first nights. */
const QUOTE_LOOKBACK_DAYS = 90;
const QUOTE_DAYS = 60;
/** How far back a taken run's first night is looked for. */
const RUN_LOOKBACK_DAYS = 365;
/** The sandbox's year of searches. */
const YEAR = { start: Date.UTC(2026, 0, 1), days: 365 };

const stayOf = (checkIn: string, checkOut: string): StayQuery => ({ checkIn, checkOut, adults: 2, children: 0, childAges: [], currency: 'USD' });
const keyOf = (s: StayQuery) => `${s.checkIn}/${s.checkOut}/${s.adults}`;

export function sandboxHistory(world: Upstream): HistoryPort {
  const platformOf = (l: ListingRef) => l.platform as EnabledPlatform;

  /** The world's calendar over [from, to) nights (dates). */
  const nightsOf = async (l: ListingRef, from: string, to: string) => (await world.availability(platformOf(l), l.listingId, from, to)).dates;

  /** The first night of the taken run that `date` (taken) belongs to. */
  async function runStart(l: ListingRef, date: string, known: Map<string, boolean>): Promise<string> {
    let d = date;
    for (let back = 0; back < RUN_LOOKBACK_DAYS; back++) {
      const prev = addDays(d, -1);
      let free = known.get(prev);
      if (free === undefined) {
        for (const n of await nightsOf(l, addDays(prev, -30), addDays(prev, 1))) known.set(n.date, n.available);
        free = known.get(prev) ?? true;
      }
      if (free) return d;
      d = prev;
    }
    return d;
  }

  /** When the run starting on `start` was taken. */
  const bookedAt = (l: ListingRef, start: string) => dayMs(start) - (1 + (fingerprint([l.platform, l.listingId, start, 'booked']).charCodeAt(0) % 60)) * DAY_MS;

  async function calendar(l: ListingRef, nights: DateSpan): Promise<ObservationRow<'day'>[]> {
    const dates = await nightsOf(l, nights.from, addDays(nights.to, 1));
    const known = new Map(dates.map((d) => [d.date, d.available]));
    const rows: ObservationRow<'day'>[] = [];
    let start: string | null = null;
    // The run the night before the first belongs to, when taken: the first night's check-out is stated by it (whatever window is read).
    const head = dates[0];
    if (head?.available && head.checkOut === false) {
      const prev = addDays(head.date, -1);
      if ((await nightsOf(l, prev, head.date))[0]?.available === false) start = await runStart(l, prev, known);
    }
    for (const d of dates) {
      const night = dayMs(d.date);
      const first = night - FIRST_LOOK_DAYS * DAY_MS;
      const day: DayValue = { available: d.available, minNights: d.minNights, checkIn: d.checkIn, checkOut: d.checkOut, bookable: d.bookable };
      const add = (value: DayValue, a: number, b: number) =>
        rows.push({
          id: rows.length + 1,
          platform: l.platform,
          listingId: l.listingId,
          kind: 'day',
          key: d.date,
          currency: null,
          value,
          source: 'sandbox',
          firstSeen: a,
          lastSeen: b,
          timesSeen: (b - a) / DAY_MS + 1,
        });
      if (d.available) {
        // The day after a taken run refuses check-out (its night before is taken) only since the run
        // was taken: before, that night was free and the day stated check-out as the calendar does now.
        // (The night before was seen taken from its own first look plus a day, or when the run was booked.)
        const taken = start === null ? first : Math.max(first, bookedAt(l, start));
        if (day.checkOut === false && taken > first) {
          add({ ...day, checkOut: true }, first, taken - DAY_MS);
          add(day, taken, night);
        } else add(day, first, night);
        start = null;
        continue;
      }
      start ??= await runStart(l, d.date, known);
      const booked = Math.max(first + DAY_MS, bookedAt(l, start));
      const open: DayValue = { ...day, available: true, checkIn: day.checkIn === null ? null : true, checkOut: day.checkOut === null ? null : true, bookable: day.bookable === null ? null : true };
      add(open, first, booked - DAY_MS);
      add(day, booked, night);
    }
    return rows;
  }

  /** One stay's quote series: daily over the QUOTE_DAYS before check-in, as rows per change; none when the world gives no quote. */
  async function quoteSeries(l: ListingRef, stay: StayQuery): Promise<ObservationRow<'quote'>[]> {
    const quote = await world.price(platformOf(l), l.listingId, stay).catch(() => null);
    if (!quote) return [];
    const start = dayMs(stay.checkIn) - QUOTE_DAYS * DAY_MS;
    const seed = fingerprint([l.platform, l.listingId, stay.checkIn, stay.checkOut, stay.adults]);
    const rows: ObservationRow<'quote'>[] = [];
    for (let day = 0; day < QUOTE_DAYS; day++) {
      const week = Math.floor(day / 7);
      const step = week === Math.floor((QUOTE_DAYS - 1) / 7) ? 0 : (seed.charCodeAt(week % seed.length) % 17) - 8;
      const factor = 1 + step / 100;
      const at = start + day * DAY_MS;
      const value = { nightlyPrice: Math.round(quote.nightlyPrice * factor * 100) / 100, totalPrice: Math.round(quote.totalPrice * factor * 100) / 100, fees: quote.fees };
      const last = rows.at(-1);
      if (last && last.value.nightlyPrice === value.nightlyPrice && last.value.totalPrice === value.totalPrice) {
        last.lastSeen = at;
        last.timesSeen++;
      } else {
        rows.push({
          id: rows.length + 1,
          platform: l.platform,
          listingId: l.listingId,
          kind: 'quote',
          key: keyOf(stay),
          currency: quote.currency,
          value,
          source: 'sandbox',
          firstSeen: at,
          lastSeen: at,
          timesSeen: 1,
        });
      }
    }
    return rows;
  }

  /** The stays quoted with check-in within the span: each taken run's, and a week from every Saturday. */
  async function quotes(l: ListingRef, checkIns: DateSpan): Promise<ObservationRow<'quote'>[]> {
    const stays = new Map<string, StayQuery>();
    const dates = await nightsOf(l, checkIns.from, addDays(checkIns.to, 62));
    for (let i = 0; i < dates.length; i++) {
      const d = dates[i]!;
      if (d.date > checkIns.to) break;
      if (new Date(dayMs(d.date)).getUTCDay() === 6) stays.set(`${d.date}/7`, stayOf(d.date, addDays(d.date, 7)));
      if (d.available || (i > 0 && !dates[i - 1]!.available)) continue;
      let j = i;
      while (j < dates.length && !dates[j]!.available) j++;
      const start = i === 0 ? await runStart(l, d.date, new Map(dates.map((x) => [x.date, x.available]))) : d.date;
      if (start === d.date) stays.set(`${d.date}/run`, stayOf(d.date, addDays(d.date, j - i)));
    }
    const out: ObservationRow<'quote'>[] = [];
    for (const s of [...stays.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)))) out.push(...(await quoteSeries(l, s)));
    return out;
  }

  async function facts(l: ListingRef): Promise<ListingFacts | null> {
    const p = await world.listing(platformOf(l), l.listingId, { currency: 'USD' }).catch(() => null);
    return p
      ? { platform: l.platform, listingId: l.listingId, name: p.name, lat: p.location.lat, lng: p.location.lng, bedrooms: p.bedrooms, bathrooms: p.bathrooms, maxOccupancy: p.maxOccupancy }
      : null;
  }

  /** The world has no first or last observation: the nights asked are classified, reading the month either side as every reader does. */
  async function observedFor(l: ListingRef, nights: DateSpan) {
    const days = await calendar(l, { from: addDays(nights.from, -EDGE_NIGHTS), to: addDays(nights.to, EDGE_NIGHTS) });
    const prices = await quotes(l, { from: addDays(nights.from, -QUOTE_LOOKBACK_DAYS), to: nights.to });
    // The fixed world's review counts never move: no review is dated.
    return { days, prices, span: nights, ratings: [] };
  }

  async function listingsShownIn(q: { place: string; platforms: readonly string[]; from: number; to: number }) {
    const last = YEAR.start + (YEAR.days - 1) * DAY_MS;
    const listings: SeenListing[] = [];
    for (const platform of q.platforms) {
      for (const p of await world.searchPlatform(platform as EnabledPlatform, q.place, { currency: 'USD', rooms: 1 })) {
        const h = fingerprint([platform, p.platformListingId]);
        const first = YEAR.start + (h.charCodeAt(0) % 200) * DAY_MS;
        const end = h.charCodeAt(1) % 5 === 0 ? first + (10 + (h.charCodeAt(2) % 120)) * DAY_MS : last;
        if (end >= q.from && first <= q.to) listings.push({ platform, listingId: p.platformListingId, name: p.name, firstSeen: first, lastSeen: end, timesSeen: (end - first) / DAY_MS + 1 });
      }
    }
    listings.sort((a, b) => a.firstSeen - b.firstSeen || a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId));
    return { listings, lastSearched: Object.fromEntries(q.platforms.map((p) => [p, last])) };
  }

  return {
    listingsShownIn,
    observedFor,
    async digests(listings, nights, summarize, each) {
      for (const l of listings) {
        const { days, prices: all } = await observedFor(l, nights);
        const prices = all
          .filter((r) => r.key >= nights.from && r.key.slice(0, 10) <= nights.to)
          .map((r) => ({ checkIn: r.key.slice(0, 10), currency: r.currency, nightly: r.value.nightlyPrice, firstSeen: r.firstSeen, lastSeen: r.lastSeen }));
        each([
          {
            platform: l.platform,
            listingId: l.listingId,
            bedrooms: (await facts(l))?.bedrooms ?? null,
            summary: summarize(days, all, nights),
            prices,
          },
        ]);
      }
    },
    async quoteSeries(q) {
      const [checkIn, checkOut, adults] = q.key.split('/');
      const stay = { ...stayOf(checkIn!, checkOut!), adults: Number(adults) };
      const after = q.after ?? null;
      return (await quoteSeries(q, stay))
        .filter((r) => r.lastSeen >= q.from && r.firstSeen <= q.to && (after === null || r.firstSeen > after.firstSeen || (r.firstSeen === after.firstSeen && r.id > after.id)))
        .slice(0, q.limit ?? Number.MAX_SAFE_INTEGER);
    },
    calendar,
    async listingsOfPlace(q) {
      const { listings } = await listingsShownIn({ ...q, from: 0, to: Number.MAX_SAFE_INTEGER });
      return listings.map((l) => ({ platform: l.platform, listingId: l.listingId })).sort((a, b) => a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId));
    },
    async listingsWithin(q) {
      // The world's listings around the box's centre, those within it.
      const where = `${((q.minLat + q.maxLat) / 2).toFixed(5)},${((q.minLng + q.maxLng) / 2).toFixed(5)}`;
      const out: PlacedListing[] = [];
      for (const platform of q.platforms) {
        for (const p of await world.searchPlatform(platform as EnabledPlatform, where, { currency: 'USD', rooms: 1 })) {
          const { lat, lng } = p.location;
          if (typeof lat !== 'number' || typeof lng !== 'number' || lat < q.minLat || lat > q.maxLat || lng < q.minLng || lng > q.maxLng) continue;
          out.push({ platform, listingId: p.platformListingId, lat, lng, bedrooms: p.bedrooms });
        }
      }
      return out.sort((a, b) => a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId));
    },
    async placeOf(l) {
      // The world's own answer, its errors included (an unknown listing is the world's 404).
      const { lat, lng } = (await world.listing(platformOf(l), l.listingId, { currency: 'USD' })).location;
      return typeof lat === 'number' && typeof lng === 'number' ? { lat, lng } : null;
    },
    async listingFacts(listings) {
      const out: ListingFacts[] = [];
      for (const l of listings) {
        const f = await facts(l);
        if (f) out.push(f);
      }
      return out;
    },
    async shownWith(l, q) {
      // The world's own candidates for the listing: the listings around it on the other platforms.
      const known = await world.matchCandidates?.(platformOf(l), l.listingId).catch(() => null);
      const listings = (known?.candidates ?? [])
        .filter((c) => q.platforms.includes(c.property.platform))
        .map((c) => ({ platform: c.property.platform, listingId: c.property.platformListingId, name: c.property.name }))
        .sort((a, b) => a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId))
        .slice(0, q.limit);
      return { name: known?.subject.property.name ?? null, listings };
    },
    async observedListing(l) {
      return (await facts(l)) !== null;
    },
  };
}
