// Issue 22, item 1: `--all` with a sort prints one ordered stream. The limit is per platform, so
// the service sorts each page on its own and page two may start below page one's last row; the
// walk merges the pages into the service's order. In-process sandbox, the CLI run in this process (staysIn).
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

interface Row {
  id: string;
  guestRating: number | null;
  ratingScale: number;
  price: { nightlyPrice: number } | null;
}

const QUERY = ['search', 'Lisbon', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--limit', '20'];
const nightly = (r: Row) => r.price?.nightlyPrice ?? null;
const rating = (r: Row) => (r.guestRating ?? 0) / (r.ratingScale || 1);

/** Whether each row is in order after the one before it (rows without a price last). */
function ordered(rows: Row[], sort: 'price_asc' | 'price_desc' | 'rating_desc'): boolean {
  return rows.every((r, i) => {
    if (i === 0) return true;
    const p = rows[i - 1]!;
    if (sort === 'rating_desc') return rating(p) >= rating(r);
    if (nightly(r) === null) return true;
    if (nightly(p) === null) return false;
    return sort === 'price_asc' ? nightly(p)! <= nightly(r)! : nightly(p)! >= nightly(r)!;
  });
}

/** The pages one by one, as --cursor gives them. */
async function pages(box: Sandbox, sort: string): Promise<Row[][]> {
  const out: Row[][] = [];
  let cursor: string | null = null;
  do {
    const r = await staysIn([...QUERY, '--sort', sort, '-o', 'json', ...(cursor ? ['--cursor', cursor] : [])], box.env);
    expect(r.code, r.stderr).toBe(0);
    const page = json<{ data: Row[]; meta: { pagination: { nextCursor: string | null } } }>(r);
    out.push(page.data);
    cursor = page.meta.pagination.nextCursor;
  } while (cursor !== null && out.length < 20);
  return out;
}

const sortedIds = (rows: Row[]) => rows.map((r) => r.id).sort();

/** CSV records (RFC 4180: quoted cells may hold commas and doubled quotes). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\n') row.push(cell), records.push(row), (row = []), (cell = '');
    else cell += ch;
  }
  return records;
}

describe('--all with --sort: one order over every page', () => {
  let box: Sandbox;
  beforeAll(() => {
    box = freshSandbox();
  });

  it('price_asc -o jsonl: the whole stream is ordered; the same rows as the pages, none lost or repeated', async () => {
    const paged = await pages(box, 'price_asc');
    const flat = paged.flat();
    // The premise: more than one page, each ordered, their concatenation not.
    expect(paged.length).toBeGreaterThan(1);
    for (const p of paged) expect(ordered(p, 'price_asc')).toBe(true);
    expect(ordered(flat, 'price_asc')).toBe(false);

    const r = await staysIn([...QUERY, '--sort', 'price_asc', '--all', '-o', 'jsonl'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const walked = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    expect(ordered(walked, 'price_asc')).toBe(true);
    expect(walked).toHaveLength(flat.length);
    expect(new Set(walked.map((w) => w.id)).size).toBe(walked.length);
    expect(sortedIds(walked)).toEqual(sortedIds(flat));
  });

  it('rating_desc -o json and price_desc -o csv: ordered too, every row once', async () => {
    const r = await staysIn([...QUERY, '--sort', 'RATING_DESC', '--all', '-o', 'json'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const walked = json<{ data: Row[]; meta: { pagination: { hasMore: boolean } } }>(r);
    expect(walked.meta.pagination.hasMore).toBe(false);
    expect(ordered(walked.data, 'rating_desc')).toBe(true);
    expect(new Set(walked.data.map((w) => w.id)).size).toBe(walked.data.length);

    const csv = await staysIn([...QUERY, '--sort', 'price_desc', '--all', '-o', 'csv'], box.env);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...records] = csvRecords(csv.stdout);
    // One header, at the top.
    expect(records.filter((l) => l[0] === 'name')).toHaveLength(0);
    const at = header!.indexOf('nightly_price');
    expect(at, header!.join(',')).toBeGreaterThanOrEqual(0);
    expect(records).toHaveLength(walked.data.length);
    expect(new Set(records.map((l) => l[header!.indexOf('id')])).size).toBe(records.length);
    const prices = records
      .map((l) => l[at]!)
      .filter((p) => p !== '')
      .map(Number);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it("reviews --all --sort: one platform's list is sorted before it is paged, so the walk streams in order as it is", async () => {
    for (const [sort, dir] of [
      ['rating_asc', 1],
      ['rating_desc', -1],
    ] as const) {
      const r = await staysIn(['reviews', 'booking', 'pt/casa-azul', '--limit', '5', '--sort', sort, '--all', '-o', 'jsonl'], box.env);
      expect(r.code, r.stderr).toBe(0);
      const ratings = r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { rating: number }).rating);
      expect(ratings.length).toBeGreaterThan(5);
      expect(ratings).toEqual([...ratings].sort((a, b) => dir * (a - b)));
    }
  });
});
