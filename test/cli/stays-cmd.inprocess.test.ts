// `stays stay get|batch` (Family S lookups), the CLI run in this process (staysIn), in-process on a
// fresh sandbox: output shapes, the missing-entries notice, usage errors before any request, and a
// service error's exit code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

let box: Sandbox;
const dir = tempDir('stays-stay-');
const T = { timeoutMs: 60_000 };
beforeAll(async () => {
  box = freshSandbox();
  // The first command provisions the local sandbox key; the others then start alike.
  const r = await staysIn(['account', '-o', 'json'], box.env, T);
  expect(r.code, r.stderr).toBe(0);
}, 90_000);

interface Stay {
  id: string;
  url: string;
  title: string;
  reviews: unknown[];
}

describe('stays stay get', () => {
  it('by id: the Stay envelope with --json; fields one a line as a table', async () => {
    const r = await staysIn(['stay', 'get', '12345', '--json'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const body = json<{ data: Stay; meta: { credits_charged: number; environment: string }; request_id: string }>(r);
    expect(body.data.id).toBe('12345');
    expect(body.meta).toMatchObject({ credits_charged: 0, environment: 'test' });
    expect(body.request_id).toMatch(/^req_/);

    const t = await staysIn(['stay', 'get', '12345', '-o', 'table'], { ...box.env, COLUMNS: '80' }, T);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^TITLE\s+\S/m);
    expect(t.stdout).toMatch(/^ID\s+12345$/m);
    expect(t.stdout).toMatch(/^URL\s+https:\/\/www\.airbnb\.com\/rooms\/12345$/m);
    expect(t.stderr).toMatch(/0 credits charged \(sandbox\)/);
  }, 90_000);

  it('by room URL (GET /v1/stays/by-url): one csv row under the declared header', async () => {
    const r = await staysIn(['stay', 'get', 'https://www.airbnb.com/rooms/777', '-o', 'csv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const [header, row, ...rest] = r.stdout.trim().split('\n');
    expect(header).toBe(
      'id,title,property_type,room_type,person_capacity,star_rating,reviews_count,price,currency,rate_type,city,country,address,latitude,longitude,host_id,host_name,is_superhost,photo_count,amenities,url',
    );
    expect(row!.startsWith('777,')).toBe(true);
    expect(row).toContain('https://www.airbnb.com/rooms/777');
    expect(rest).toEqual([]);
  }, 60_000);

  it('--part: a list part is rows with the stay id (csv, jsonl); a single part is fields', async () => {
    const [reviews, photos, host, full] = await Promise.all([
      staysIn(['stay', 'get', '12345', '--part', 'reviews', '-o', 'csv'], box.env, T),
      staysIn(['stay', 'get', '12345', '--part', 'photos', '-o', 'jsonl'], box.env, T),
      staysIn(['stay', 'get', '12345', '--part', 'host', '-o', 'table'], box.env, T),
      staysIn(['stay', 'get', '12345', '--json'], box.env, T),
    ]);
    for (const r of [reviews, photos, host, full]) expect(r.code, r.stderr).toBe(0);
    const stay = json<{ data: Stay }>(full).data;
    const lines = reviews.stdout.trim().split('\n');
    expect(lines[0]).toBe('stay_id,review_id,created_at,rating,author_name,text');
    expect(lines.length - 1).toBe(stay.reviews.length);
    expect(lines.slice(1).every((l) => l.startsWith('12345,'))).toBe(true);
    // jsonl prints data itself: the part's one object.
    const part = JSON.parse(photos.stdout) as { id: string; photos: { url: string }[] };
    expect(part.id).toBe('12345');
    expect(part.photos.length).toBeGreaterThan(0);
    expect(host.stdout).toMatch(/^STAY ID\s+12345$/m);
    expect(host.stdout).toMatch(/^SUPERHOST\s+(yes|no)$/m);
  }, 90_000);

  it('a bad --part is a usage error: exit 2, nothing on stdout', async () => {
    const r = await staysIn(['stay', 'get', '12345', '--part', 'bogus'], box.env, T);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--part/);
  }, 60_000);

  it('a stay that does not exist: listing_not_found, exit 3 (not_found), nothing on stdout', async () => {
    const r = await staysIn(['stay', 'get', '404'], box.env, T);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/listing_not_found/);
    const j = await staysIn(['stay', 'get', '404', '--json'], box.env, T);
    expect(j.code).toBe(3);
    expect(j.stdout).toBe('');
    expect((JSON.parse(j.stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code).toBe('listing_not_found');
  }, 60_000);
});

// Issue 22, item 13: stay get takes the dates its pricing needs; default dates are named.
describe('dates on stay lookups and S searches', () => {
  it('stay get --part pricing --check-in/--check-out prints the quote; without dates it says how to get one', async () => {
    const dated = await staysIn(['stay', 'get', '12345678', '--part', 'pricing', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--currency', 'EUR', '--json'], box.env, T);
    expect(dated.code, dated.stderr).toBe(0);
    const p = json<{ data: { pricing: { price: number; currency: string } } }>(dated).data.pricing;
    expect(p.price).toBeGreaterThan(0);
    expect(p.currency).toBe('EUR');
    const table = await staysIn(
      ['stay', 'get', '12345678', '--part', 'pricing', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--currency', 'EUR', '-o', 'table'],
      { ...box.env, COLUMNS: '100' },
      T,
    );
    expect(table.stdout).toMatch(new RegExp(`^PRICE\\s+${p.price.toFixed(2).replace('.', '\\.')} EUR`, 'm'));
    const undated = await staysIn(['stay', 'get', '12345678', '--part', 'pricing', '-o', 'table'], { ...box.env, COLUMNS: '100' }, T);
    expect(undated.stdout).toMatch(/--check-in D --check-out D/);
    const wrong = await staysIn(['stay', 'get', '12345678', '--part', 'photos', '--check-in', '2027-03-01', '--check-out', '2027-03-04'], box.env, T);
    expect(wrong.code).toBe(2);
  }, 90_000);

  it('an S search without dates names the default dates in the footer and meta', async () => {
    const r = await staysIn(['search', 'Lisbon', '--family', 's', '--max-items', '2', '-o', 'table'], { ...box.env, COLUMNS: '120' }, T);
    expect(r.code, r.stderr).toBe(0);
    const j = json<{ meta: { default_dates: { check_in: string; check_out: string } } }>(await staysIn(['search', 'Lisbon', '--family', 's', '--max-items', '2', '--json'], box.env, T));
    const { check_in, check_out } = j.meta.default_dates;
    expect(r.stderr).toContain(`prices for ${check_in} to ${check_out} (default dates`);
    const dated = await staysIn(['search', 'Lisbon', '--family', 's', '--max-items', '2', '--check-in', check_in, '--check-out', check_out, '-o', 'table'], { ...box.env, COLUMNS: '120' }, T);
    expect(dated.stderr).not.toMatch(/default dates/);
  }, 90_000);
});

describe('stays stay batch', () => {
  it('from a file of lines (comments, blanks, URLs): rows of the resolved, the missing notice on stderr', async () => {
    const file = join(dir, 'ids.txt');
    writeFileSync(file, '# my stays\n12345\n\nhttps://www.airbnb.com/rooms/777\n  404  \n');
    const r = await staysIn(['stay', 'batch', '--file', file, '-o', 'tsv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['12345', '777']);
    expect(r.stderr).toMatch(/^warning: .*404.*listing_not_found/m);
    expect(r.stderr).toMatch(/^stays: 1 of 3 entries could not be resolved$/m);

    // Bare --json: the envelope carries it all (meta.missing, meta.warnings); stderr says nothing.
    const j = await staysIn(['stay', 'batch', '--file', file, '--json'], box.env, T);
    expect(j.code, j.stderr).toBe(0);
    const body = json<{ data: Stay[]; meta: { count: number; requested: number; missing: number; warnings: unknown[] } }>(j);
    expect(body.meta).toMatchObject({ count: 2, requested: 3, missing: 1 });
    expect(body.meta.warnings).toHaveLength(1);
    expect(j.stderr).not.toMatch(/could not be resolved|warning:/);
  }, 90_000);

  it('from stdin: lines, a JSON array and an {entries} object give the same rows', async () => {
    const lines = await staysIn(['stay', 'batch', '--file', '-', '-o', 'jsonl'], box.env, { ...T, input: '12345\nhttps://www.airbnb.com/rooms/777\n' });
    const array = await staysIn(['stay', 'batch', '--file', '-', '-o', 'jsonl'], box.env, { ...T, input: JSON.stringify([{ id: '12345' }, { url: 'https://www.airbnb.com/rooms/777' }]) });
    const object = await staysIn(['stay', 'batch', '--file', '-', '--json'], box.env, { ...T, input: JSON.stringify({ entries: [{ id: '12345' }, { url: 'https://www.airbnb.com/rooms/777' }] }) });
    for (const r of [lines, array, object]) expect(r.code, r.stderr).toBe(0);
    const ids = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Stay).id);
    expect(ids(lines.stdout)).toEqual(['12345', '777']);
    expect(ids(array.stdout)).toEqual(['12345', '777']);
    expect(json<{ data: Stay[] }>(object).data.map((s) => s.id)).toEqual(['12345', '777']);
    expect(lines.stderr).not.toMatch(/could not be resolved/);
  }, 90_000);

  // Issue 22, item 12: lines are named 1-based; a bad line is skipped, the others run.
  it('a malformed line is named by its 1-based line number and skipped; the good lines run, then exit 2', async () => {
    const r = await staysIn(['stay', 'batch', '--file', '-', '-o', 'tsv'], box.env, { ...T, input: '# ids\n12345\n\nnot-an-id\n777\n' });
    expect(r.code, r.stderr).toBe(2);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['12345', '777']);
    expect(r.stderr).toMatch(/^stays: line 4: .*"not-an-id"; skipped$/m);
    expect(r.stderr).not.toMatch(/entries\[/);
    // A JSON file: entries are numbered 1-based the same way.
    const j = await staysIn(['stay', 'batch', '--file', '-', '-o', 'tsv'], box.env, { ...T, input: JSON.stringify(['12345', true, { id: '1', url: 'https://www.airbnb.com/rooms/1' }]) });
    expect(j.code).toBe(2);
    expect(j.stdout.trim().split('\t')[0]).toBe('12345');
    expect(j.stderr).toMatch(/^stays: entry 2: .*true.*; skipped$/m);
    expect(j.stderr).toMatch(/^stays: entry 3: .*both.*; skipped$/m);
    // Every line bad: nothing to send, a usage error naming them.
    const none = await staysIn(['stay', 'batch', '--file', '-'], box.env, { ...T, input: '12345x\n\nabc\n' });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/line 1: .*12345x.*line 3: .*abc/);
  }, 90_000);

  it('a missing entry is named by its line, its code said once; --fail-on-partial exits 7 for it', async () => {
    const input = '12345\n\n404\n';
    const r = await staysIn(['stay', 'batch', '--file', '-', '-o', 'tsv'], box.env, { ...T, input });
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: line 3 \(404\): .*$/);
    expect(warnings[0]!.split('listing_not_found')).toHaveLength(2); // the code once
    const strict = await staysIn(['stay', 'batch', '--file', '-', '-o', 'tsv', '--fail-on-partial'], box.env, { ...T, input });
    expect(strict.code).toBe(7);
    expect(strict.stdout.trim().split('\n')).toHaveLength(1);
    expect(strict.stderr).toMatch(/exiting 7 because 1 of 2 entries could not be resolved \(--fail-on-partial\)/);
  }, 90_000);

  it('more than 50 entries: a usage error before any request (exit 2, nothing on stdout)', async () => {
    const input = Array.from({ length: 51 }, (_, i) => String(1000 + i)).join('\n');
    const r = await staysIn(['stay', 'batch', '--file', '-'], box.env, { ...T, input });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/51 entries; a batch takes at most 50/);
    const missing = await staysIn(['stay', 'batch', '--file', join(dir, 'nope.txt')], box.env, T);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
  }, 60_000);
});
