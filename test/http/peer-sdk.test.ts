// Wire compatibility: the public service's official client (@stayingapi/sdk), unchanged, against
// a real `stays serve`: every method, pagination helpers, transparent job polling, typed errors.
import { AuthenticationError, InvalidRequestError, NotFoundError, StayingApiClient, UpstreamUnavailableError, isStayingApiError } from '@stayingapi/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, day, startStays } from '../helpers/stays.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const client = (apiKey: string) => new StayingApiClient({ apiKey, baseUrl: `${s.url}/v1`, maxRetries: 0 });
const stay = { checkIn: day(30), checkOut: day(33) };

describe('@stayingapi/sdk against stays serve (sandbox key)', () => {
  it('search (GET and POST), searchAll across pages', async () => {
    const c = client(a.sandboxKey);
    const { data, meta } = await c.search({ location: 'Lisbon', ...stay, adults: 2, children: 1, childAges: [8], platforms: ['airbnb', 'booking'], limit: 5 });
    expect(data).toHaveLength(10);
    expect((meta as { sandbox?: boolean }).sandbox).toBe(true);
    const post = await c.search({ location: 'Lisbon', ...stay, adults: 2, children: 1, childAges: [8], platforms: ['airbnb', 'booking'], limit: 5 }, { method: 'POST' });
    expect(post.data).toEqual(data);
    const all = await c.searchAll({ location: 'Lisbon', platforms: ['airbnb'], limit: 40 });
    expect(all.length).toBeGreaterThan(40);
    expect(new Set(all.map((p: { id: string }) => p.id)).size).toBe(all.length);
  });

  it('listing, price, priceCompare, availability, reviewsAll, account', async () => {
    const c = client(a.sandboxKey);
    const listing = await c.listing('airbnb', '12345678', stay);
    expect(listing.data.identity?.resolvedId).toBe('12345678');
    const price = await c.price({ platform: 'booking', listingId: 'pt/casa-azul', ...stay });
    expect(price.data.nights).toBe(3);
    const cmp = await c.priceCompare({ name: 'Hotel Aurora', location: 'Lisbon', ...stay });
    expect(cmp.data.offers.length).toBeGreaterThan(0);
    // Honest prices (issue 27, item 3): offers with includes and lineItems, and a warning the
    // client does not know, read unchanged.
    const direct = await c.priceCompare({ listings: ['airbnb:12345678', 'booking:pt/casa-azul', 'vrbo:4886746'], ...stay });
    expect(direct.data.offers.map((o: { platform?: string }) => o.platform)[0]).toBe('airbnb');
    expect((direct.data.offers[0] as { includes?: unknown }).includes).toEqual({ cleaning: true, serviceFee: true, taxes: true });
    expect((direct.meta as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toEqual(['price_inclusions_differ']);
    const av = await c.availability({ platform: 'vrbo', listingIds: ['4886746', '4886747'], startDate: day(5), endDate: day(12) });
    expect(av.data).toHaveLength(2);
    const reviews = await c.reviewsAll({ platform: 'airbnb', listingId: '12345678', limit: 10 });
    expect(reviews.length).toBeGreaterThan(10);
    const acct = await c.account();
    expect(acct.data.key.env).toBe('sandbox');
  });

  it('maps our error envelopes onto its typed errors', async () => {
    await expect(client('stay_test_nope').account()).rejects.toBeInstanceOf(AuthenticationError);
    const err = await client(a.sandboxKey)
      .search({ location: 'Lisbon', limit: 99 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(isStayingApiError(err) && [err.code, err.param]).toEqual(['limit_out_of_range', 'limit']);
    await expect(client(a.sandboxKey).listing('airbnb', '404')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('@stayingapi/sdk against stays serve (live key, simulated upstream)', () => {
  it('polls our 202 jobs transparently and resolves with the synchronous shape', async () => {
    const c = client(a.liveKey);
    const { data, meta } = await c.search({ location: 'Sevilla', platforms: ['airbnb', 'vrbo'], limit: 3 }, { pollIntervalMs: 100 });
    expect(data).toHaveLength(6);
    expect(meta.creditsCharged).toBe(11);
    const again = await c.search({ location: 'Sevilla', platforms: ['airbnb', 'vrbo'], limit: 3 });
    expect(again.meta.cached).toBe(true);
  });

  it('a failed job becomes its typed error', async () => {
    const err = await client(a.liveKey)
      .listing('vrbo', '503', {}, { pollIntervalMs: 100 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(isStayingApiError(err) && err.code).toBe('all_actors_failed');
  });
});
