// The accuracy of the matching method (src/core/analytics/matches.ts) on the sandbox world's
// labelled pairs (twins.ts): every pair of listings of a multi-listed property on two platforms
// (same) and every listing of it with a neighbour on another platform (not the same), for the
// multi-listed airbnb listings of the first `cities` built-in cities' airbnb searches. Used by the
// precision test (test/matches/precision.unit.test.ts) and `node bench/run.mjs matches`.
import { DEFAULT_MATCH_THRESHOLD, type MatchFacts, matchFacts, scoreMatch } from '../../core/analytics/matches.js';
import type { EnabledPlatform } from '../../core/platforms.js';
import { CITIES } from './places.js';
import { CandidateRows, detailRow } from './rows.js';
import { sandboxTruth } from './truth.js';
import type { LabelledPair } from './twins.js';

export interface Confusion {
  threshold: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  precision: number;
  recall: number;
  f1: number;
}

/** The facts of a sandbox listing as the sandbox's /v1/matches reads them (detail and photo hashes). */
export function sandboxFacts(platform: EnabledPlatform, id: string): MatchFacts {
  const p = detailRow(platform, id).property;
  return matchFacts(
    p,
    p.images.map((u) => sandboxTruth.photoHash(u) ?? '').filter((h) => h.length === 16),
  );
}

/** The labelled pairs of the first `cities` built-in cities. */
export function labelledPairs(cities = 6): LabelledPair[] {
  const anchors: string[] = [];
  for (const c of CITIES.slice(0, cities)) {
    const rows = new CandidateRows('airbnb', c.name);
    for (let r = rows.next(); r; r = rows.next()) anchors.push(r.id);
  }
  return sandboxTruth.pairs(anchors);
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The confusion counts, precision, recall and F1 of the method at each threshold. */
export function evaluateMatches(pairs: readonly LabelledPair[], thresholds: readonly number[] = [DEFAULT_MATCH_THRESHOLD]): Confusion[] {
  const facts = new Map<string, MatchFacts>();
  const of = (l: { platform: EnabledPlatform; id: string }) => {
    const k = `${l.platform}:${l.id}`;
    let f = facts.get(k);
    if (!f) facts.set(k, (f = sandboxFacts(l.platform, l.id)));
    return f;
  };
  return thresholds.map((threshold) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let tn = 0;
    for (const p of pairs) {
      const said = scoreMatch(of(p.a), of(p.b), threshold).match;
      if (said && p.same) tp++;
      else if (said) fp++;
      else if (p.same) fn++;
      else tn++;
    }
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { threshold, truePositives: tp, falsePositives: fp, falseNegatives: fn, trueNegatives: tn, precision: r4(precision), recall: r4(recall), f1: r4(f1) };
  });
}

export { DEFAULT_MATCH_THRESHOLD, MATCH_METHOD } from '../../core/analytics/matches.js';
