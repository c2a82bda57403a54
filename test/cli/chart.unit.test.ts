// The history charts (commands/_lib/output/chart.ts): a step series drawn as a line that fits the
// width it is given (braille on a terminal, ASCII otherwise), the sparklines of tables and summary
// lines, and when a terminal gets Unicode. Pure functions: rendered here at fixed widths.
import { describe, expect, it } from 'vitest';
import { lineChart, mergeShortLast, sample, sparkline, unicodeFor } from '../../commands/_lib/output/chart.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2027, 0, 1);
/** Three weeks: 100, then 130, then 90. */
const SERIES = [
  { t: T0, v: 100 },
  { t: T0 + 7 * DAY, v: 130 },
  { t: T0 + 14 * DAY, v: 90 },
];
const widths = (s: string) =>
  s
    .trimEnd()
    .split('\n')
    .map((l) => [...l].length);

describe('lineChart', () => {
  for (const width of [80, 200, 40]) {
    for (const unicode of [true, false]) {
      it(`no line is wider than ${width} columns (${unicode ? 'braille' : 'ASCII'})`, () => {
        const chart = lineChart(SERIES, { width, unicode, end: T0 + 20 * DAY });
        const lines = widths(chart);
        expect(Math.max(...lines)).toBeLessThanOrEqual(width);
        // The axis line takes the width: the chart uses what it is given, not a fixed size.
        expect(Math.max(...lines)).toBeGreaterThan(width - 3);
      });
    }
  }

  it('braille: only braille cells in the plot; the highest value labels the top row, the lowest the bottom', () => {
    const lines = lineChart(SERIES, { width: 60, height: 6, unicode: true }).trimEnd().split('\n');
    expect(lines).toHaveLength(6 + 2);
    expect(lines[0]!.startsWith('130 ┤')).toBe(true);
    expect(lines[5]!.startsWith(' 90 ┤')).toBe(true);
    const plot = lines
      .slice(0, 6)
      .map((l) => l.slice(5))
      .join('');
    expect(plot).toMatch(/^[\u2800-\u28ff ]+$/);
    // The line's dots: the top row is lit (the 130 week), and so is the bottom row (the 90 week).
    expect(lines[0]!.slice(5)).toMatch(/[\u2801-\u28ff]/);
    expect(lines[5]!.slice(5)).toMatch(/[\u2801-\u28ff]/);
    expect(lines.at(-1)!.trim()).toMatch(/^2027-01-01 +2027-01-15$/);
  });

  it('ASCII: pure 7-bit text; the 130 week is on the top row, in the middle of the x axis', () => {
    // Each value holds a week: the axis ends a week after the last change.
    const chart = lineChart(SERIES, { width: 40, height: 4, unicode: false, label: (v) => `${v}`, end: T0 + 21 * DAY });
    expect(chart).toMatch(/^[\x20-\x7e\n]+$/);
    const lines = chart.split('\n');
    const top = lines[0]!.slice(5);
    // Plot columns 35 wide (40 - 3 of label - 2): the second third of the time is the top row.
    const lit = [...top].flatMap((c, i) => (c === '-' || c === '*' ? [i] : []));
    expect(lit.length).toBeGreaterThan(5);
    expect(Math.min(...lit)).toBeGreaterThan(8);
    expect(Math.max(...lit)).toBeLessThan(27);
  });

  it('a flat series sits in the middle; no points, no chart', () => {
    const flat = lineChart([{ t: T0, v: 5 }], { width: 30, height: 5, unicode: false, end: T0 + DAY }).split('\n');
    expect(flat[2]).toMatch(/-{5,}/);
    expect(lineChart([], { width: 80, unicode: true })).toBe('');
  });
});

describe('sparkline and sample', () => {
  it('one character a value, lowest to highest, in blocks or ASCII', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8], true)).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([1, 8, null, 1], false)).toBe('_# _');
    expect(sparkline([3, 3], true)).toBe('▅▅');
  });

  it('samples a step series at even instants: each value as long as it held', () => {
    expect(sample(SERIES, 3, T0 + 14 * DAY)).toEqual([100, 130, 90]);
    expect(sample(SERIES, 5, T0 + 14 * DAY)).toEqual([100, 100, 130, 130, 90]);
  });
});

describe('unicodeFor', () => {
  it('a terminal gets Unicode; a pipe, CI, TERM=dumb or NO_COLOR get ASCII', () => {
    expect(unicodeFor({ outTTY: true, ci: false, env: {} })).toBe(true);
    expect(unicodeFor({ outTTY: false, ci: false, env: {} })).toBe(false);
    expect(unicodeFor({ outTTY: true, ci: true, env: {} })).toBe(false);
    expect(unicodeFor({ outTTY: true, ci: false, env: { TERM: 'dumb' } })).toBe(false);
    expect(unicodeFor({ outTTY: true, ci: false, env: { NO_COLOR: '1' } })).toBe(false);
  });
});

describe('mergeShortLast (issue 36, item 10)', () => {
  const week = (from: string, to: string, value: number | null, sample: number) => ({ from, to, value, sample });
  it('merges a last bucket shorter than a week into the week before, weighted by the samples, and says which nights', () => {
    const r = mergeShortLast([week('2027-06-01', '2027-06-08', 0.3, 70), week('2027-06-08', '2027-06-15', 0.3, 70), week('2027-06-15', '2027-06-16', 0.45, 10)], 7);
    expect(r.buckets).toHaveLength(2);
    expect(r.buckets[1]).toEqual({ from: '2027-06-08', to: '2027-06-16', value: (0.3 * 70 + 0.45 * 10) / 80, sample: 80 });
    expect(r.merged).toEqual({ from: '2027-06-15', to: '2027-06-16', nights: 1 });
  });
  it('leaves whole weeks, a single bucket, and a bucket without a value alone or out of the weighting', () => {
    const whole = [week('2027-06-01', '2027-06-08', 0.3, 70), week('2027-06-08', '2027-06-15', 0.4, 70)];
    expect(mergeShortLast(whole, 7)).toEqual({ buckets: whole, merged: null });
    expect(mergeShortLast([week('2027-06-01', '2027-06-03', 0.5, 20)], 7).merged).toBeNull();
    const empty = mergeShortLast([week('2027-06-01', '2027-06-08', 0.3, 70), week('2027-06-08', '2027-06-10', null, 0)], 7);
    expect(empty.buckets[0]).toMatchObject({ to: '2027-06-10', value: 0.3 });
  });
});
