// One night's story from several accounts' series (src/store/sql/merge-runs.ts, issue 35 item 5):
// over random series, the merged runs are exactly the runs of equal values that every row's known
// instants (first and last seen) make together in time order, and no observation is lost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeAccounts, mergeNight } from '../../src/store/sql/merge-runs.js';
import type { Row } from '../../src/store/rows.js';

/** The rows one series writes of its observations (instant, value), in time order: equal neighbours extend a row. */
function rowsOf(account: string, seen: readonly { at: number; v: string }[], nextId: () => number): Row[] {
  const out: Row[] = [];
  for (const s of seen) {
    const last = out.at(-1);
    if (last && last.value === s.v) {
      last.last_seen = s.at;
      last.times_seen = Number(last.times_seen) + 1;
    } else out.push({ id: nextId(), account_id: account, listing_id: '9', key: '2027-03-01', currency: null, value: s.v, first_seen: s.at, last_seen: s.at, times_seen: 1 });
  }
  return out;
}

const series = fc
  .array(fc.record({ account: fc.constantFrom('', 'acct_a', 'acct_b', 'acct_c'), v: fc.constantFrom('{"available":true}', '{"available":false}') }), { minLength: 1, maxLength: 60 })
  .chain((obs) => fc.shuffledSubarray([...Array(200).keys()], { minLength: obs.length, maxLength: obs.length }).map((ats) => obs.map((o, i) => ({ ...o, at: ats[i]! }))));

describe('one night merged across accounts', () => {
  it('the runs are those of every row endpoint in time order; times seen add up', () => {
    fc.assert(
      fc.property(series, (obs) => {
        let id = 0;
        const rows: Row[] = [];
        for (const account of new Set(obs.map((o) => o.account))) {
          rows.push(
            ...rowsOf(
              account,
              obs.filter((o) => o.account === account).sort((a, b) => a.at - b.at),
              () => ++id,
            ),
          );
        }
        const merged = mergeNight(rows);
        // Expected: each row's first and last seen as instants, in time order, equal neighbours one run.
        const points = rows
          .flatMap((r) =>
            r.first_seen === r.last_seen
              ? [{ at: Number(r.first_seen), v: r.value }]
              : [
                  { at: Number(r.first_seen), v: r.value },
                  { at: Number(r.last_seen), v: r.value },
                ],
          )
          .sort((a, b) => a.at - b.at);
        const runs: { v: unknown; first: number; last: number }[] = [];
        for (const p of points) {
          const last = runs.at(-1);
          if (last && last.v === p.v) last.last = p.at;
          else runs.push({ v: p.v, first: p.at, last: p.at });
        }
        expect(merged.map((r) => ({ v: r.value, first: r.first_seen, last: r.last_seen }))).toEqual(runs);
        expect(merged.reduce((n, r) => n + Number(r.times_seen), 0)).toBe(obs.length);
        for (const r of merged) expect(Number(r.times_seen)).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a night of one account as it is, and merges only the nights that need it', () => {
    const row = (over: Partial<Row>): Row => ({ id: 1, account_id: 'acct_a', listing_id: '9', key: '2027-03-01', currency: null, value: 'x', first_seen: 0, last_seen: 10, times_seen: 3, ...over });
    const alone = [row({}), row({ id: 2, value: 'y', first_seen: 11, last_seen: 11, times_seen: 1 })];
    expect(mergeAccounts(alone)).toEqual(alone);
    const mixed = [
      ...alone,
      row({ id: 3, key: '2027-03-02', first_seen: 0, last_seen: 0, times_seen: 1 }),
      row({ id: 4, key: '2027-03-02', account_id: 'acct_b', value: 'x', first_seen: 5, last_seen: 5, times_seen: 1 }),
    ];
    expect(mergeAccounts(mixed)).toEqual([...alone, row({ id: 3, key: '2027-03-02', first_seen: 0, last_seen: 5, times_seen: 2 })]);
  });
});
