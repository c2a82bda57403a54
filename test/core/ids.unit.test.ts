import { describe, expect, it } from 'vitest';
import { systemIds } from '../../src/core/ids.js';

describe('systemIds', () => {
  it('mints ids that sort in the order they were minted, within one millisecond too', () => {
    let now = 1_800_000_000_000;
    const ids = systemIds(() => now);
    const minted: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      minted.push(ids.ulid());
      if (i % 500 === 499) now += 1;
    }
    expect(new Set(minted).size).toBe(minted.length);
    expect([...minted].sort()).toEqual(minted);
    // Lower-cased, as key and account ids are, the order holds too (Crockford has no letters that case-fold together).
    const lower = minted.map((m) => m.toLowerCase());
    expect([...lower].sort()).toEqual(lower);
    for (const m of minted) expect(m).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('carries into the higher characters when the random part rolls over', () => {
    const ids = systemIds(() => 1_800_000_000_000);
    let prev = ids.ulid();
    for (let i = 0; i < 70_000; i++) {
      const next = ids.ulid();
      expect(next > prev).toBe(true);
      prev = next;
    }
  });
});
