// Output formats and stream rules, the CLI run in this process (staysIn): piped output is plain
// tsv with no ANSI codes; json is the envelope as returned; jsonl one row a line; csv with a
// header; --all walks every page. output.test.ts (e2e) holds what needs a real process: `| head -1`
// ending quietly, and FORCE_COLOR in the process's environment.
import { beforeAll, describe, expect, it } from 'vitest';
import { ANSI, type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

let box: Sandbox;
const run = (...args: string[]) => staysIn(args, box.env);
beforeAll(async () => {
  box = freshSandbox();
  await run('account'); // provision once
});

describe('output', () => {
  it('piped default: tsv rows, no header, no colour, no truncation, no footer', async () => {
    const r = await run('search', 'Lisbon', '--limit', '2', '--platforms', 'booking');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stderr).toBe('');
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    expect(rows[0]![0]).not.toBe('NAME');
    expect(rows[0]![rows[0]!.length - 1]).toMatch(/^https:\/\/www\.booking\.com\/hotel\/.+\.html$/);
  });

  it('--json is the API envelope as returned (data and meta)', async () => {
    const r = await run('search', 'Lisbon', '--limit', '2', '--json');
    const body = json(r);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    expect(body.meta).toMatchObject({ creditsCharged: 0, pagination: { hasMore: true, nextCursor: expect.any(String) } });
    const same = await run('search', 'Lisbon', '--limit', '2', '-o', 'json');
    expect(json(same).data).toEqual(body.data);
  });

  it('jsonl writes one data row a line; csv has a header and quotes', async () => {
    const l = await run('reviews', 'booking', 'pt/casa-azul', '--limit', '4', '-o', 'jsonl');
    const lines = l.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0]!)).toHaveProperty('reviewId');
    const c = await run('search', 'Lisbon', '--limit', '2', '--platforms', 'airbnb', '-o', 'csv');
    const [header, ...rows] = c.stdout.trim().split('\n');
    expect(header).toBe(
      'name,platform,listing_id,id,property_type,nightly_price,total_price,currency,nights,guest_rating,rating_scale,review_count,star_rating,bedrooms,bathrooms,max_occupancy,city,region,country,address,lat,lng,host_name,superhost,amenities,image_count,url',
    );
    expect(rows).toHaveLength(2);
  });

  it('a table on request: columns with units and a footer on stderr', async () => {
    const r = await run('search', 'Lisbon', '--limit', '2', '--platforms', 'booking', '-o', 'table');
    expect(r.stdout).toMatch(/^NAME\s+PLATFORM\s/);
    expect(r.stdout).toMatch(/\d\.\d\/10/);
    expect(r.stderr).toMatch(/^0 credits charged \(sandbox\) · not cached · more pages \(--all for every one\); the next:\n--cursor \S+\n/m);
  });

  it("the next page's token is on a line of its own, whole, however long (issue 22, item 18)", async () => {
    // Four platforms: a cursor longer than an 80-column terminal; it must not share its line.
    const r = await run('search', 'Lisbon', '--limit', '2', '-o', 'table', '--no-color');
    expect(r.code, r.stderr).toBe(0);
    const line = r.stderr.split('\n').find((l) => l.startsWith('--cursor '));
    expect(line, r.stderr).toMatch(/^--cursor [A-Za-z0-9_-]+$/);
    expect(line!.length).toBeGreaterThan(80);
    // Copied as printed, it is the next page.
    const next = await run('search', 'Lisbon', '--limit', '2', ...line!.split(' '), '-o', 'json');
    expect(next.code, next.stderr).toBe(0);
    expect(json<{ meta: { pagination: { cursor: string } } }>(next).meta.pagination.cursor).toBe(line!.slice('--cursor '.length));
  });

  it('--all walks every page; --cursor gives the next one', async () => {
    const all = await run('search', 'Lisbon', '--platform', 'airbnb', '--limit', '25', '--all', '--json');
    const body = json<{ data: { id: string }[]; meta: { pagination: { hasMore: boolean } } }>(all);
    expect(body.data).toHaveLength(60);
    expect(new Set(body.data.map((d) => d.id)).size).toBe(60);
    expect(body.meta.pagination.hasMore).toBe(false);
    const tsv = await run('search', 'Lisbon', '--platform', 'airbnb', '--limit', '25', '--all');
    expect(tsv.stdout.trim().split('\n')).toHaveLength(60);
    const first = json<{ meta: { pagination: { nextCursor: string } } }>(await run('search', 'Lisbon', '--platform', 'airbnb', '--limit', '25', '--json'));
    const second = await run('search', 'Lisbon', '--platform', 'airbnb', '--limit', '25', '--cursor', first.meta.pagination.nextCursor, '--json');
    expect(json<{ data: { id: string }[] }>(second).data[0]!.id).toBe(body.data[25]!.id);
  });

  it('an empty result is exit 0 with no rows', async () => {
    const r = await run('search', 'empty');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
});

// Issue 22, item 14: --json and --jq print JSON; an explicit -o of another format beside them was
// silently overruled. Refused before any request (exit 2); -o json agrees and passes.
describe('conflicting output flags', () => {
  const sent = (stderr: string) => /stays debug: GET /.test(stderr);

  it('-o csv --jq, -o jsonl --jq: refused with exit 2, text on stderr, nothing sent, stdout empty', async () => {
    const csv = await run('search', 'Lisbon', '--limit', '1', '-o', 'csv', '--jq', '.data', '--debug');
    expect(csv.code).toBe(2);
    expect(csv.stdout).toBe('');
    expect(sent(csv.stderr)).toBe(false);
    expect(csv.stderr).toContain("error: --jq prints what the expression outputs, so it cannot also print -o csv: drop -o csv, or let jq make the CSV: --jq '.data[] | [.id, .name] | @csv'.");
    const jsonl = await run('search', 'Lisbon', '--limit', '1', '-o', 'jsonl', '--jq', '.data');
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toMatch(/cannot also print -o jsonl: drop -o jsonl, and give jq one value a row: --jq '\.data\[\]'/);
  });

  it('--json -o csv and --json FIELDS -o tsv: refused with exit 2 (the --json error envelope on stderr)', async () => {
    const bare = await run('search', 'Lisbon', '--limit', '1', '--json', '-o', 'csv');
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(JSON.parse(bare.stderr.trim()).error).toMatchObject({ code: 'usage', param: 'output', message: '--json is -o json (the whole envelope), so it cannot also be -o csv: give one of them.' });
    const fields = await run('search', 'Lisbon', '--limit', '1', '-o', 'tsv', '--json', 'name,platform');
    expect(fields.code).toBe(2);
    expect(fields.stdout).toBe('');
    expect(JSON.parse(fields.stderr.trim()).error.message).toContain(
      "--json name,platform prints those fields as JSON, so it cannot also print -o tsv: drop -o tsv, or let jq format them: --json name,platform --jq '.[] | [.name, .platform] | @tsv'",
    );
  });

  it("-o json agrees with --json and --jq; a profile's default output is overridden, not a conflict", async () => {
    const agree = await run('search', 'Lisbon', '--limit', '1', '--platforms', 'booking', '-o', 'json', '--json', 'platform', '--jq', '.[0].platform');
    expect(agree.code, agree.stderr).toBe(0);
    expect(agree.stdout).toBe('booking\n');
    const profile = { ...box.env };
    expect((await staysIn(['config', 'set', 'output', 'csv'], profile)).code).toBe(0);
    try {
      const r = await staysIn(['search', 'Lisbon', '--limit', '1', '--platforms', 'booking', '--jq', '.data[0].platform'], profile);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('booking\n');
    } finally {
      await staysIn(['config', 'unset', 'output'], profile);
    }
  });
});
