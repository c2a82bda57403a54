// `stays compare` and honest prices (issue 27, item 3) through the real CLI: -o csv says what each
// total includes (includes_* true, false or unknown: never an empty cell), offers with other
// inclusions are listed after the comparable ones with one warning line on stderr naming them,
// in every output format; and remote (a `stays serve` on loopback) answers exactly as in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

const DATES = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
const MIXED = ['compare', '--listings', 'vrbo:4886746,airbnb:12345678,booking:pt/casa-azul', ...DATES];

let s: Served;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  s = await serveIn();
  a = await s.account();
  box = freshSandbox();
});
afterAll(async () => {
  await s?.stop();
});

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));

describe('stays compare: honest prices', () => {
  it('-o csv: the includes columns are true, false or unknown, never empty; the ranked offer first', async () => {
    const r = await staysIn([...MIXED, '-o', 'csv'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trim().split('\n');
    const cols = header!.split(',');
    expect(cols).toEqual(expect.arrayContaining(['cleaning_fee', 'service_fee', 'taxes', 'includes_cleaning', 'includes_service_fee', 'includes_taxes']));
    const at = (row: string, name: string) => row.split(',')[cols.indexOf(name)];
    const byPlatform = Object.fromEntries(rows.map((row) => [at(row, 'platform'), row]));
    expect(at(rows[0]!, 'platform')).toBe('airbnb');
    expect(['includes_cleaning', 'includes_service_fee', 'includes_taxes'].map((c) => at(byPlatform.airbnb!, c))).toEqual(['true', 'true', 'true']);
    expect(['includes_cleaning', 'includes_service_fee', 'includes_taxes'].map((c) => at(byPlatform.booking!, c))).toEqual(['unknown', 'unknown', 'true']);
    expect(['includes_cleaning', 'includes_service_fee', 'includes_taxes'].map((c) => at(byPlatform.vrbo!, c))).toEqual(['unknown', 'unknown', 'unknown']);
    // booking's cleaning fee cell is empty: the includes column says it is unknown, not none.
    expect(at(byPlatform.booking!, 'cleaning_fee')).toBe('');
  });

  it('one warning line on stderr names the offers listed apart and why, in every text format (--json: in meta)', async () => {
    const body = json<{ meta: { warnings: { code: string }[] } }>(await staysIn([...MIXED, '--json'], box.env));
    expect(body.meta.warnings.map((w) => w.code)).toEqual(['price_inclusions_differ']);
    for (const format of [
      ['-o', 'csv'],
      ['-o', 'tsv'],
      ['-o', 'table'],
    ]) {
      const r = await staysIn([...MIXED, ...format], box.env);
      expect(r.code, r.stderr).toBe(0);
      const w = warnings(r.stderr).filter((l) => l.includes('price_inclusions_differ'));
      expect(w, format.join(' ')).toHaveLength(1);
      expect(w[0]).toMatch(
        /^warning: Offers whose totals include different things are not ranked together: .*\(airbnb:12345678\) states cleaning included, service fee included, taxes included; listed after them: /,
      );
      expect(w[0]).toContain('booking:pt/casa-azul (cleaning unknown, service fee unknown)');
      expect(w[0]).toContain('vrbo:4886746 (cleaning unknown, service fee unknown, taxes unknown)');
    }
    // Offers that agree: no such line.
    const same = await staysIn(['compare', '--listings', 'airbnb:12345678,airbnb:87654321', ...DATES, '-o', 'csv'], box.env);
    expect(same.code, same.stderr).toBe(0);
    expect(warnings(same.stderr)).toEqual([]);
  });

  it('remote and in-process: the same data and the same warning, stays price too', async () => {
    for (const args of [MIXED, ['price', 'booking', 'pt/casa-azul', ...DATES], ['search', 'Lisbon', '--limit', '3', ...DATES]]) {
      const [r, l] = await Promise.all([staysIn([...args, '--json', '--base-url', s.url, '--api-key', a.sandboxKey], box.env), staysIn([...args, '--json'], box.env)]);
      expect(r.code, r.stderr).toBe(0);
      expect(l.code, l.stderr).toBe(0);
      const [rb, lb] = [json<{ data: unknown; meta: { warnings: { code: string; message: string }[] } }>(r), json<{ data: unknown; meta: { warnings: { code: string; message: string }[] } }>(l)];
      expect(rb.data).toEqual(lb.data);
      expect(rb.meta.warnings.map((w) => [w.code, w.message])).toEqual(lb.meta.warnings.map((w) => [w.code, w.message]));
      expect(warnings(r.stderr)).toEqual(warnings(l.stderr));
    }
  });
});
