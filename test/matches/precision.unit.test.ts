// The matching method's accuracy on the sandbox world's labelled pairs (issue 27, item 4): at the
// default threshold, precision at least 0.98 on at least 200 pairs of listings whose truth the
// world knows (the same property on two platforms, or a neighbour that is another property).
import { describe, expect, it } from 'vitest';
import { scoreMatch } from '../../src/core/analytics/matches.js';
import { DEFAULT_MATCH_THRESHOLD, MATCH_METHOD, evaluateMatches, labelledPairs, sandboxFacts } from '../../src/sources/sandbox/match-eval.js';
import { sandboxTruth } from '../../src/sources/sandbox/truth.js';

describe(`${MATCH_METHOD} on the sandbox world's labelled pairs`, () => {
  const pairs = labelledPairs();

  it('has at least 200 labelled pairs, positives and hard negatives', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    expect(pairs.filter((p) => p.same).length).toBeGreaterThanOrEqual(100);
    expect(pairs.filter((p) => !p.same).length).toBeGreaterThanOrEqual(100);
  });

  it('keeps precision at or above 0.98 at the default threshold, with recall reported', () => {
    const [c] = evaluateMatches(pairs, [DEFAULT_MATCH_THRESHOLD]);
    expect(c!.truePositives + c!.falsePositives + c!.falseNegatives + c!.trueNegatives).toBe(pairs.length);
    expect(c!.precision).toBeGreaterThanOrEqual(0.98);
    // Recall is what the bench publishes; a collapse would make precision meaningless.
    expect(c!.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('the hard negatives are hard: same building, same bedrooms, similar names', () => {
    const neighbours = pairs.filter((p) => !p.same);
    const close = neighbours.filter((p) => {
      const v = scoreMatch(sandboxFacts(p.a.platform, p.a.id), sandboxFacts(p.b.platform, p.b.id));
      const d = v.signals.find((s) => s.signal === 'distance');
      const b = v.signals.find((s) => s.signal === 'bedrooms');
      return d?.score === 1 && (b?.score ?? 1) === 1;
    });
    expect(close.length).toBeGreaterThan(neighbours.length / 3);
  });

  it('says twins of each other symmetrically, never a neighbour', () => {
    const anchor = pairs.find((p) => p.same && p.a.platform === 'airbnb')!.a;
    const twins = sandboxTruth.twins('airbnb', anchor.id);
    expect(twins.length).toBeGreaterThan(0);
    for (const t of twins) expect(sandboxTruth.twins(t.platform, t.id)).toContainEqual({ platform: 'airbnb', id: anchor.id });
    const neighbour = sandboxTruth.around('airbnb', anchor.id).find((m) => m.role === 'neighbour');
    if (neighbour) expect(sandboxTruth.twins(neighbour.platform, neighbour.id)).toEqual([]);
  });
});
