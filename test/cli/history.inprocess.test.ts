// `stays history price|calendar|listings|export` (issue 26, item 5) through the real CLI in this
// process (staysIn): the sandbox's synthetic histories in every format and at two terminal widths,
// --chart on a terminal and piped; a live key in-process on the simulated upstream (live calls
// first, so observations exist) and the same store read remotely through `stays serve` (serveIn,
// real HTTP on loopback): the same answers both ways, and the export streamed page by page; bad
// input as typed errors with the exit code of every other usage or API error and nothing on stdout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

const PRICE = ['history', 'price', 'vrbo', '321', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--from', '2026-12-01', '--to', '2027-03-01'];
const CALENDAR = ['history', 'calendar', 'vrbo', '321', '--start-date', '2027-02-01', '--end-date', '2027-02-15', '--from', '2026-09-01', '--to', '2027-03-01'];
// The SGR sequences of bold headers take no columns.
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const widest = (s: string) =>
  Math.max(
    ...plain(s)
      .trimEnd()
      .split('\n')
      .map((l) => [...l].length),
  );
type Obs = { platform: string; listingId: string; kind: string; key: string; value: unknown; firstSeen: string; lastSeen: string; timesSeen: number };

describe('stays history (sandbox, in-process: free and deterministic)', () => {
  const box = freshSandbox();

  it('price: --json is the envelope, free; csv has the documented header; rows sum to the 60 days of sightings', async () => {
    const r = await staysIn([...PRICE, '--json'], box.env);
    expect(r.code, r.stderr).toBe(0);
    const body = json<{ data: { nightlyPrice: number; timesSeen: number; source: string }[]; meta: { creditsCharged: number; sandbox: boolean } }>(r);
    expect(body.meta).toMatchObject({ creditsCharged: 0, sandbox: true });
    expect(body.data.length).toBeGreaterThan(3);
    expect(body.data.every((d) => d.source === 'sandbox')).toBe(true);
    // The window 2026-12-01..2027-03-01 holds the whole synthetic history (the 60 days before check-in).
    expect(body.data.reduce((n, d) => n + d.timesSeen, 0)).toBe(60);
    // Stable: the same document again, but for the request's id.
    const again = json(await staysIn([...PRICE, '--json'], box.env));
    expect({ ...again, meta: { ...again.meta, requestId: null } }).toEqual({ ...body, meta: { ...body.meta, requestId: null } });

    const csv = await staysIn([...PRICE, '-o', 'csv'], box.env);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('observed_at,first_seen,last_seen,times_seen,nightly_price,total_price,currency,source');
    expect(lines.slice(1).map((l) => Number(l.split(',')[4]))).toEqual(body.data.map((d) => d.nightlyPrice));
    const jsonl = await staysIn([...PRICE, '-o', 'jsonl'], box.env);
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(body.data);
  });

  it('price: the table fits 80 and 200 columns; the summary line has a sparkline; stays_ ids name the platform', async () => {
    for (const columns of [80, 200]) {
      const r = await staysIn([...PRICE, '-o', 'table'], box.env, { tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
      expect(plain(r.stdout)).toMatch(/^FIRST SEEN +LAST SEEN +SEEN +NIGHTLY +TOTAL +SOURCE/);
      expect(r.stderr).toMatch(/nightly [\d.]+ USD → [\d.]+ USD [▁▂▃▄▅▆▇█]{8,} \(min/);
    }
    const byId = await staysIn(['history', 'price', 'stays_vrbo_321', ...PRICE.slice(4), '--json'], box.env);
    expect(byId.code, byId.stderr).toBe(0);
    expect(json(byId).data).toEqual(json(await staysIn([...PRICE, '--json'], box.env)).data);
  });

  it('--chart: braille sized to the terminal on a TTY, ASCII when piped (or NO_COLOR), 80 columns by default', async () => {
    for (const columns of [80, 200]) {
      const r = await staysIn([...PRICE, '--chart'], box.env, { tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/[\u2801-\u28ff]/);
      expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
      expect(widest(r.stdout)).toBeGreaterThan(columns - 3);
    }
    const piped = await staysIn([...PRICE, '--chart'], box.env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^nightly price \(USD\), \d+ values\n/);
    expect(piped.stdout).toMatch(/^[\x20-\x7e\n]+$/);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
    const noColor = await staysIn([...PRICE, '--chart'], { ...box.env, NO_COLOR: '1' }, { tty: true, columns: 100 });
    expect(noColor.stdout).toMatch(/^[\x20-\x7e\n]+$/);
    // A chart is text: with a JSON format it is refused before any request.
    const refused = await staysIn([...PRICE, '--chart', '-o', 'json'], box.env);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
  });

  it('calendar: the changes as rows, the latest state as the summary and in --json; --all gathers every page; --chart counts nights', async () => {
    const whole = json<{ data: { changes: { date: string; available: { from: boolean | null; to: boolean }; changed: string[] }[]; latest: { date: string; available: boolean }[] } }>(
      await staysIn([...CALENDAR, '--json'], box.env),
    );
    expect(whole.data.latest).toHaveLength(14);
    const taken = whole.data.latest.filter((d) => !d.available).length;
    // Every night first seen, then one booking per night the sandbox shows taken, and a day after a
    // taken night refusing check-out from when that night was taken.
    const checkOut = whole.data.changes.filter((c) => c.changed.join() === 'checkOut');
    const takenOn = new Set(whole.data.latest.filter((d) => !d.available).map((d) => d.date));
    for (const c of checkOut) expect(takenOn.has(new Date(Date.parse(c.date) - 86_400_000).toISOString().slice(0, 10)) || c.date === whole.data.latest[0]!.date).toBe(true);
    expect(whole.data.changes).toHaveLength(14 + taken + checkOut.length);
    const csv = await staysIn([...CALENDAR, '-o', 'csv'], box.env);
    expect(csv.stdout.split('\n')[0]).toBe(
      'date,observed_at,available_from,available_to,min_nights_from,min_nights_to,price,check_in_from,check_in_to,check_out_from,check_out_to,bookable_from,bookable_to,changed',
    );
    expect(csv.stdout.trim().split('\n')).toHaveLength(1 + whole.data.changes.length);
    const paged = json<typeof whole>(await staysIn([...CALENDAR, '--limit', '4', '--all', '--json'], box.env));
    expect(paged.data).toEqual(whole.data);
    const table = await staysIn([...CALENDAR, '-o', 'table'], box.env, { tty: true, columns: 80 });
    expect(table.stdout).toMatch(/yes → no/);
    expect(table.stderr).toContain(`latest: ${14 - taken} of 14 nights available`);
    const chart = await staysIn([...CALENDAR, '--chart'], box.env);
    expect(chart.stdout).toMatch(/^nights available of 14 observed/);
    // Every night is first seen free (120 days before it), before any of them is taken.
    expect(chart.stdout).toMatch(/^ *14 \|/m);
  });

  it('listings: a SEEN OVER TIME column on tables at 80 and 200 columns; --all walks every page', async () => {
    const all = json<{ data: { listingId: string; inLatestSearch: boolean }[] }>(await staysIn(['history', 'listings', 'Lisbon', '--platforms', 'airbnb,vrbo', '--all', '--json'], box.env));
    expect(all.data.length).toBeGreaterThan(5);
    const paged = await staysIn(['history', 'listings', 'Lisbon', '--platforms', 'airbnb,vrbo', '--limit', '3', '--all', '-o', 'jsonl'], box.env);
    expect(
      paged.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { listingId: string }).listingId),
    ).toEqual(all.data.map((d) => d.listingId));
    for (const columns of [80, 200]) {
      const r = await staysIn(['history', 'listings', 'Lisbon', '--platforms', 'airbnb,vrbo', '-o', 'table'], box.env, { tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
      if (columns === 200) expect(r.stdout).toMatch(/SEEN OVER TIME/);
      expect(r.stdout).toMatch(/[█·]{16}/);
    }
  });

  it('export: a sandbox key exports nothing (its histories are synthetic); csv still has its header', async () => {
    const csv = await staysIn(['history', 'export', '--since', '2026-01-01', '-o', 'csv'], box.env);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('platform,listing_id,kind,key,currency,value,source,first_seen,last_seen,times_seen\n');
    const jsonl = await staysIn(['history', 'export', '--since', '2026-01-01'], box.env);
    expect(jsonl.stdout).toBe('');
  });

  it('bad input: typed errors, exit 2 like other usage errors, nothing on stdout', async () => {
    const inverted = await staysIn(['history', 'price', 'vrbo', '321', '--check-in', '2027-03-04', '--check-out', '2027-03-01'], box.env);
    expect(inverted.code).toBe(2);
    expect(inverted.stdout).toBe('');
    expect(inverted.stderr).toMatch(/invalid_date_range/);
    const window = await staysIn([...CALENDAR.slice(0, 8), '--from', '2027-03-01', '--to', '2027-01-01', '--json'], box.env);
    expect(window.code).toBe(2);
    expect(window.stdout).toBe('');
    expect(JSON.parse(window.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'invalid_date_range', param: 'from' } });
    const since = await staysIn(['history', 'export', '--since', 'yesterday'], box.env);
    expect(since.code).toBe(2);
    expect(since.stdout).toBe('');
    expect(since.stderr).toMatch(/since/);
    const missing = await staysIn(['history', 'export'], box.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Missing --since/);
    const table = await staysIn(['history', 'export', '--since', '2026-01-01', '-o', 'table'], box.env);
    expect(table.code).toBe(2);
    expect(table.stdout).toBe('');
    // Parquet on a terminal: refused before any request (a file, or a pipe, takes it).
    const parquet = await staysIn(['history', 'export', '--since', '2026-01-01', '-o', 'parquet', '--out', '-'], box.env, { tty: true });
    expect(parquet.code).toBe(2);
    expect(parquet.stdout).toBe('');
    expect(parquet.stderr).toMatch(/--out - writes Parquet to stdout, which is a terminal/);
  });
});

describe('stays history (live key, simulated upstream): in-process and remote read the same store alike', () => {
  let s: Served;
  let a: TestAccount;
  beforeAll(async () => {
    s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' });
    a = await s.account({ credits: 100_000, rpm: 100_000 });
  });
  afterAll(async () => {
    await s?.stop();
  });

  // In-process on the server's own data directory (SQLite in WAL mode is shared), and remote.
  const local = () => ({ ...freshSandbox().env, STAYS_DATA_DIR: s.dataDir, STAYS_API_KEY: a.liveKey, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' });
  const remote = () => ({ ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.liveKey });
  const STAY = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];

  it('live calls record observations; history price answers the same in-process and remote; the export streams every one', async () => {
    // Live calls first, in-process: a search (rows), then a quote of one of its listings, twice
    // six hours apart (past the price cache), so the series has sightings to count.
    const found = await staysIn(['search', 'Faro', '--platforms', 'airbnb', '--json'], { ...local(), STAYS_NOW: '2026-12-01T00:00:00Z' }, { timeoutMs: 60_000 });
    expect(found.code, found.stderr).toBe(0);
    const id = json<{ data: { platformListingId: string }[] }>(found).data[0]!.platformListingId;
    for (const now of ['2026-12-01T00:00:00Z', '2026-12-01T06:00:00Z']) {
      const q = await staysIn(['price', 'airbnb', id, ...STAY, '--json'], { ...local(), STAYS_NOW: now }, { timeoutMs: 60_000 });
      expect(q.code, q.stderr).toBe(0);
    }
    const window = ['--from', '2026-11-30', '--to', '2026-12-02'];
    const inProc = await staysIn(['history', 'price', 'airbnb', id, ...STAY, ...window, '--json'], local());
    expect(inProc.code, inProc.stderr).toBe(0);
    const rows = json<{ data: { timesSeen: number; source: string; firstSeen: string }[] }>(inProc).data;
    // Two sightings, however the world moved between them (one row extended, or two rows).
    expect(rows.reduce((n, r) => n + r.timesSeen, 0)).toBe(2);
    // The clock starts at STAYS_NOW and runs on: the first sighting is within a second of it.
    expect(rows[0]!.source).toBe('simulated');
    expect(rows[0]!.firstSeen).toMatch(/^2026-12-01T00:00:00\./);
    const viaServer = await staysIn(['history', 'price', `https://www.airbnb.com/rooms/${id}`, ...STAY, ...window, '--json'], remote());
    expect(viaServer.code, viaServer.stderr).toBe(0);
    expect(json(viaServer).data).toEqual(json(inProc).data);

    // The export: every observation since the day, the same rows in-process and remote, each once,
    // walked in pages of 7 (the search alone recorded more than that).
    const exported = await staysIn(['history', 'export', '--since', '2026-12-01', '--limit', '7'], local());
    expect(exported.code, exported.stderr).toBe(0);
    const obs = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obs);
    expect(obs.length).toBeGreaterThan(7);
    expect(new Set(obs.map((o) => `${o.platform}|${o.listingId}|${o.kind}|${o.key}|${o.firstSeen}`)).size).toBe(obs.length);
    expect(obs.some((o) => o.kind === 'search' && o.listingId === id)).toBe(true);
    const quotes = obs.filter((o) => o.kind === 'quote' && o.listingId === id);
    expect(quotes.reduce((n, o) => n + o.timesSeen, 0)).toBe(2);
    const remoteExport = await staysIn(['history', 'export', '--since', '2026-12-01', '--limit', '7'], remote());
    expect(remoteExport.stdout).toBe(exported.stdout);
    // csv: a header, then a row per observation; value is JSON in one cell.
    const csv = await staysIn(['history', 'export', '--since', '2026-12-01', '-o', 'csv'], remote());
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('platform,listing_id,kind,key,currency,value,source,first_seen,last_seen,times_seen');
    expect(lines).toHaveLength(1 + obs.length);
    // Since after everything was last seen: nothing.
    expect((await staysIn(['history', 'export', '--since', '2026-12-02'], remote())).stdout).toBe('');
  });

  it('calendar and listings: live observations, the same answer in-process and remote', async () => {
    const found = await staysIn(['search', 'Tavira', '--platforms', 'vrbo', '--json'], { ...local(), STAYS_NOW: '2026-12-05T00:00:00Z' }, { timeoutMs: 60_000 });
    expect(found.code, found.stderr).toBe(0);
    const id = json<{ data: { platformListingId: string }[] }>(found).data[0]!.platformListingId;
    const cal = ['vrbo', id, '--start-date', '2027-01-10', '--end-date', '2027-01-20'];
    for (const now of ['2026-12-05T00:00:00Z', '2026-12-06T00:00:00Z']) {
      const r = await staysIn(['availability', ...cal, '--json'], { ...local(), STAYS_NOW: now }, { timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
    }
    const window = ['--from', '2026-12-04', '--to', '2026-12-07'];
    const inProc = await staysIn(['history', 'calendar', ...cal, ...window, '--json'], local());
    expect(inProc.code, inProc.stderr).toBe(0);
    const h = json<{ data: { changes: { date: string; available: { from: boolean | null } }[]; latest: { date: string }[] } }>(inProc).data;
    // Ten nights, each first observed (a change from nothing) at the first call.
    expect(h.latest.map((d) => d.date)).toHaveLength(10);
    expect(h.changes.filter((c) => c.available.from === null)).toHaveLength(10);
    expect(json(await staysIn(['history', 'calendar', ...cal, ...window, '--json'], remote())).data).toEqual(h);
    const listings = ['history', 'listings', 'Tavira', '--platforms', 'vrbo', ...window, '--all', '--json'];
    const seen = json<{ data: { listingId: string; timesSeen: number }[] }>(await staysIn(listings, local()));
    expect(seen.data.map((l) => l.listingId)).toContain(id);
    expect(json(await staysIn(listings, remote())).data).toEqual(seen.data);
  });

  it('an unknown listing is not_found (exit 3), a bad --since invalid_request (exit 2), remote as in-process, nothing on stdout', async () => {
    for (const env of [local(), remote()]) {
      const unknown = await staysIn(['history', 'price', 'airbnb', '999999999999', ...STAY, '--json'], env);
      expect(unknown.code).toBe(3);
      expect(unknown.stdout).toBe('');
      expect(JSON.parse(unknown.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { type: 'not_found', code: 'listing_not_found' } });
      const since = await staysIn(['history', 'export', '--since', '2026-13-45'], env);
      expect(since.code).toBe(2);
      expect(since.stdout).toBe('');
    }
  });
});
