// Row output of the analyst commands, through the built CLI on a fresh sandbox (free, no network).
// Issue 36, item 16: -o jsonl prints the rows -o csv prints, one a line (market's figures, the
// match candidates, a calendar's changes, the inferred bookings), not the whole answer on one
// line; --json FIELDS on history bookings picks fields of its rows. Item 17: the match table at 80
// and 200 columns shows every candidate's platform:listingId whole (two vrbo ids of the sandbox
// share their first nine digits) and fits the width.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  expect((await stays(['account', '--json'], box.env)).code).toBe(0);
});

const ANCHOR = 'airbnb:62959578';
const COMMANDS: [string, string[]][] = [
  ['market', ['market', 'Lisbon', '--from', '2027-06-01', '--to', '2027-07-01']],
  ['match', ['match', ANCHOR]],
  ['history calendar', ['history', 'calendar', 'airbnb', '62959578', '--start-date', '2027-06-01', '--end-date', '2027-06-08', '--to', '2027-06-01']],
  ['history bookings', ['history', 'bookings', ANCHOR, '--from', '2027-05-01', '--to', '2027-08-01']],
];

/** CSV records (a quoted cell may hold commas, quotes doubled; no line breaks here). */
function csvRows(text: string): string[][] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const cells: string[] = [];
      let cell = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const c = line[i]!;
        if (quoted && c === '"' && line[i + 1] === '"') (cell += '"'), i++;
        else if (c === '"') quoted = !quoted;
        else if (c === ',' && !quoted) cells.push(cell), (cell = '');
        else cell += c;
      }
      cells.push(cell);
      return cells;
    });
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('-o jsonl prints the rows -o csv prints', () => {
  it.each(COMMANDS)('%s', async (_name, args) => {
    const [csv, jsonl] = await Promise.all([stays([...args, '-o', 'csv'], box.env), stays([...args, '-o', 'jsonl'], box.env)]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const [header, ...records] = csvRows(csv.stdout);
    const lines = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.length).toBeGreaterThan(1);
    expect(lines).toHaveLength(records.length);
    // Row by row, every CSV column a line has (by its name) holds the same value.
    lines.forEach((line, i) => {
      const byColumn = new Map(Object.entries(line).map(([k, v]) => [snake(k), v]));
      let shared = 0;
      header!.forEach((col, j) => {
        const v = byColumn.get(col);
        if (v === undefined || (v !== null && typeof v === 'object')) return;
        shared++;
        expect(records[i]![j], `${col} of row ${i}`).toBe(v === null ? '' : String(v));
      });
      expect(shared).toBeGreaterThan(1);
    });
  });

  it('--json checkIn,nights on history bookings: those fields of each row', async () => {
    const args = COMMANDS[3]![1];
    const [rows, csv] = await Promise.all([stays([...args, '--json', 'checkIn,nights'], box.env), stays([...args, '-o', 'csv'], box.env)]);
    expect(rows.code, rows.stderr).toBe(0);
    const [header, ...records] = csvRows(csv.stdout);
    const at = (c: string) => header!.indexOf(c);
    expect(JSON.parse(rows.stdout)).toEqual(records.map((r) => ({ checkIn: r[at('check_in')], nights: Number(r[at('nights')]) })));
  });
});

describe('stays match at 80 and 200 columns', () => {
  it.each([80, 200])('%i columns: every candidate id whole, nothing wider than the terminal', async (columns) => {
    const json = await stays(['match', ANCHOR, '--json'], box.env);
    const d = (JSON.parse(json.stdout) as { data: { matches: { platform: string; listingId: string }[]; bestNonMatch: { platform: string; listingId: string } | null } }).data;
    const refs = [...d.matches, ...(d.bestNonMatch ? [d.bestNonMatch] : [])].map((c) => `${c.platform}:${c.listingId}`);
    // Two candidates that share a long prefix: what a cut column would make alike.
    expect(refs.filter((r) => r.startsWith('vrbo:906295957')).length).toBeGreaterThan(1);
    const table = await stays(['match', ANCHOR, '-o', 'table'], { ...box.env, COLUMNS: String(columns) });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(columns);
    const firstCells = lines.slice(1).map((l) => l.split(/\s{2,}/)[0]);
    expect(firstCells).toEqual(refs);
  });
});
