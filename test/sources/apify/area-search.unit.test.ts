// Issue 38, item 2: an area search on the apify upstream. airbnb's actor takes a map area as a
// search URL with the map's bounds (startUrls, never beside locationQueries); the other platforms'
// actors take no bounds, so an area search of them is refused (platform_not_enabled, param bbox)
// before any run, and a plain search is what it was.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/core/errors.js';
import type { SearchArea } from '../../../src/core/upstream.js';
import { resolveActors } from '../../../src/sources/apify/actors.js';
import { apifyUpstream } from '../../../src/sources/apify/index.js';
import { airbnbMapUrl, inputFor } from '../../../src/sources/apify/inputs.js';

const area: SearchArea = { bbox: { west: -9.2, south: 38.7, east: -9.1, north: 38.8 }, priceMin: 50.5, priceMax: 120.2 };
const stay = { checkIn: '2027-03-01', checkOut: '2027-03-04', adults: 2, children: 0, childAges: [], currency: 'USD' };

describe('airbnb map searches', () => {
  it('the input is a search URL with the bounds, the price band and the stay, without locationQueries', () => {
    const input = inputFor('airbnb', { need: 'search', location: 'Lisbon', currency: 'EUR', rooms: 1, stay, area });
    expect(input.locationQueries).toBeUndefined();
    const url = new URL((input.startUrls as { url: string }[])[0]!.url);
    expect(url.origin + url.pathname).toBe('https://www.airbnb.com/s/homes');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      search_by_map: 'true',
      ne_lat: '38.8',
      ne_lng: '-9.1',
      sw_lat: '38.7',
      sw_lng: '-9.2',
      price_min: '50',
      price_max: '121',
      checkin: '2027-03-01',
      checkout: '2027-03-04',
      adults: '2',
      currency: 'EUR',
    });
    expect(input.checkIn).toBe('2027-03-01');
  });

  it('without an area the input is what it was', () => {
    expect(inputFor('airbnb', { need: 'search', location: 'Lisbon', currency: 'USD', rooms: 1 })).toEqual({ locationQueries: ['Lisbon'], locale: 'en-US', currency: 'USD', maxItems: 50 });
    expect(airbnbMapUrl({ bbox: area.bbox }, undefined, 'USD')).not.toContain('price_min');
  });
});

describe('through the apify upstream', () => {
  const inputs: Record<string, unknown>[] = [];
  const u = apifyUpstream(
    {
      token: 't',
      baseUrl: 'http://127.0.0.1:9',
      maxRetries: 0,
      actors: resolveActors(undefined),
      run: async (_o, _spec, input) => {
        inputs.push(input);
        return { items: [], runId: null, costUsd: null, statusMessage: null };
      },
    },
    30_000,
  );

  it('refuses an area search of a platform whose actor takes no bounds, before any run', async () => {
    for (const p of ['booking', 'vrbo', 'google'] as const) {
      const e = await u.searchAnswer!(p, 'Lisbon', { currency: 'USD', rooms: 1, area }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ServiceError);
      expect(e).toMatchObject({ code: 'platform_not_enabled', param: 'bbox' });
    }
    expect(inputs).toEqual([]);
  });

  it('runs airbnb with the map URL', async () => {
    await u.searchAnswer!('airbnb', 'Lisbon', { currency: 'USD', rooms: 1, area }).catch(() => undefined);
    expect(inputs).toHaveLength(1);
    expect(JSON.stringify(inputs[0])).toContain('ne_lat=38.8');
  });
});
