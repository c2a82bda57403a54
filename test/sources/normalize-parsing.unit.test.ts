// The text readers behind the normalizers: amenity labels → canonical tokens, and money text →
// numbers (never NaN; unreadable → null). Also checks the emit side's labels and money text read
// back exactly, since the simulated upstream's losslessness rests on that.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENABLED_PLATFORMS } from '../../src/core/platforms.js';
import { AMENITIES, type Amenity, PROPERTY_TYPES } from '../../src/core/schemas/resources.js';
import { amenityOf, canonicalAmenities, propertyAmenities } from '../../src/sources/normalize/amenities.js';
import { propertyTypeOf, tripType } from '../../src/sources/normalize/common.js';
import { parseMoney } from '../../src/sources/normalize/money.js';
import { AMENITY_LABELS, TRIP_LABELS, TYPE_LABELS, formatMoney } from '../../src/sources/raw/labels.js';

describe('amenity labels', () => {
  it.each<[string, Amenity | null]>([
    ['Wifi', 'wifi'],
    ['Free WiFi', 'wifi'],
    ['Free Wi-Fi', 'wifi'],
    ['Wireless internet', 'wifi'],
    ['Pool', 'pool'],
    ['Outdoor swimming pool', 'pool'],
    ['Private pool', 'pool'],
    ['Heated pool', 'pool'],
    ['Pool table', null],
    ['Pool view', null],
    ['Hot tub', 'hot_tub'],
    ['Hot tub/Jacuzzi', 'hot_tub'],
    ['Whirlpool', 'hot_tub'],
    ['Air conditioning', 'air_conditioning'],
    ['Air-conditioned', 'air_conditioning'],
    ['A/C', 'air_conditioning'],
    ['Heating', 'heating'],
    ['Central heating', 'heating'],
    ['Free parking on premises', 'parking_free'],
    ['Free street parking', 'parking_free'],
    ['Paid parking off premises', 'parking_paid'],
    ['Private parking at a charge', 'parking_paid'],
    ['Parking', null],
    ['Pets allowed', 'pet_friendly'],
    ['Pet-friendly', 'pet_friendly'],
    ['Pets not allowed', null],
    ['No pets', null],
    ['Washer', 'washer'],
    ['Washing machine', 'washer'],
    ['Free washer – In unit', 'washer'],
    ['Dishwasher', 'dishwasher'],
    ['Dryer', 'dryer'],
    ['Tumble dryer', 'dryer'],
    ['Hair dryer', null],
    ['Kitchen', 'kitchen'],
    ['Kitchenette', 'kitchen'],
    ['Dedicated workspace', 'workspace'],
    ['Laptop-friendly workspace', 'workspace'],
    ['Desk', 'workspace'],
    ['Beachfront', 'beachfront'],
    ['Beach access – Beachfront', 'beachfront'],
    ['Sea view', 'sea_view'],
    ['Ocean view', 'sea_view'],
    ['EV charger', 'ev_charger'],
    ['Gym', 'gym'],
    ['Fitness centre', 'gym'],
    ['Patio or balcony', 'balcony'],
    ['BBQ grill', 'bbq'],
    ['Crib', 'crib'],
    ['Cot', 'crib'],
    ['Elevator', 'elevator'],
    ['Lift', 'elevator'],
    ['Facilities for disabled guests', 'wheelchair_accessible'],
    ['Smoke alarm', 'smoke_alarm'],
    ['Carbon monoxide alarm', null],
    ['Breakfast', 'breakfast'],
    ['Breakfast not included', null],
    ['Spa and wellness centre', 'spa'],
    ['Sauna', 'spa'],
    ['Garden', 'garden'],
    ['Indoor fireplace', 'fireplace'],
    ['Self check-in', 'self_check_in'],
    ['Keypad', 'self_check_in'],
    ['Non-smoking rooms', 'non_smoking'],
    ['Smoking not allowed', 'non_smoking'],
    ['Smoke-free property', 'non_smoking'],
    ['Family rooms', 'family_friendly'],
    ['Children’s books and toys', 'family_friendly'],
    ['TV', null],
    ['194 feet²', null],
    ['', null],
    ['   ', null],
  ])('%j → %j', (label, token) => {
    expect(amenityOf(label)).toBe(token);
  });

  it('drops unknown labels and duplicates, keeping first-seen order', () => {
    expect(canonicalAmenities(['Wifi', 'Outdoor swimming pool', 'TV', 'Free WiFi', 'Pool', 42, null, 'Kitchen'])).toEqual(['wifi', 'pool', 'kitchen']);
    // A Property lists them in taxonomy order, whatever order the platform used.
    expect(propertyAmenities(['Kitchen', 'Wifi', 'Pool'])).toEqual(['pool', 'kitchen', 'wifi']);
    expect(propertyAmenities(['Pool', 'Wifi', 'Kitchen'])).toEqual(propertyAmenities(['Kitchen', 'Pool', 'Wifi']));
  });

  it('every label the simulated upstream writes reads back to its token, on every platform', () => {
    for (const a of AMENITIES) for (const p of ENABLED_PLATFORMS) expect([p, AMENITY_LABELS[a][p], amenityOf(AMENITY_LABELS[a][p])]).toEqual([p, AMENITY_LABELS[a][p], a]);
    for (const t of PROPERTY_TYPES) for (const p of ENABLED_PLATFORMS) expect([p, propertyTypeOf(TYPE_LABELS[t][p])]).toEqual([p, t]);
    for (const [t, l] of Object.entries(TRIP_LABELS)) expect([tripType(l.booking), tripType(l.vrbo)]).toEqual([t, t]);
  });
});

describe('money', () => {
  it.each<[unknown, number | null]>([
    ['$139', 139],
    ['€1,234.50', 1234.5],
    ['US$99', 99],
    [139, 139],
    [0, 0],
    [12.34, 12.34],
    ['$107', 107],
    ['£48', 48],
    ['¥15,000', 15000],
    ['1,234,567.89', 1234567.89],
    ['1.234,50 €', 1234.5],
    ['1 234,50 €', 1234.5],
    ['1\u202f234,50\u00a0€', 1234.5],
    ["CHF 1'234.50", 1234.5],
    ['12,5', 12.5],
    ['1.234', 1234],
    ['0.125', 0.125],
    ['1.2340', 1.234],
    ['R$ 1.000,00', 1000],
    ['$1,079 total, originally $1,549', 1079],
    ['$107 per night', 107],
    ['$107 2 guests', 107],
    ['+€56.40 taxes and charges', 56.4],
    ['-$20', -20],
    ['−€5', -5],
    ['Cleaning fee - $48', 48],
    ['€ ', null],
    ['', null],
    ['Free', null],
    ['1,23,4', null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [null, null],
    [undefined, null],
    [{}, null],
    [true, null],
  ])('%j → %j', (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  it('is never NaN: any text reads as a finite number or null', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), (s) => {
        const n = parseMoney(s);
        return n === null || Number.isFinite(n);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back every amount the simulated upstream writes, in any currency', () => {
    const currency = fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'KRW', 'CHF', 'BRL', 'SEK', 'XAF');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 11 }), currency, (cents, cur) => parseMoney(formatMoney(cents / 100, cur)) === cents / 100),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1e12, noNaN: true }), currency, (n, cur) => parseMoney(formatMoney(n, cur)) === n),
      { numRuns: 3000 },
    );
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(15000, 'JPY')).toBe('¥15,000');
    expect(formatMoney(99, 'CHF')).toBe('CHF 99');
    expect(formatMoney(1.234, 'USD')).toBe('$1.2340');
  });
});
