// `stays history` as a real child process over the build (bin/stays): piped, so the chart is
// ASCII and the default format tsv; a bad date is a usage error with nothing on stdout. The
// in-process tier (history.inprocess.test.ts) covers the formats, widths, live and remote reads.
import { describe, expect, it } from 'vitest';
import { freshSandbox, stays } from './helpers.js';

const PRICE = ['history', 'price', 'vrbo', '321', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--to', '2027-03-01'];

describe('stays history (child process)', () => {
  it('prints the sandbox price history as tsv and an ASCII chart when piped; bad input exits 2 with nothing on stdout', async () => {
    const box = freshSandbox();
    const tsv = await stays(PRICE, box.env);
    expect(tsv.code, tsv.stderr).toBe(0);
    const rows = tsv.stdout.trim().split('\n');
    expect(rows.length).toBeGreaterThan(3);
    // tsv: the price_history columns, no header; the source is the sandbox's.
    expect(rows.every((r) => r.split('\t').length === 8 && r.endsWith('\tsandbox'))).toBe(true);
    const chart = await stays([...PRICE, '--chart'], { ...box.env, COLUMNS: '100' });
    expect(chart.code, chart.stderr).toBe(0);
    expect(chart.stdout).toMatch(/^nightly price \(USD\)/);
    expect(chart.stdout).toMatch(/^[\x20-\x7e\n]+$/);
    expect(
      Math.max(
        ...chart.stdout
          .trimEnd()
          .split('\n')
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(100);
    const bad = await stays(['history', 'export', '--since', 'not-a-date'], box.env);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/since/);
  });
});
