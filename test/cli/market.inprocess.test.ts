// `stays market` (issue 27, item 2) through the real CLI in this process (staysIn): the sandbox's
// synthetic market as a table, csv and JSON (free, deterministic), --chart piped; a live key on
// the simulated upstream, read in-process and through `stays serve` (serveIn, loopback HTTP): the
// same answer both ways; nothing observed exits 3 with no_observations and nothing on stdout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketView as Market } from '../../src/core/schemas/market.js';
import type { TestAccount } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

const WINDOW = ['--from', '2027-06-01', '--to', '2027-07-01'];

describe('stays market (sandbox, in-process: free and deterministic)', () => {
  const box = freshSandbox();

  it('--json is the envelope, free; the table shows each figure with its sample and method; csv is flat rows', async () => {
    const r = await staysIn(['market', 'Lisbon', ...WINDOW, '--json'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const body = json<{ data: Market; meta: { creditsCharged: number; sandbox: boolean } }>(r);
    expect(body.meta).toMatchObject({ creditsCharged: 0, sandbox: true });
    const o = body.data.overall;
    expect(o.occupancy.calendarUnavailableRate.value).not.toBeNull();
    expect(body.data.summary).toContain(`${o.occupancy.calendarUnavailableRate.sampleSize} observed listing-nights`);
    const again = json<{ data: Market }>(await staysIn(['market', 'Lisbon', ...WINDOW, '--json'], box.env));
    expect(again.data).toEqual(body.data);

    const table = await staysIn(['market', 'Lisbon', ...WINDOW, '-o', 'table'], { ...box.env, COLUMNS: '200' });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/occupancy: calendar-unavailable rate/);
    expect(table.stdout).toContain(`${(o.occupancy.inferredBookedRate.value! * 100).toFixed(1)} %`);
    expect(table.stdout).toContain(`${o.occupancy.inferredBookedRate.sampleSize} listing-nights`);
    expect(table.stdout).toContain(o.occupancy.inferredBookedRate.method);
    // Each figure's listings (issue 36, item 9).
    expect(table.stdout).toMatch(/LISTINGS/);
    expect(table.stdout).toMatch(new RegExp(`${o.occupancy.inferredBookedRate.sampleSize} listing-nights\\s+${o.occupancy.inferredBookedRate.listings}\\s`));
    expect(table.stderr).toMatch(/observations of \d+ listings/);

    const csv = await staysIn(['market', 'Lisbon', ...WINDOW, '--platform', 'airbnb', '-o', 'csv'], box.env);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('group,metric,value,unit,sample_size,sample_unit,method,listings');
    expect(lines.some((l) => l.startsWith('airbnb,ADR,'))).toBe(true);
    expect(lines.every((l, i) => i === 0 || !l.startsWith('vrbo,'))).toBe(true);
  });

  it('--chart draws both occupancy figures by week; piped, in ASCII', async () => {
    const r = await staysIn(['market', 'Lisbon', '--from', '2027-06-01', '--to', '2027-08-01', '--chart'], { ...box.env, COLUMNS: '60' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('calendar-unavailable rate by week of nights (calendar-last-state/1)');
    expect(r.stdout).toContain('inferred booked rate by week of nights');
    expect(/[\u2800-\u28ff]/.test(r.stdout)).toBe(false);
    // 2027-06-01 to 2027-08-01 ends with 5 nights: drawn with the week before, and said so (issue 36, item 10).
    expect(r.stdout).toContain('(the last 5 nights, from 2027-07-27, drawn with the week before: not a week of its own)');
  });

  it('bad input: a usage error or the API typed error, nothing on stdout', async () => {
    const noScope = await staysIn(['market', ...WINDOW], box.env);
    expect(noScope.code).toBe(2);
    expect(noScope.stdout).toBe('');
    expect(noScope.stderr).toMatch(/Give one of LOCATION, --bbox, --compset/);
    const backwards = await staysIn(['market', 'Lisbon', '--from', '2027-07-01', '--to', '2027-06-01'], box.env);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/invalid_date_range/);
    const chartJson = await staysIn(['market', 'Lisbon', ...WINDOW, '--chart', '--json'], box.env);
    expect(chartJson.code).toBe(2);
    expect(chartJson.stdout).toBe('');
    const method = await staysIn(['market', 'Lisbon', ...WINDOW, '--method', 'calendar-diff/9'], box.env);
    expect(method.code).toBe(2);
    expect(method.stdout).toBe('');
    expect(method.stderr).toMatch(/--method/);
  });

  it('--method picks the booking inference, in the market and in history bookings; the answer names it', async () => {
    for (const m of ['calendar-diff/1', 'calendar-diff/2']) {
      const r = await staysIn(['market', 'Lisbon', ...WINDOW, '--method', m, '--json'], box.env);
      expect(r.code, r.stderr).toBe(0);
      const data = json<{ data: Market }>(r).data;
      expect(data.bookingMethod).toBe(m);
      expect(data.overall.occupancy.inferredBookedRate.method).toContain(m);
      const b = await staysIn(['history', 'bookings', 'airbnb:62959578', ...WINDOW, '--method', m, '--json'], box.env);
      expect(b.code, b.stderr).toBe(0);
      expect(json<{ data: { method: string } }>(b).data.method).toBe(m);
    }
    const bad = await staysIn(['history', 'bookings', 'airbnb:62959578', ...WINDOW, '--method', 'guess'], box.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--method/);
  });
});

describe('stays market (live key, simulated upstream): in-process and remote alike', () => {
  let s: Served;
  let a: TestAccount;
  beforeAll(async () => {
    s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' });
    a = await s.account({ credits: 100_000, rpm: 100_000 });
  });
  afterAll(async () => {
    await s?.stop();
  });
  const local = () => ({ ...freshSandbox().env, STAYS_DATA_DIR: s.dataDir, STAYS_API_KEY: a.liveKey, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' });
  const remote = () => ({ ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey });

  it('nothing observed exits 3 (no_observations); after live calls, the same figures in-process and remote', async () => {
    const none = await staysIn(['market', 'Faro', '--from', '2027-01-10', '--to', '2027-01-17', '--json'], remote());
    expect(none.code).toBe(3);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no_observations/);
    const found = await staysIn(
      ['search', 'Faro', '--platforms', 'airbnb', '--check-in', '2027-01-10', '--check-out', '2027-01-12', '--json'],
      { ...local(), STAYS_NOW: '2026-12-01T00:00:00Z' },
      { timeoutMs: 60_000 },
    );
    expect(found.code, found.stderr).toBe(0);
    const id = json<{ data: { platformListingId: string }[] }>(found).data[0]!.platformListingId;
    for (const now of ['2026-12-01T00:00:00Z', '2026-12-20T00:00:00Z']) {
      const cal = await staysIn(['availability', 'airbnb', id, '--start-date', '2027-01-10', '--end-date', '2027-01-17', '--json'], { ...local(), STAYS_NOW: now }, { timeoutMs: 60_000 });
      expect(cal.code, cal.stderr).toBe(0);
    }
    const args = ['market', 'Faro', '--from', '2027-01-10', '--to', '2027-01-17', '--json'];
    const inProc = await staysIn(args, local());
    expect(inProc.code, inProc.stderr).toBe(0);
    const viaServer = await staysIn(args, remote());
    expect(viaServer.code, viaServer.stderr).toBe(0);
    const a1 = json<{ data: Market; meta: { creditsCharged: number } }>(inProc);
    const a2 = json<{ data: Market; meta: { creditsCharged: number } }>(viaServer);
    expect(a2.data).toEqual(a1.data);
    expect(a1.meta.creditsCharged).toBe(0);
    expect(a1.data.overall.occupancy.calendarUnavailableRate.sampleSize).toBe(7);
  });
});
