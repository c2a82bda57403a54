// The search forms' flags (commands/_lib/flags/family.ts) come from the core's key lists (D8): each key
// only one form has is a flag of `stays search`, and the S schema accepts every S key.
import { describe, expect, it } from 'vitest';
import { S_ONLY, U_ONLY, familyOf } from '../../commands/_lib/flags/family.js';
import { buildProgram } from '../../commands/program.js';
import { FAMILY_S_SEARCH_KEYS, FAMILY_U_ONLY_SEARCH_KEYS } from '../../src/core/search-family.js';
import { SSearchBody } from '../../src/core/schemas/stays.js';

const program = await buildProgram();

describe('search form flags', () => {
  const search = program.commands.find((c) => c.name() === 'search')!;
  const longs = new Map(search.options.map((o) => [o.attributeName(), o.long]));

  it('are `stays search` options named after the core keys of each form', () => {
    for (const [key, flag] of Object.entries({ ...S_ONLY, ...U_ONLY })) expect(longs.get(key), key).toBe(flag);
    expect(Object.keys(S_ONLY)).toEqual([...FAMILY_S_SEARCH_KEYS, 'withDetails']);
    expect(Object.keys(U_ONLY)).toEqual([...FAMILY_U_ONLY_SEARCH_KEYS]);
  });

  it('S keys are keys of the S body; U-only keys are not', () => {
    const shape = Object.keys(SSearchBody.shape);
    for (const k of FAMILY_S_SEARCH_KEYS) expect(shape, k).toContain(k);
    for (const k of FAMILY_U_ONLY_SEARCH_KEYS) expect(shape, k).not.toContain(k);
  });

  it('one key of each form is a usage error naming both flags', () => {
    expect(familyOf({ minBathrooms: 2, sort: 'price_asc' })).toEqual({ error: expect.stringContaining('--min-bathrooms belongs to the Family S form of search and --sort') });
    expect(familyOf({ nextPageToken: 't' })).toEqual({ family: 's' });
    expect(familyOf({ childAges: '3' })).toEqual({ family: 'u' });
  });
});
