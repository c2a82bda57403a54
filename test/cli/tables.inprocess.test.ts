// Tables fit the terminal (issue 9, items 3, 9 and 11), the CLI run in this process (staysIn) with
// stdout a terminal of the given width: at 80 and 200 columns every line fits, listing ids are whole, empty price columns are left
// out, numbers are right-aligned with grouping, ratings have one decimal; `stays listing` is a
// key/value view; compare's footer names the cheapest listing. tables.test.ts (e2e) holds a real
// pseudo-terminal (script(1)) that does not say its width.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;
const segmenter = new Intl.Segmenter();
/** Terminal columns of a line of the sandbox's text (no wide characters in it). */
const width = (line: string) => [...segmenter.segment(line)].length;

/**
 * Runs the CLI in this process with stdin and stdout terminals `cols` wide and stderr a pipe (the
 * table alone on stdout, as script(1) with 2>/dev/null gave it in tables.test.ts), and returns its
 * lines without escape sequences.
 */
async function onTty(args: string[], env: NodeJS.ProcessEnv, cols: number): Promise<{ code: number | null; lines: string[]; raw: string }> {
  const r = await staysIn(args, { TERM: 'xterm-256color', COLUMNS: undefined, ...env }, { tty: { stdin: true, stdout: true }, columns: cols });
  return {
    code: r.code,
    raw: r.stdout,
    lines: r.stdout
      .replace(ESCAPES, '')
      .split(/\r?\n/)
      .filter((l) => l.trim() !== ''),
  };
}

interface Property {
  platform: string;
  platformListingId: string;
  name: string;
  guestRating: number | null;
  images: string[];
  price?: { nightlyPrice: number; totalPrice: number; currency: string } | null;
}

const DATES = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  await staysIn(['account'], box.env); // provision once
});

/** The column a header starts at, and the cells of every row under it (to the next header). */
function column(lines: string[], header: string): string[] {
  const head = lines[0]!;
  const start = head.indexOf(header);
  expect(start, `${header} in ${head}`).toBeGreaterThanOrEqual(0);
  const next = head.slice(start + header.length).search(/\S/);
  const end = next < 0 ? undefined : start + header.length + next;
  return lines.slice(1).map((l) => l.slice(start, end).trim());
}

const fits = (lines: string[], cols: number) => {
  for (const l of lines) expect(width(l), `${width(l)} > ${cols}: ${l}`).toBeLessThanOrEqual(cols);
};

describe('search tables fit the terminal', () => {
  for (const cols of [80, 200]) {
    it(`${cols} columns, no dates: ids whole, no empty price columns, ratings with one decimal`, async () => {
      const data = json<{ data: Property[] }>(await staysIn(['search', 'Lisbon', '--json'], box.env)).data;
      const { code, lines } = await onTty(['search', 'Lisbon'], box.env, cols);
      expect(code).toBe(0);
      fits(lines, cols);
      expect(lines).toHaveLength(data.length + 1);
      const head = lines[0]!;
      expect(head).toMatch(/^NAME\s+PLATFORM\s/);
      expect(head).toMatch(/LISTING ID$/);
      expect(head).not.toMatch(/NIGHTLY|TOTAL|PRICE/);
      // Every id whole, on its own row, at the end of the line.
      data.forEach((p, i) => expect(lines[i + 1]!.endsWith(`  ${p.platformListingId}`), `${p.platformListingId} in ${lines[i + 1]}`).toBe(true));
      expect(data.some((p) => p.platformListingId.length > 32)).toBe(true); // the ids that were cut before
      // A listing without reviews has no rating: its cell is empty.
      column(lines, 'RATING').forEach((cell, i) => expect(cell).toMatch(data[i]!.guestRating === null ? /^$/ : /^\d+\.\d\/(5|10)$/));
      if (cols === 200) {
        expect(head).toMatch(/^NAME\s+PLATFORM\s+TYPE\s+RATING\s+REVIEWS\s+BEDROOMS\s+CITY\s+LISTING ID$/);
        // Whole names when there is room.
        for (const p of data) expect(lines.some((l) => l.startsWith(`${p.name}  `))).toBe(true);
      } else {
        expect(lines.slice(1).some((l) => l.includes('…'))).toBe(true);
      }
    });

    it(`${cols} columns, dated: NIGHTLY first, right-aligned money with grouping, ids whole`, async () => {
      const data = json<{ data: Property[] }>(await staysIn(['search', 'Lisbon', ...DATES, '--sort', 'price_asc', '--json'], box.env)).data;
      const { code, lines } = await onTty(['search', 'Lisbon', ...DATES, '--sort', 'price_asc'], box.env, cols);
      expect(code).toBe(0);
      fits(lines, cols);
      data.forEach((p, i) => expect(lines[i + 1]!.endsWith(`  ${p.platformListingId}`)).toBe(true));
      const head = lines[0]!;
      if (cols === 200) expect(head.indexOf('NIGHTLY')).toBeLessThan(head.indexOf('TOTAL'));
      // Right-aligned: each cell ends where the header does.
      const end = head.indexOf('NIGHTLY') + 'NIGHTLY'.length;
      const nightly = lines.slice(1).map((l) => l.slice(0, end).match(/(\S+ [A-Z]{3})$/)?.[1]);
      nightly.forEach((cell, i) => expect(cell).toBe(`${data[i]!.price!.nightlyPrice.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`));
      // --sort price_asc orders the column shown first.
      const values = nightly.map((c) => Number(c!.replace(/[^\d.]/g, '')));
      expect(values).toEqual([...values].sort((a, b) => a - b));
    });
  }
});

describe('other tables fit too', () => {
  const cases: [string, string[]][] = [
    ['reviews', ['reviews', 'airbnb', '12345678']],
    ['availability', ['availability', 'vrbo', '4886746', '4886747', '--start-date', '2027-03-01', '--end-date', '2027-03-20']],
    ['compare', ['compare', '--listings', 'airbnb:12345678,booking:pt/casa-azul', ...DATES]],
  ];
  for (const [name, args] of cases) {
    it(`${name} at 80 and 200 columns`, async () => {
      for (const cols of [80, 200]) {
        const { code, lines } = await onTty(args, box.env, cols);
        expect(code).toBe(0);
        expect(lines.length).toBeGreaterThan(1);
        fits(lines, cols);
      }
    });
  }

  it('reviews show ratings with one decimal on their own scale', async () => {
    const { lines } = await onTty(['reviews', 'booking', 'pt/casa-azul'], box.env, 80);
    for (const cell of column(lines, 'RATING')) expect(cell).toMatch(/^\d+\.\d\/10$/);
  });

  it('compare: TOTAL first with grouping; the footer names the listing with the minimum', async () => {
    const args = ['compare', '--listings', 'airbnb:12345678,booking:pt/casa-azul', ...DATES];
    const body = json<{ data: { min: number; offers: { platform: string; listingId: string; totalPrice: number }[] } }>(await staysIn([...args, '--json'], box.env)).data;
    const { lines } = await onTty(args, box.env, 80);
    expect(lines[0]).toMatch(/^SELLER\s+TOTAL\s+NIGHTLY/);
    for (const offer of body.offers) {
      const row = lines.find((l) => l.endsWith(`  ${offer.listingId}`));
      expect(row).toContain(`${offer.totalPrice.toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`);
    }
    expect(body.offers.some((o) => o.totalPrice >= 1000)).toBe(true); // so grouping shows
    const cheapest = body.offers.find((o) => o.totalPrice === body.min)!;
    const table = await staysIn([...args, '-o', 'table'], box.env);
    expect(table.stderr).toContain(`: min ${body.min.toLocaleString('en-US', { minimumFractionDigits: 2 })} USD (${cheapest.platform} ${cheapest.listingId}), median `);
  });
});

describe('stays listing is the listing, as fields', () => {
  for (const cols of [80, 200]) {
    it(`${cols} columns: host, amenities, rooms, occupancy, address, images, identity; no price without dates`, async () => {
      const p = json<{ data: Property & { host: { name: string }; amenities: string[] } }>(await staysIn(['listing', 'airbnb', '12345678', '--json'], box.env)).data;
      const { code, lines } = await onTty(['listing', 'airbnb', '12345678'], box.env, cols);
      expect(code).toBe(0);
      fits(lines, cols);
      const field = (label: string) =>
        lines
          .find((l) => l.startsWith(`${label} `))
          ?.slice(label.length)
          .trim();
      expect(field('NAME')).toBe(p.name);
      expect(field('PLATFORM')).toBe('airbnb');
      expect(field('LISTING ID')).toBe('12345678');
      expect(field('HOST')).toBe(p.host.name);
      expect(field('SUPERHOST')).toMatch(/^(yes|no)$/);
      expect(field('RATING')).toMatch(/^\d\.\d\/5 \(\d+ reviews?\)$/);
      for (const label of ['BEDROOMS', 'BATHROOMS', 'OCCUPANCY', 'ADDRESS', 'COORDINATES', 'URL', 'IDENTITY']) expect(field(label), label).toBeTruthy();
      expect(field('IMAGES')).toBe(String(p.images.length));
      // Every amenity, wrapped under its column when the line is narrow.
      const text = lines.join(' ');
      for (const a of p.amenities) expect(text).toMatch(new RegExp(`\\b${a}\\b`));
      expect(field('NIGHTLY')).toBeUndefined();
      expect(lines.some((l) => /^(TYPE|CITY|REVIEWS)\s{2,}\S+\s{2,}/.test(l))).toBe(false); // not a search row
    });
  }

  it('with dates: the embedded price, named as in search and price', async () => {
    const p = json<{ data: Property & { price: { nights: number } } }>(await staysIn(['listing', 'booking', 'pt/casa-azul', ...DATES, '--json'], box.env)).data;
    const { lines } = await onTty(['listing', 'booking', 'pt/casa-azul', ...DATES], box.env, 80);
    fits(lines, 80);
    expect(lines.some((l) => new RegExp(`^NIGHTLY +${p.price!.nightlyPrice.toFixed(2)} USD$`).test(l))).toBe(true);
    expect(lines.find((l) => l.startsWith('TOTAL '))).toMatch(new RegExp(`${p.price!.totalPrice.toFixed(2)} USD for ${p.price.nights} nights$`));
    expect(lines.find((l) => l.startsWith('RATING '))).toMatch(/ \d\.\d\/10 \(/);
    const price = await onTty(['price', 'booking', 'pt/casa-azul', ...DATES], box.env, 80);
    expect(price.lines.find((l) => l.startsWith('NIGHTLY '))).toMatch(new RegExp(`${p.price!.nightlyPrice.toFixed(2)} USD$`));
    expect(price.lines.find((l) => l.startsWith('TOTAL '))).toBeTruthy();
  });
});

// Issue 22, item 18: one rating format in every table, and a guest rating is not called stars.
describe('ratings read alike in Family U and Family S tables', () => {
  it('the same airbnb listing rates "x.y/5" in a U search, an S search, a stay lookup and its rating part', async () => {
    const u = await onTty(['search', 'Lisbon', '--platforms', 'airbnb', '--limit', '3'], box.env, 200);
    const sRows = await onTty(['search', 'Lisbon', '--family', 's', '--max-items', '3'], box.env, 200);
    const uCells = column(u.lines, 'RATING');
    const sCells = column(sRows.lines, 'RATING');
    expect(uCells.length).toBe(3);
    for (const cell of [...uCells, ...sCells]) expect(cell).toMatch(/^\d\.\d\/5$/);
    // The same rows (the S search is airbnb), the same cells.
    expect(sCells).toEqual(uCells);
    const id = u.lines[1]!.trim().split(/\s+/).pop()!;
    const part = await onTty(['stay', 'get', id, '--part', 'rating'], box.env, 120);
    expect(part.lines.some((l) => /^STARS\b/.test(l))).toBe(false);
    expect(part.lines.find((l) => l.startsWith('RATING '))).toMatch(new RegExp(`^RATING\\s+${uCells[0]!.replace('.', '\\.')}$`));
  });
});
