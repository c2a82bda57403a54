// `stays search` in its Family S form (--family s or any S-only flag) and `stays listings PRESET`,
// the CLI run in this process (staysIn), in-process on a fresh sandbox: the form's selection, mixing
// the forms' flags (exit 2), --fields columns, --all over next_page_token, every output format.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

let box: Sandbox;
const T = { timeoutMs: 60_000 };
beforeAll(async () => {
  box = freshSandbox();
  const r = await staysIn(['account', '-o', 'json'], box.env, T);
  expect(r.code, r.stderr).toBe(0);
}, 90_000);

interface Stay {
  id: string;
  title: string;
  description: string | null;
  host: { is_superhost: boolean };
  pricing: { price: number | null };
}
interface SMeta {
  count: number;
  limit: number;
  has_more: boolean;
  next_page_token: string | null;
  credits_charged: number;
  warning?: string;
}

const STAY_HEADER =
  'id,title,property_type,room_type,person_capacity,star_rating,reviews_count,price,currency,rate_type,city,country,address,latitude,longitude,host_id,host_name,is_superhost,photo_count,amenities,url';

describe('stays search, Family S form', () => {
  it('--family s and an S-only flag both post the S body: Stay rows, snake_case meta', async () => {
    const [family, implied] = await Promise.all([staysIn(['search', 'Lisbon', '--family', 's', '--json'], box.env, T), staysIn(['search', 'Lisbon', '--max-items', '5', '--json'], box.env, T)]);
    for (const r of [family, implied]) expect(r.code, r.stderr).toBe(0);
    const a = json<{ data: Stay[]; meta: SMeta }>(family);
    const b = json<{ data: Stay[]; meta: SMeta }>(implied);
    expect(a.meta.limit).toBe(50);
    expect(b.meta).toMatchObject({ count: 5, limit: 5, has_more: true, credits_charged: 0 });
    expect(b.data.map((s) => s.id)).toEqual(a.data.slice(0, 5).map((s) => s.id));
    expect(typeof b.data[0]!.title).toBe('string');
  }, 90_000);

  it('mixing S-only and U-only flags is a usage error naming one of each: exit 2, nothing on stdout', async () => {
    const [mixed, family] = await Promise.all([
      staysIn(['search', 'Lisbon', '--max-items', '5', '--platforms', 'airbnb'], box.env, T),
      staysIn(['search', 'Lisbon', '--family', 'u', '--fields', 'id'], box.env, T),
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.stdout).toBe('');
    expect(mixed.stderr).toMatch(/--max-items/);
    expect(mixed.stderr).toMatch(/--platforms/);
    expect(family.code).toBe(2);
    expect(family.stdout).toBe('');
    expect(family.stderr).toMatch(/--fields/);
  }, 60_000);

  it('--fields: csv columns are the projected paths, in the order asked', async () => {
    const r = await staysIn(['search', 'Lisbon', '--max-items', '3', '--fields', 'id,title,pricing.price,host.is_superhost', '-o', 'csv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header).toBe('id,title,pricing.price,host.is_superhost');
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatch(/^\d+,.+,[\d.]*,(true|false)$/);
  }, 60_000);

  it('json, jsonl, csv and tsv shapes; the tsv has the csv columns without a header', async () => {
    const args = ['search', 'Porto', '--family', 's', '--max-items', '4'];
    const [j, l, c, t] = await Promise.all([
      staysIn([...args, '-o', 'json'], box.env, T),
      staysIn([...args, '-o', 'jsonl'], box.env, T),
      staysIn([...args, '-o', 'csv'], box.env, T),
      staysIn([...args, '-o', 'tsv'], box.env, T),
    ]);
    for (const r of [j, l, c, t]) expect(r.code, r.stderr).toBe(0);
    const ids = json<{ data: Stay[] }>(j).data.map((s) => s.id);
    expect(ids).toHaveLength(4);
    expect(
      l.stdout
        .trim()
        .split('\n')
        .map((x) => (JSON.parse(x) as Stay).id),
    ).toEqual(ids);
    const csv = c.stdout.trim().split('\n');
    expect(csv[0]).toBe(STAY_HEADER);
    expect(csv.slice(1).map((x) => x.split(',')[0])).toEqual(ids);
    const tsv = t.stdout.trim().split('\n');
    expect(tsv.map((x) => x.split('\t')[0])).toEqual(ids);
    expect(tsv.every((x) => x.split('\t').length === STAY_HEADER.split(',').length)).toBe(true);
  }, 90_000);

  it('--all walks next_page_token: the ids of page-by-page --next-page-token, none twice', async () => {
    const base = ['search', 'Lisbon', '--family', 's', '--max-items', '25'];
    const walked = await staysIn([...base, '--all', '-o', 'jsonl'], box.env, T);
    expect(walked.code, walked.stderr).toBe(0);
    const all = walked.stdout
      .trim()
      .split('\n')
      .map((x) => (JSON.parse(x) as Stay).id);

    const byHand: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const r = await staysIn([...base, ...(token ? ['--next-page-token', token] : []), '--json'], box.env, T);
      expect(r.code, r.stderr).toBe(0);
      const page = json<{ data: Stay[]; meta: SMeta }>(r);
      byHand.push(...page.data.map((s) => s.id));
      token = page.meta.next_page_token;
      pages++;
    } while (token !== null && pages < 20);
    expect(token).toBeNull();
    expect(pages).toBeGreaterThan(1);
    expect(all).toEqual(byHand);
    expect(new Set(all).size).toBe(all.length);

    // The whole walk as one envelope: every row, the last page's meta.
    const j = await staysIn([...base, '--all', '--json'], box.env, T);
    expect(j.code, j.stderr).toBe(0);
    const env = json<{ data: Stay[]; meta: SMeta }>(j);
    expect(env.data.map((s) => s.id)).toEqual(all);
    expect(env.meta.next_page_token).toBeNull();
  }, 120_000);

  it('a table fits COLUMNS and never cuts an id', async () => {
    const ids = json<{ data: Stay[] }>(await staysIn(['search', 'Lisbon', '--max-items', '6', '--json'], box.env, T)).data.map((x) => x.id);
    const r = await staysIn(['search', 'Lisbon', '--max-items', '6', '-o', 'table'], { ...box.env, COLUMNS: '60' }, T);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect([...new Intl.Segmenter().segment(l)].length).toBeLessThanOrEqual(60);
    expect(lines.slice(1).map((l) => l.split(/\s+/).pop())).toEqual(ids);
  }, 60_000);

  it('--with-details posts to /v1/search/with-details: rows carry a description', async () => {
    const r = await staysIn(['search', 'Lisbon', '--with-details', '--max-items', '2', '--json'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const rows = json<{ data: Stay[] }>(r).data;
    expect(rows).toHaveLength(2);
    expect(rows.every((s) => typeof s.description === 'string')).toBe(true);
  }, 60_000);
});

describe('stays listings PRESET', () => {
  it('superhost, luxury and instant-book: their rows; instant-book warns on stderr, but not in bare --json', async () => {
    const [sup, lux, ib, ibTable] = await Promise.all([
      staysIn(['listings', 'superhost', 'Lisbon', '--max-items', '5', '--json'], box.env, T),
      staysIn(['listings', 'luxury', 'Lisbon', '--max-items', '5', '--json'], box.env, T),
      staysIn(['listings', 'instant-book', 'Lisbon', '--max-items', '5', '--json'], box.env, T),
      staysIn(['listings', 'instant-book', 'Lisbon', '--max-items', '5', '-o', 'tsv'], box.env, T),
    ]);
    for (const r of [sup, lux, ib, ibTable]) expect(r.code, r.stderr).toBe(0);
    const s = json<{ data: Stay[] }>(sup).data;
    expect(s.length).toBeGreaterThan(0);
    expect(s.every((x) => x.host.is_superhost)).toBe(true);
    const l = json<{ data: Stay[] }>(lux).data;
    expect(l.length).toBeGreaterThan(0);
    expect(l.every((x) => (x.pricing.price ?? 0) >= 300)).toBe(true);
    expect(json<{ meta: SMeta }>(ib).meta.warning).toBe('experimental');
    expect(ib.stderr).not.toMatch(/experimental/);
    expect(ibTable.stderr).toMatch(/^warning: results are experimental$/m);
    expect(ibTable.stdout.trim().split('\n')).toHaveLength(5);
  }, 90_000);

  it('--fields and --all work on a preset as on search', async () => {
    const r = await staysIn(['listings', 'superhost', 'Lisbon', '--max-items', '4', '--fields', 'id,host.is_superhost', '--all', '-o', 'csv'], box.env, T);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header).toBe('id,host.is_superhost');
    expect(rows.length).toBeGreaterThan(4);
    expect(rows.every((x) => x.endsWith(',true'))).toBe(true);
    expect(new Set(rows).size).toBe(rows.length);
  }, 90_000);
});
