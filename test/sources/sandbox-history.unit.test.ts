// The sandbox's recorded history (src/sources/sandbox/history.ts) states what a platform's calendar
// would have shown at each instant: the day after a taken run refuses check-out only since the run
// was taken (a calendar states a day's check-out by the night before it), not over all of its past.
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/core/clock.js';
import { sandboxHistory } from '../../src/sources/sandbox/history.js';
import { sandboxUpstream } from '../../src/sources/sandbox/upstream.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

describe('the sandbox history of a calendar', () => {
  const history = sandboxHistory(sandboxUpstream(createSandboxWorld()));
  const listing = { platform: 'airbnb', listingId: '62959578' };

  it('states check-out on the day after a taken run as it was before the run was taken, and refused since', async () => {
    const rows = await history.calendar(listing, { from: '2027-06-01', to: '2027-06-30' });
    const byNight = new Map<string, typeof rows>();
    for (const r of rows) byNight.set(r.key, [...(byNight.get(r.key) ?? []), r]);
    const taken = (d: string) => byNight.get(d)!.at(-1)!.value.available === false;
    const days = [...byNight.keys()].sort();
    let checked = 0;
    for (const [i, d] of days.entries()) {
      const prev = days[i - 1];
      if (prev === undefined || !taken(prev) || taken(d)) continue;
      // The night before was taken at the first instant its row says so; until then it was free.
      const prevTakenAt = byNight.get(prev)!.find((r) => r.value.available === false)!.firstSeen;
      for (const r of byNight.get(d)!) {
        if (r.lastSeen < prevTakenAt) expect([d, r.value.checkOut]).toEqual([d, true]);
        if (r.firstSeen >= prevTakenAt) expect([d, r.value.checkOut]).toEqual([d, false]);
        // No row spans the instant the night before was taken.
        expect(r.firstSeen >= prevTakenAt || r.lastSeen < prevTakenAt).toBe(true);
      }
      expect(byNight.get(d)!.some((r) => r.lastSeen < prevTakenAt)).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    // Rows follow each other a day apart, never overlapping.
    for (const list of byNight.values()) for (let i = 1; i < list.length; i++) expect(list[i]!.firstSeen).toBe(list[i - 1]!.lastSeen + DAY_MS);
  });
});
