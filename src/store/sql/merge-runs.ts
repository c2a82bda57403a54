// One story of a night from several accounts' series (issue 35, item 5). An account's rows are
// series of their own, so a reader that sees several accounts' calendars (the pooled scope, or
// an account's rows beside those recorded before accounts were kept) can hold, for one night,
// runs from several series that overlap in time: account A saw it free from 09:00 to 18:00
// while B saw it taken at 12:00. The inference reads a night's rows as one story, oldest first,
// each a run of equal values, so the rows of a night from more than one account are merged into
// the runs their observations make together: every first and last seen is an observation at a
// known instant; in time order, consecutive equal values are one run. A run's times seen are its
// rows' (a row whose instants fall in several runs gives one to each and the rest to its first).
import type { Row } from '../rows.js';

interface Instant {
  at: number;
  id: number;
  same: string;
  row: Row;
}

/** The runs of one night's rows (any order) from several series, oldest first; a row each. */
export function mergeNight(rows: readonly Row[]): Row[] {
  const instants: Instant[] = [];
  for (const r of rows) {
    const same = `${(r.currency as string | null) ?? ''}\u0000${r.value as string}`;
    const first = Number(r.first_seen);
    const last = Number(r.last_seen);
    instants.push({ at: first, id: Number(r.id), same, row: r });
    if (last !== first) instants.push({ at: last, id: Number(r.id), same, row: r });
  }
  instants.sort((a, b) => a.at - b.at || a.id - b.id);
  const runs: { out: Row; same: string }[] = [];
  // Which runs each row's instants fell in.
  const landed = new Map<Row, Row[]>();
  for (const i of instants) {
    let run = runs.at(-1);
    if (run === undefined || run.same !== i.same) {
      run = { out: { ...i.row, first_seen: i.at, last_seen: i.at, times_seen: 0 }, same: i.same };
      runs.push(run);
    } else run.out.last_seen = i.at;
    const at = landed.get(i.row) ?? [];
    at.push(run.out);
    landed.set(i.row, at);
  }
  for (const [row, outs] of landed) {
    const times = Number(row.times_seen);
    if (outs.every((o) => o === outs[0])) {
      outs[0]!.times_seen = Number(outs[0]!.times_seen) + times;
      continue;
    }
    for (const o of outs) o.times_seen = Number(o.times_seen) + 1;
    outs[0]!.times_seen = Number(outs[0]!.times_seen) + Math.max(0, times - outs.length);
  }
  return runs.map((r) => r.out);
}

/**
 * Rows ordered by listing, night (key), first seen and id, with each night of a listing whose
 * rows come from more than one account merged into one story (mergeNight); a night of one
 * account's rows is left as it is.
 */
export function mergeAccounts(rows: readonly Row[]): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i + 1;
    let several = false;
    while (j < rows.length && rows[j]!.key === rows[i]!.key && rows[j]!.listing_id === rows[i]!.listing_id) {
      if (rows[j]!.account_id !== rows[i]!.account_id) several = true;
      j++;
    }
    if (several) out.push(...mergeNight(rows.slice(i, j)));
    else for (let k = i; k < j; k++) out.push(rows[k]!);
    i = j;
  }
  return out;
}
