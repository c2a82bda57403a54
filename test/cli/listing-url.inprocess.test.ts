// A listing URL (or a stays_ id) alone names its platform (issue 22, item 15): wherever the CLI
// asks for PLATFORM ID (listing, price, availability, reviews) and in compare --listings, the core
// reads the platform off the URL's site (src/core/listing-ref.ts platformOf); the answer is the
// one PLATFORM ID gives. A URL of another site is a usage error that says so, not "Missing ID".
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

const AIRBNB = 'https://www.airbnb.com/rooms/12345678';
const VRBO = 'https://www.vrbo.com/4886746';
const BOOKING = 'https://www.booking.com/hotel/pt/casa-azul.html';
const STAY = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
const WINDOW = ['--start-date', '2027-03-01', '--end-date', '2027-03-05'];

let box: Sandbox;
beforeAll(() => {
  box = freshSandbox();
});

async function ok<T>(args: string[]): Promise<T> {
  const r = await staysIn([...args, '--json'], box.env);
  expect(r.stderr).not.toContain('Missing');
  expect(r.code).toBe(0);
  return json<{ data: T }>(r).data;
}

describe('a listing URL in place of PLATFORM ID', () => {
  it('listing: the same listing as PLATFORM ID', async () => {
    type Listing = { platform: string; platformListingId: string; identity: { requestedId: string } };
    const { identity, ...byUrl } = await ok<Listing>(['listing', AIRBNB]);
    expect(byUrl).toMatchObject({ platform: 'airbnb', platformListingId: '12345678' });
    // The identity echo names what was asked for: the URL.
    expect(identity.requestedId).toBe(AIRBNB);
    const { identity: _, ...byId } = await ok<Listing>(['listing', 'airbnb', '12345678']);
    expect(byUrl).toEqual(byId);
    // Without its scheme, and as a stays_ id, too.
    expect(await ok(['listing', 'www.airbnb.com/rooms/12345678'])).toMatchObject({ platform: 'airbnb', platformListingId: '12345678' });
    expect(await ok(['listing', 'stays_booking_pt/casa-azul'])).toMatchObject({ platform: 'booking', platformListingId: 'pt/casa-azul' });
  });

  it('price and reviews', async () => {
    expect(await ok(['price', BOOKING, ...STAY])).toMatchObject({ platform: 'booking', listingId: 'pt/casa-azul' });
    const reviews = await ok<{ platform: string; listingId: string }[]>(['reviews', AIRBNB, '--limit', '2']);
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews.every((r) => r.platform === 'airbnb' && r.listingId === '12345678')).toBe(true);
    expect(await ok(['reviews', '--url', AIRBNB, '--limit', '2'])).toEqual(reviews);
  });

  it('availability, by URL argument or --url alone', async () => {
    const [cal] = await ok<{ platform: string; listingId: string; dates: unknown[] }[]>(['availability', VRBO, ...WINDOW]);
    expect(cal).toMatchObject({ platform: 'vrbo', listingId: '4886746' });
    expect(cal!.dates).toHaveLength(4);
    expect(await ok(['availability', '--url', VRBO, ...WINDOW])).toEqual([cal]);
  });

  it('compare --listings takes listing URLs', async () => {
    const d = await ok<{ offers: { platform: string; listingId: string }[] }>(['compare', '--listings', `${AIRBNB},${BOOKING}`, ...STAY]);
    expect(d.offers.map((o) => `${o.platform}:${o.listingId}`).sort()).toEqual(['airbnb:12345678', 'booking:pt/casa-azul']);
  });

  it('a URL of another site says so (exit 2), not "Missing ID"', async () => {
    const r = await staysIn(['listing', 'https://example.com/rooms/12345678'], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a listing URL of airbnb, booking, vrbo, google');
    expect(r.stderr).not.toContain('Missing ID');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
