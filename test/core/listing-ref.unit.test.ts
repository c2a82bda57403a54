import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ServiceError } from '../../src/core/errors.js';
import { inferListingRef, listingUrl, parseListingId, parseListingUrl, platformOf, splitStaysId, staysId } from '../../src/core/listing-ref.js';
import { ALL_PLATFORMS, type Platform } from '../../src/core/platforms.js';
import { caught } from '../helpers/caught.js';

describe('splitStaysId', () => {
  it.each<[string, { platform: Platform; id: string } | null]>([
    ['stays_airbnb_12345', { platform: 'airbnb', id: '12345' }],
    ['stays_booking_fr/hotel-x', { platform: 'booking', id: 'fr/hotel-x' }],
    ['stays_google_ChIJ_a-b:c.d', { platform: 'google', id: 'ChIJ_a-b:c.d' }],
    ['stays_expedia_9', { platform: 'expedia', id: '9' }],
    ['  stays_vrbo_4886746 ', { platform: 'vrbo', id: '4886746' }],
    ['stays_nope_1', null],
    ['stays_airbnb_', null],
    ['stays_airbnb', null],
    ['STAYS_airbnb_1', null],
    ['stays_Airbnb_1', null],
    ['airbnb_1', null],
    ['12345', null],
    ['', null],
  ])('%j → %j', (input, expected) => {
    expect(splitStaysId(input)).toEqual(expected);
  });
});

describe('staysId and listingUrl', () => {
  it('builds stays ids', () => {
    expect(staysId('booking', 'fr/x')).toBe('stays_booking_fr/x');
    expect(splitStaysId(staysId('google', 'a_b'))).toEqual({ platform: 'google', id: 'a_b' });
  });

  it.each<[Platform, string, string]>([
    ['airbnb', '12345', 'https://www.airbnb.com/rooms/12345'],
    ['vrbo', '4886746', 'https://www.vrbo.com/4886746'],
    ['booking', 'fr/hotel-le-marais', 'https://www.booking.com/hotel/fr/hotel-le-marais.html'],
    ['google', 'ChYIabc-_:.x', 'https://www.google.com/travel/hotels/entity/ChYIabc-_:.x'],
    ['expedia', '123', 'https://www.expedia.com/h123.Hotel-Information'],
    ['hotels', '123', 'https://www.hotels.com/ho123'],
    ['tripadvisor', '123', 'https://www.tripadvisor.com/Hotel_Review-d123'],
  ])('%s %s → %s', (platform, id, url) => {
    expect(listingUrl(platform, id)).toBe(url);
  });

  it.each<[Platform, string]>([
    ['airbnb', '12345'],
    ['vrbo', '4886746'],
    ['booking', 'fr/hotel-le-marais'],
    ['google', 'ChYIabc-_:.x'],
  ])('listingUrl(%s, %s) parses back to the same id', (platform, id) => {
    expect(parseListingUrl(platform, listingUrl(platform, id), { param: 'url' })).toBe(id);
    expect(parseListingId(platform, listingUrl(platform, id), { param: 'listingId' })).toBe(id);
    expect(parseListingId(platform, staysId(platform, id), { param: 'listingId' })).toBe(id);
  });
});

describe('parseListingId accepts', () => {
  it.each<[Platform, string, string | undefined, string]>([
    // airbnb
    ['airbnb', '12345', undefined, '12345'],
    ['airbnb', '  12345\n', undefined, '12345'],
    ['airbnb', '12345678901234567890', undefined, '12345678901234567890'],
    ['airbnb', 'stays_airbnb_12345', undefined, '12345'],
    ['airbnb', 'https://www.airbnb.com/rooms/12345', undefined, '12345'],
    ['airbnb', 'http://airbnb.com/rooms/12345/', undefined, '12345'],
    ['airbnb', 'https://www.airbnb.co.uk/rooms/12345?adults=2&check_in=2030-01-01#photos', undefined, '12345'],
    ['airbnb', 'https://fr.airbnb.ca/rooms/12345', undefined, '12345'],
    ['airbnb', 'https://m.airbnb.com/rooms/plus/12345', undefined, '12345'],
    ['airbnb', 'https://www.airbnb.com.au/rooms/12345', undefined, '12345'],
    ['airbnb', 'www.airbnb.com/rooms/12345', undefined, '12345'],
    ['airbnb', 'https%3A%2F%2Fwww.airbnb.com%2Frooms%2F12345', undefined, '12345'],
    ['airbnb', '12345', 'fr', '12345'], // country is ignored off booking
    // vrbo
    ['vrbo', '4886746', undefined, '4886746'],
    ['vrbo', 'stays_vrbo_4886746', undefined, '4886746'],
    ['vrbo', 'https://www.vrbo.com/4886746', undefined, '4886746'],
    ['vrbo', 'https://www.vrbo.com/4886746?chkin=2030-01-01&adults=2', undefined, '4886746'],
    ['vrbo', 'https://vrbo.com/4886746/', undefined, '4886746'],
    ['vrbo', 'https://www.vrbo.com/en-gb/p4886746', undefined, '4886746'],
    ['vrbo', 'https://www.vrbo.com/cottage-rental/p20158487', undefined, '20158487'],
    ['vrbo', 'https://www.vrbo.co.uk/4886746', undefined, '4886746'],
    ['vrbo', 'vrbo.com/4886746', undefined, '4886746'],
    // booking
    ['booking', 'fr/hotel-le-marais', undefined, 'fr/hotel-le-marais'],
    ['booking', 'FR/Hotel_Le.Marais', undefined, 'fr/Hotel_Le.Marais'],
    ['booking', 'fr%2Fhotel-le-marais', undefined, 'fr/hotel-le-marais'],
    ['booking', 'hotel-le-marais', 'fr', 'fr/hotel-le-marais'],
    ['booking', 'hotel-le-marais', 'FR', 'fr/hotel-le-marais'],
    ['booking', 'casa-de-alba', ' co ', 'co/casa-de-alba'],
    ['booking', 'fr/hotel-le-marais', 'FR', 'fr/hotel-le-marais'],
    ['booking', 'stays_booking_fr/hotel-le-marais', undefined, 'fr/hotel-le-marais'],
    ['booking', 'stays_booking_hotel-le-marais', 'fr', 'fr/hotel-le-marais'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.html', undefined, 'fr/hotel-le-marais'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.en-gb.html?selected_currency=USD&checkin=2030-01-01', undefined, 'fr/hotel-le-marais'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.fr.html', undefined, 'fr/hotel-le-marais'],
    ['booking', 'https://booking.com/hotel/FR/hotel-le-marais.html#map', undefined, 'fr/hotel-le-marais'],
    ['booking', 'https://m.booking.com/hotel/fr/hotel-le-marais', undefined, 'fr/hotel-le-marais'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.html', 'fr', 'fr/hotel-le-marais'],
    ['booking', 'www.booking.com/hotel/fr/hotel-le-marais.html', undefined, 'fr/hotel-le-marais'],
    // google
    ['google', 'ChYIq6SB4tKG0Nj4ARoJL20vMDVjcjNiEAE', undefined, 'ChYIq6SB4tKG0Nj4ARoJL20vMDVjcjNiEAE'],
    ['google', 'hotel-le-marais', undefined, 'hotel-le-marais'],
    ['google', '11b6:x.y', undefined, '11b6:x.y'],
    ['google', 'a'.repeat(200), undefined, 'a'.repeat(200)],
    ['google', 'stays_google_ChYI_x', undefined, 'ChYI_x'],
    ['google', 'https://www.google.com/travel/hotels/entity/ChYIq6SB4tKG', undefined, 'ChYIq6SB4tKG'],
    ['google', 'https://www.google.com/travel/hotels/entity/ChYIq6SB4tKG/prices?q=paris&hl=en', undefined, 'ChYIq6SB4tKG'],
    ['google', 'https://www.google.co.uk/travel/hotels/Paris/entity/ChYIq6SB4tKG/reviews', undefined, 'ChYIq6SB4tKG'],
    ['google', 'https://google.de/travel/hotels/entity/CgoI%3Ax', undefined, 'CgoI:x'],
  ])('%s %j (country %j) → %j', (platform, input, country, expected) => {
    expect(parseListingId(platform, input, { country, param: 'listingId' })).toBe(expected);
  });
});

describe('parseListingId rejects', () => {
  it.each<[Platform, unknown, string | undefined, string, string]>([
    // all platforms
    ['airbnb', '', undefined, 'missing_parameter', 'listingId'],
    ['booking', '   ', undefined, 'missing_parameter', 'listingId'],
    ['airbnb', undefined, undefined, 'missing_parameter', 'listingId'],
    ['airbnb', 42, undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '1'.repeat(2049), undefined, 'invalid_parameter', 'listingId'],
    ['google', 'a'.repeat(2049), undefined, 'invalid_parameter', 'listingId'],
    ['expedia', '123', undefined, 'platform_not_enabled', 'platform'],
    ['hotels', '123', undefined, 'platform_not_enabled', 'platform'],
    ['tripadvisor', '123', undefined, 'platform_not_enabled', 'platform'],
    ['airbnb', 'stays_vrbo_123', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'stays_google_x', 'fr', 'invalid_parameter', 'listingId'],
    ['google', 'stays_nope_abc', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'stays_google_stays_google_x', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'stays_airbnb_https://www.airbnb.com/rooms/1', undefined, 'invalid_parameter', 'listingId'],
    // airbnb
    ['airbnb', 'abc', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '123abc', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '12 345', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '-1', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '1e5', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '0', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '012345', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', '123456789012345678901', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'stays_airbnb_abc', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com/h/cozy-loft', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com/rooms/abc', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com/rooms/123/photos', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com/users/show/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com.evil.net/rooms/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://notairbnb.com/rooms/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com@evil.net/rooms/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.airbnb.com:8443/rooms/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'ftp://www.airbnb.com/rooms/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://www.vrbo.com/123', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https://', undefined, 'invalid_parameter', 'listingId'],
    ['airbnb', 'https%3A%2F%2F%E0%A4%A', undefined, 'invalid_parameter', 'listingId'],
    // vrbo
    ['vrbo', '4193579ha', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', '321.123.456', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'p4886746', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'abc', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.vrbo.com/4193579ha', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.vrbo.com/en-gb/4193579ha?expediaPropertyId=123', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.vrbo.com/', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.vrbo.com/search?destination=Paris', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.vrbo.com/123/456', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.vrbo.com/4886746/reviews', undefined, 'invalid_parameter', 'listingId'],
    ['vrbo', 'https://www.airbnb.com/rooms/4886746', undefined, 'invalid_parameter', 'listingId'],
    // booking
    ['booking', 'hotel-le-marais', undefined, 'needs_country', 'country'],
    ['booking', 'hotel-le-marais', '  ', 'needs_country', 'country'],
    ['booking', 'stays_booking_hotel-le-marais', undefined, 'needs_country', 'country'],
    ['booking', 'hotel-le-marais', 'fra', 'invalid_parameter', 'country'],
    ['booking', 'hotel-le-marais', 'xx', 'invalid_parameter', 'country'],
    ['booking', 'hotel-le-marais', 'eu', 'invalid_parameter', 'country'],
    ['booking', 'hotel-le-marais', 'uk', 'invalid_parameter', 'country'],
    ['booking', 'fr/hotel-le-marais', 'de', 'invalid_parameter', 'country'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.html', 'de', 'invalid_parameter', 'country'],
    ['booking', 'fr/hotel-le-marais', 'zz', 'invalid_parameter', 'country'],
    ['booking', 'xx/hotel-le-marais', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'fra/hotel-le-marais', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'fr/', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'fr/a/b', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'fr/-slug', undefined, 'invalid_parameter', 'listingId'],
    ['booking', '-slug', 'fr', 'invalid_parameter', 'listingId'],
    ['booking', 'hotel le marais', 'fr', 'invalid_parameter', 'listingId'],
    ['booking', '12345?x', 'fr', 'invalid_parameter', 'listingId'],
    ['booking', 'https://www.booking.com/searchresults.html?ss=Paris', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'https://www.booking.com/hotel/fr/', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'https://www.booking.com/hotel/xx/hotel-le-marais.html', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'https://www.booking.com/hotel/fr/sub/hotel-le-marais.html', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'https://www.booking.co.uk/hotel/fr/hotel-le-marais.html', undefined, 'invalid_parameter', 'listingId'],
    ['booking', 'https://www.expedia.com/hotel/fr/hotel-le-marais.html', undefined, 'invalid_parameter', 'listingId'],
    // google
    ['google', 'has space', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'a/b', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'a'.repeat(201), undefined, 'invalid_parameter', 'listingId'],
    ['google', 'tok=', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'https://www.google.com/travel/hotels?q=paris', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'https://www.google.com/maps/place/x', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'https://www.google.com/travel/hotels/entity/bad%20token', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'https://www.google.com/travel/hotels/entity/%E0%A4%A', undefined, 'invalid_parameter', 'listingId'],
    ['google', 'https://www.googleusercontent.com/travel/hotels/entity/abc', undefined, 'invalid_parameter', 'listingId'],
  ])('%s %j (country %j) → %s on %s', (platform, input, country, code, param) => {
    const e = caught(() => parseListingId(platform, input as string, { country, param: 'listingId' }));
    expect(e.code).toBe(code);
    expect(e.param).toBe(param);
  });

  it('uses the caller param name', () => {
    const e = caught(() => parseListingId('airbnb', 'abc', { param: 'id' }));
    expect(e.param).toBe('id');
    expect(e.message).toBe('id for airbnb must be a numeric room id or an airbnb.com/rooms/<id> URL; got "abc".');
  });

  it('names both platforms on a stays id mismatch', () => {
    const e = caught(() => parseListingId('airbnb', 'stays_vrbo_123', { param: 'listingId' }));
    expect(e.message).toMatch(/vrbo/);
    expect(e.message).toMatch(/airbnb/);
  });

  it('explains vrbo listing codes', () => {
    expect(caught(() => parseListingId('vrbo', '4193579ha', { param: 'listingId' })).message).toMatch(/listing code/);
    expect(caught(() => parseListingUrl('vrbo', 'https://www.vrbo.com/4193579ha', { param: 'url' })).message).toMatch(/listing code/);
  });

  it('tells a bare booking slug how to add the country', () => {
    expect(caught(() => parseListingId('booking', 'casa-de-alba', { param: 'id' })).message).toMatch(/pass country.*fr\/casa-de-alba/);
  });
});

describe('parseListingUrl', () => {
  it.each<[Platform, string, string]>([
    ['airbnb', 'https://www.airbnb.com/rooms/12345', '12345'],
    ['airbnb', 'https://www.airbnb.co.uk/rooms/plus/12345?x=1', '12345'],
    ['airbnb', 'airbnb.com/rooms/12345', '12345'],
    ['vrbo', 'https://www.vrbo.com/4886746', '4886746'],
    ['vrbo', 'https://www.vrbo.com/en-gb/p4886746', '4886746'],
    ['vrbo', 'https://www.vrbo.com/cottage-rental/p20158487?adults=2', '20158487'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.html', 'fr/hotel-le-marais'],
    ['booking', 'https://www.booking.com/hotel/fr/hotel-le-marais.en-gb.html?selected_currency=USD', 'fr/hotel-le-marais'],
    ['booking', 'https://www.booking.com/hotel/br/pousada.pt-br.html', 'br/pousada'],
    ['google', 'https://www.google.com/travel/hotels/entity/ChYIq6SB4tKG', 'ChYIq6SB4tKG'],
    ['google', 'https://www.google.fr/travel/hotels/entity/ChYIq6SB4tKG/prices', 'ChYIq6SB4tKG'],
  ])('%s %j → %j', (platform, url, expected) => {
    expect(parseListingUrl(platform, url, { param: 'url' })).toBe(expected);
  });

  it.each<[Platform, unknown, string, string]>([
    ['airbnb', '', 'missing_parameter', 'url'],
    ['airbnb', `https://www.airbnb.com/rooms/${'1'.repeat(2030)}`, 'invalid_parameter', 'url'],
    ['expedia', 'https://www.expedia.com/h1.Hotel-Information', 'platform_not_enabled', 'platform'],
    ['airbnb', '12345', 'invalid_listing_url', 'url'],
    ['airbnb', 'stays_airbnb_12345', 'invalid_listing_url', 'url'],
    ['airbnb', 'https://www.airbnb.com/s/Paris/homes', 'invalid_listing_url', 'url'],
    ['airbnb', 'https://www.vrbo.com/12345', 'invalid_listing_url', 'url'],
    ['airbnb', 'not a url', 'invalid_listing_url', 'url'],
    ['vrbo', '4886746', 'invalid_listing_url', 'url'],
    ['vrbo', 'https://www.vrbo.com/4193579ha', 'invalid_listing_url', 'url'],
    ['vrbo', 'https://www.vrbo.com/search?destination=Paris', 'invalid_listing_url', 'url'],
    ['vrbo', 'https://www.vrbo.com/', 'invalid_listing_url', 'url'],
    ['booking', 'fr/hotel-le-marais', 'invalid_listing_url', 'url'],
    ['booking', 'https://www.booking.com/searchresults.html', 'invalid_listing_url', 'url'],
    ['booking', 'https://www.booking.com/hotel/xx/x.html', 'invalid_listing_url', 'url'],
    ['booking', 'https://www.airbnb.com/hotel/fr/x.html', 'invalid_listing_url', 'url'],
    ['google', 'ChYIq6SB4tKG', 'invalid_listing_url', 'url'],
    ['google', 'https://www.google.com/search?q=hotel', 'invalid_listing_url', 'url'],
    ['google', 'http://[::1', 'invalid_listing_url', 'url'],
  ])('%s %j → %s on %s', (platform, url, code, param) => {
    const e = caught(() => parseListingUrl(platform, url as string, { param: 'url' }));
    expect(e.code).toBe(code);
    expect(e.param).toBe(param);
  });
});

describe('robustness', () => {
  it('throws nothing but ServiceError on arbitrary input', () => {
    const input = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom('https://www.airbnb.com/rooms/', 'https://www.vrbo.com/', 'https://www.booking.com/hotel/', 'stays_', 'https%3A'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...ALL_PLATFORMS), input, fc.string({ maxLength: 4 }), fc.option(fc.string({ maxLength: 3 }), { nil: undefined }), (platform, base, tail, country) => {
        const raw = base + tail;
        for (const fn of [() => parseListingId(platform, raw, { country, param: 'listingId' }), () => parseListingUrl(platform, raw, { param: 'url' })]) {
          try {
            expect(typeof fn()).toBe('string');
          } catch (e) {
            expect(e).toBeInstanceOf(ServiceError);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('platformOf / inferListingRef (issue 22, item 15)', () => {
  it.each<[string, Platform | null]>([
    ['https://www.airbnb.com/rooms/12345678', 'airbnb'],
    ['www.airbnb.co.uk/rooms/12345678?adults=2', 'airbnb'],
    ['https://www.vrbo.com/4886746', 'vrbo'],
    ['https://www.booking.com/hotel/pt/casa-azul.en-gb.html', 'booking'],
    ['https://www.google.com/travel/hotels/entity/ChcIqOT1nq2Lz7qHARoKL2cvMXRjejZ3cBAB', 'google'],
    ['stays_booking_pt/casa-azul', 'booking'],
    // A URL on the platform's site that names no listing still names the platform (parseListingId refuses it).
    ['https://www.airbnb.com/s/Lisbon/homes', 'airbnb'],
    ['https://example.com/rooms/12345678', null],
    ['https://airbnb.com.evil.example/rooms/1', null],
    ['12345678', null],
    ['pt/casa-azul', null],
    ['ChIJ_a-b:c.d', null],
    ['airbnb:12345678', null],
    ['', null],
  ])('%s → %s', (input, platform) => {
    expect(platformOf(input)).toBe(platform);
  });

  it('infers the canonical id for the platform, and refuses a site URL that names no listing', () => {
    expect(inferListingRef('https://www.booking.com/hotel/pt/casa-azul.en-gb.html?x=1', { param: 'listings' })).toEqual({ platform: 'booking', id: 'pt/casa-azul' });
    expect(inferListingRef('12345678', { param: 'listings' })).toBeNull();
    expect(caught(() => inferListingRef('https://www.airbnb.com/s/Lisbon/homes', { param: 'listings' }))).toMatchObject({ code: 'invalid_parameter', param: 'listings' });
  });
});
