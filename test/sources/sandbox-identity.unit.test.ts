// Issue 22, item 6: one id is one property wherever it is read. Exhaustive over the sandbox's
// built-in places (and the other place forms): every row of every search, read back by the id
// alone (listing detail), has the same name and place, on the sandbox world and through the
// simulated upstream (the raw actor rows and normalizers live keys take in tests).
import { describe, expect, it } from 'vitest';
import type { EnabledPlatform } from '../../src/core/platforms.js';
import type { Property } from '../../src/core/schemas/resources.js';
import { CITIES } from '../../src/sources/sandbox/places.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { simulatedUpstream } from '../../src/sources/simulated.js';

const PLATFORMS: EnabledPlatform[] = ['airbnb', 'booking', 'vrbo', 'google'];
const OTHER_PLACES = ['Lisboa', 'lisbon, Portugal', 'Japan', 'NYC', 'Springfield, IL', 'Kyoto', '38.72,-9.14', '10,10', 'Somewhere far'];
const stay = { checkIn: '2027-03-01', checkOut: '2027-03-04', adults: 2, children: 0, childAges: [], currency: 'USD' };

/** What a row and a lookup of its id must agree on: the name and, where the detail states it, the place. */
function sameProperty(row: Property, detail: Property, where: string): void {
  expect(detail.name, where).toBe(row.name);
  expect(detail.propertyType, where).toBe(row.propertyType);
  if (detail.location.city === null) {
    // The id says no place (a place outside the built-in table): detail states none (spec rule 5).
    expect(detail.location.lat, where).toBeNull();
  } else expect(detail.location, where).toEqual(row.location);
}

describe('a sandbox id is one property wherever it is read', () => {
  it('every search row of every built-in city, looked up by id, reads the same (sandbox world)', () => {
    const w = createSandboxWorld();
    for (const place of [...CITIES.map((c) => c.name), ...OTHER_PLACES]) {
      for (const p of PLATFORMS) {
        const rows = w.searchPlatform(p, place, { currency: 'USD', rooms: 1, stay });
        expect(rows.length).toBe(60);
        for (const row of rows) {
          const d = w.listing(p, row.platformListingId, { currency: 'USD', requestedId: row.platformListingId, stay });
          sameProperty(row, d, `${p} ${row.platformListingId} found in ${place}`);
          if (CITIES.some((c) => c.name === place)) expect(d.location.city, `${p} ${row.platformListingId} in ${place}`).toBe(place);
        }
      }
    }
  });

  it('the same through the simulated upstream (live keys in tests)', async () => {
    const u = simulatedUpstream(createSandboxWorld(), { latencyMs: { airbnb: 0, booking: 0, vrbo: 0, google: 0 }, fail: {}, sleep: async () => {} });
    for (const place of ['Lisbon', 'Mexico City', 'Springfield, IL', '38.72,-9.14']) {
      for (const p of PLATFORMS) {
        for (const row of (await u.searchPlatform(p, place, { currency: 'USD', rooms: 1, stay })).slice(0, 20)) {
          sameProperty(row, (await u.listing(p, row.platformListingId, { currency: 'USD' })) as Property, `${p} ${row.platformListingId} found in ${place}`);
        }
      }
    }
  });

  it('an id never seen in a search still has a listing, with one place (or none) wherever read', () => {
    const w = createSandboxWorld();
    for (const id of ['12345678', '62959596', '987654321', '10000000']) {
      const a = w.listing('airbnb', id, { currency: 'USD', requestedId: id });
      const b = w.listing('airbnb', id, { currency: 'EUR', requestedId: id, stay });
      expect(b.name).toBe(a.name);
      expect(b.location).toEqual(a.location);
    }
  });
});
