// Method match/1 (src/core/analytics/matches.ts) signal by signal: no penalty for pin jitter within
// 200 m, vetoes (1 km, bedrooms two apart, photos of another unit, the place not confirmed), a
// signal only one listing states neither helps nor hurts, host names; and the sandbox truth adds
// listings without changing any listing the world answered before (twins.ts: new ids only).
import { describe, expect, it } from 'vitest';
import { type MatchFacts, scoreMatch } from '../../src/core/analytics/matches.js';
import { baseRow, CandidateRows, detailRow } from '../../src/sources/sandbox/rows.js';
import { sandboxTruth } from '../../src/sources/sandbox/truth.js';

const M_PER_DEG = 111_320;
const base: MatchFacts = {
  platform: 'airbnb',
  listingId: '1',
  name: 'Sunny 2BR loft near Alfama',
  lat: 38.71,
  lng: -9.13,
  city: 'Lisbon',
  bedrooms: 2,
  bathrooms: 1,
  maxOccupancy: 4,
  host: 'Ana',
  photoHashes: ['0123456789abcdef', 'fedcba9876543210', '00ff00ff00ff00ff'],
};
const other = (over: Partial<MatchFacts>): MatchFacts => ({ ...base, platform: 'vrbo', listingId: '2', ...over });
const north = (m: number) => base.lat! + m / M_PER_DEG;
const signal = (v: ReturnType<typeof scoreMatch>, s: string) => v.signals.find((x) => x.signal === s)!;

describe('match/1', () => {
  it('a translated, renamed listing 150 m away with the same photos is a match; the distance costs nothing within 200 m', () => {
    const v = scoreMatch(base, other({ name: '2-Bedroom Loft perto de Alfama - Lisbon', lat: north(150), host: 'Ana M.' }));
    expect(v.match).toBe(true);
    expect(signal(v, 'distance')).toMatchObject({ score: 1, agrees: true });
    expect(signal(v, 'distance').detail).toMatch(/^1[45]\d m apart: within the 200 m/);
    // Translated and renamed: the room words and bedroom counts are one token (sunny is the only one left over).
    expect(signal(v, 'name').score).toBeGreaterThan(0.8);
    expect(signal(v, 'host')).toMatchObject({ score: 1, agrees: true });
    const far = scoreMatch(base, other({ lat: north(600) }));
    expect(signal(far, 'distance').score).toBeCloseTo(0.5, 2);
  });

  it('vetoes: more than 1 km apart, bedrooms two apart, no photo in common, the place not confirmed', () => {
    expect(scoreMatch(base, other({ lat: north(1200) })).veto).toMatch(/^1\d{3} m apart \(more than 1000 m\)$/);
    expect(scoreMatch(base, other({ bedrooms: 4 })).veto).toBe('bedrooms 2 and 4');
    const unit = scoreMatch(base, other({ photoHashes: ['0123456789abcdef', '1111111111111111', '2222222222222222'] }));
    expect(unit).toMatchObject({ match: false, veto: 'only one photo in common (of 3): another unit, not this one' });
    const blind = scoreMatch({ ...base, lat: null, lng: null, photoHashes: null }, other({ photoHashes: null }));
    expect(blind.veto).toBe('the place is not confirmed: neither the distance nor the photos agree');
    expect(blind.match).toBe(false);
  });

  it('photos a few bits apart are the same photo; a signal one side lacks neither helps nor hurts', () => {
    // Each hash with 3 bits flipped.
    const flipped = ['0123456789abcde8', 'fedcba9876543217', '00ff00ff00ff00f8'];
    expect(signal(scoreMatch(base, other({ photoHashes: flipped })), 'photos')).toMatchObject({ score: 1, agrees: true });
    const a = scoreMatch(base, other({ bathrooms: null }));
    const b = scoreMatch(base, other({}));
    expect(signal(a, 'bathrooms')).toMatchObject({ score: null, agrees: null });
    expect(a.score).toBe(b.score);
  });

  it('host names: the same first name agrees, another person disagrees, a company beside a person says nothing', () => {
    expect(signal(scoreMatch(base, other({ host: 'Marta S.' })), 'host')).toMatchObject({ score: 0, agrees: false });
    expect(signal(scoreMatch(base, other({ host: 'Sunset Stays Co.' })), 'host')).toMatchObject({ score: null, agrees: null });
  });

  it('the truth adds listings only: every search row of every platform reads as it did without it', () => {
    for (const platform of ['airbnb', 'vrbo', 'booking', 'google'] as const) {
      for (const city of ['Lisbon', 'Paris', 'Tokyo']) {
        const rows = new CandidateRows(platform, city);
        for (let r = rows.next(); r; r = rows.next()) expect(detailRow(platform, r.id)).toEqual(baseRow(platform, r.id));
      }
    }
    // The truth's own listings read as the truth has them.
    const twin = sandboxTruth.twins('airbnb', '62959578')[0]!;
    expect(detailRow(twin.platform, twin.id)).not.toEqual(baseRow(twin.platform, twin.id));
  });
});
