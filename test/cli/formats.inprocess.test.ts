// CSV and TSV are data, not display (issue 9, item 10): numbers as numbers, the currency and the
// rating scale in their own columns, snake_case CSV headers, TSV the same cells without a header;
// each command's --help lists exactly the columns it prints. A table on a pipe is cut only when
// COLUMNS asks.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

/** RFC 4180 records (quoted fields with commas and doubled quotes; one record a line here). */
function parseCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const cells: string[] = [];
      const re = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
      for (const m of line.matchAll(re)) cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
      return cells;
    });
}

/** CSV rows as objects keyed by the header. */
function records(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rows] = parseCsv(text);
  return { header, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
}

const DATES = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
const COMMANDS: Record<string, string[]> = {
  search: ['search', 'Lisbon', ...DATES, '--limit', '3'],
  listing: ['listing', 'booking', 'pt/casa-azul', ...DATES],
  price: ['price', 'booking', 'pt/casa-azul', ...DATES],
  compare: ['compare', '--listings', 'airbnb:12345678,booking:pt/casa-azul', ...DATES],
  availability: ['availability', 'vrbo', '4886746', '--start-date', '2027-03-01', '--end-date', '2027-03-05'],
  reviews: ['reviews', 'booking', 'pt/casa-azul', '--limit', '5'],
};

let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  await staysIn(['account'], box.env); // provision once
});

describe('csv and tsv', () => {
  it('search csv: snake_case header, prices and ratings as plain numbers, currency and scale apart', async () => {
    const r = await staysIn([...COMMANDS.search!, '-o', 'csv'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const { header, rows } = records(r.stdout);
    for (const h of header) expect(h).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    expect(header.slice(0, 3)).toEqual(['name', 'platform', 'listing_id']);
    expect(header).toEqual(expect.arrayContaining(['nightly_price', 'total_price', 'currency', 'guest_rating', 'rating_scale', 'review_count']));
    const data = json<{
      data: { platformListingId: string; guestRating: number | null; ratingScale: number; reviewCount: number; price: { nightlyPrice: number; totalPrice: number; currency: string } }[];
    }>(await staysIn([...COMMANDS.search!, '--json'], box.env)).data;
    expect(rows).toHaveLength(data.length);
    rows.forEach((row, i) => {
      const p = data[i]!;
      expect(row.listing_id).toBe(p.platformListingId);
      expect(row.nightly_price).toMatch(/^\d+(\.\d+)?$/);
      expect(Number(row.nightly_price)).toBe(p.price.nightlyPrice);
      expect(Number(row.total_price)).toBe(p.price.totalPrice);
      expect(row.currency).toBe(p.price.currency);
      // A listing without reviews has no rating: an empty cell.
      expect(p.guestRating === null ? row.guest_rating : Number(row.guest_rating)).toBe(p.guestRating === null ? '' : p.guestRating);
      expect(Number(row.rating_scale)).toBe(p.ratingScale);
      expect(Number(row.review_count)).toBe(p.reviewCount);
    });
  });

  it('csv numbers have no grouping and no currency, even past a thousand; booleans are true/false', async () => {
    const compare = await staysIn([...COMMANDS.compare!, '-o', 'csv'], box.env);
    const offers = json<{ data: { offers: { listingId: string; totalPrice: number }[] } }>(await staysIn([...COMMANDS.compare!, '--json'], box.env)).data.offers;
    expect(offers.some((o) => o.totalPrice >= 1000)).toBe(true);
    const { header, rows } = records(compare.stdout);
    expect(header.slice(0, 4)).toEqual(['seller', 'platform', 'listing_id', 'total_price']);
    for (const o of offers) expect(rows.find((r) => r.listing_id === o.listingId)!.total_price).toBe(String(o.totalPrice));
    const avail = records((await staysIn([...COMMANDS.availability!, '-o', 'csv'], box.env)).stdout);
    expect(avail.header).toEqual(['platform', 'listing_id', 'date', 'available', 'bookable', 'min_nights', 'check_in', 'check_out']);
    for (const r of avail.rows) {
      expect(r.available).toMatch(/^(true|false)$/);
      expect(r.min_nights).toMatch(/^(\d+|)$/);
    }
  });

  it('without dates the price cells are empty, the columns stay (a stable schema)', async () => {
    const { header, rows } = records((await staysIn(['search', 'Lisbon', '--limit', '2', '-o', 'csv'], box.env)).stdout);
    expect(header).toContain('nightly_price');
    for (const r of rows) expect([r.nightly_price, r.total_price, r.currency]).toEqual(['', '', '']);
  });

  it('tsv: the csv cells without a header, one line a row', async () => {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const csv = parseCsv((await staysIn([...args, '-o', 'csv'], box.env)).stdout);
      const tsv = (await staysIn(args, box.env)).stdout
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => l.split('\t'));
      expect(tsv, name).toEqual(csv.slice(1));
    }
  });

  it("each command's --help lists the columns it prints, in order", async () => {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const [header] = parseCsv((await staysIn([...args, '-o', 'csv'], box.env)).stdout);
      const help = (await staysIn([name, '--help'], box.env)).stdout;
      const listed = help
        .split('Columns of -o tsv and -o csv')[1]
        ?.split('\n')
        .slice(1)
        .filter((l) => l.startsWith('  '))
        .join(' ');
      expect(
        listed?.split(',').map((k) => k.trim()),
        name,
      ).toEqual(header);
    }
  });

  // Issue 22, item 18: account, jobs list and webhooks list listed none (or only in prose), and
  // search's second block (Family S) did not say which rows it was for.
  it('account, jobs list and webhooks list --help list their columns, as they print them', async () => {
    for (const words of [['account'], ['jobs', 'list'], ['webhooks', 'list']]) {
      const csv = (await staysIn([...words, '-o', 'csv'], box.env)).stdout;
      const help = (await staysIn([...words, '--help'], box.env)).stdout;
      const block = help.split('Columns of -o tsv and -o csv')[1];
      expect(block, words.join(' ')).toBeDefined();
      const listed = block!
        .split('\n')
        .slice(1)
        .filter((l) => l.startsWith('  '))
        .join(' ');
      // The header row is printed even when there are no rows (no jobs, no webhooks yet).
      const [header] = parseCsv(csv);
      expect(
        listed.split(',').map((k) => k.trim()),
        words.join(' '),
      ).toEqual(header);
    }
  });

  it('search --help labels each of its two column blocks with the rows they are for', async () => {
    const help = (await staysIn(['search', '--help'], box.env)).stdout.replace(/\n(?! )/g, ' ');
    const heads = [...help.matchAll(/Columns of -o tsv and -o csv (.*?), in order/g)].map((m) => m[1]);
    expect(heads).toEqual(['for properties (the default form)', 'for stays (Family S: --family s, any S: flag, --with-details)']);
  });
});

describe('a table on a pipe', () => {
  it('is not cut without COLUMNS; fits COLUMNS when set', async () => {
    const names = json<{ data: { name: string; platformListingId: string }[] }>(await staysIn(['search', 'Lisbon', '--json'], box.env)).data;
    const whole = await staysIn(['search', 'Lisbon', '-o', 'table'], { ...box.env, COLUMNS: '' });
    for (const p of names) expect(whole.stdout).toContain(p.name);
    const narrow = await staysIn(['search', 'Lisbon', '-o', 'table'], { ...box.env, COLUMNS: '80' });
    for (const l of narrow.stdout.trimEnd().split('\n')) expect([...new Intl.Segmenter().segment(l)].length).toBeLessThanOrEqual(80);
    for (const p of names) expect(narrow.stdout).toContain(`  ${p.platformListingId}\n`);
  });
});
