// D21: sandbox answers are byte-identical across runs, machines and releases. This pins a sample
// of the world's output; a change to the generator shows up as a diff here, to be made only on
// purpose (update with `npx vitest run -u test/sources/sandbox-golden.unit.test.ts` and say so in the
// release notes, since CI smoke tests of users compare against it).
import { expect, it } from 'vitest';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

const stay = { checkIn: '2027-03-01', checkOut: '2027-03-04', adults: 2, children: 1, childAges: [6], currency: 'EUR' };

it('the sandbox world answers exactly as released', async () => {
  const w = createSandboxWorld();
  const sample = {
    search: Object.fromEntries((['airbnb', 'booking', 'vrbo', 'google'] as const).map((p) => [p, w.searchPlatform(p, 'Lisbon', { currency: 'EUR', rooms: 1, stay }).slice(0, 2)])),
    searchUndated: w.searchPlatform('vrbo', 'Kyoto', { currency: 'USD', rooms: 1 }).slice(0, 1),
    listing: w.listing('airbnb', '12345678', { currency: 'USD', requestedId: '12345678', stay }),
    price: w.price('booking', 'pt/casa-azul', stay),
    availability: w.availability('vrbo', '4886746', '2027-03-01', '2027-03-08'),
    reviews: w.reviews('booking', 'pt/casa-azul').slice(0, 2),
    compare: w.compareGoogle({ name: 'Hotel Aurora', location: 'Lisbon' }, stay),
  };
  await expect(`${JSON.stringify(sample, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/sandbox-golden.json');
});
