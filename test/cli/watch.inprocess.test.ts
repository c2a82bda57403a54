// `stays watch add|list|show|rm|events|run` (issue 26, item 5), the CLI run in this process
// (staysIn) in-process on a fresh machine's SQLite store, and against a real `stays serve` on
// loopback (serveIn) with --base-url: watches built from flags, tables, csv and JSON, `watch run`
// (exit 10 when a rule held, 0 when none did; JSON lines piped, a summary on a terminal; the
// store's row counts unchanged by a run with nothing due or nothing changed; through a server the
// same as in-process), typed errors with nothing on stdout. The child-process run is watch.test.ts.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../src/config.js';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { startReceiver } from '../helpers/receiver.js';
import type { TestAccount } from '../helpers/stays.js';
import { type Run, type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

const STAY = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
type Watch = { id: string; name: string | null; status: string; runs: number; triggers: number; intervalMinutes: number; call: { type: string; params: Record<string, unknown> }; rules: unknown[] };
type Event = { id: string; watchId: string; rule: { type: string }; after: Record<string, unknown> | null; changes: unknown[]; occurredAt?: string; name?: string | null; call?: unknown };

/**
 * Rows of every table of the store's SQLite file, read beside the CLI (read-only). Not the
 * Idempotency-Key records: `watch run` is a POST (/v1/watches/run), and the client gives every POST
 * a key so a retry gets the first answer; that record is the request's (kept 24 h), not the run's.
 */
function rowCounts(dataDir: string): Record<string, number> {
  const db = new Database(databaseFile(dataDir), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'idempotency_keys' ORDER BY name").all() as { name: string }[];
    return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
  } finally {
    db.close();
  }
}

// A terminal's colours (escape sequences) left out.
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

const lines = (r: Run) =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);

describe('stays watch, in-process on the local store', () => {
  let box: Sandbox;
  const w = (args: string[], env: NodeJS.ProcessEnv = {}, tty = false, columns?: number) => staysIn(['watch', ...args], { ...box.env, ...env }, { tty, columns });
  beforeAll(() => {
    box = freshSandbox();
  });

  it('add builds the body from flags; the sandbox triggers run and fire; a second run finds nothing due and leaves every table as it was', async () => {
    const price = await w(['add', 'price', 'airbnb', '100', ...STAY, '--below', '150', '--drop', '10', '--field', 'total', '--every', '30m', '--name', 'flat 100', '--json']);
    expect(price.code, price.stderr).toBe(0);
    expect(json<{ data: Watch }>(price).data).toMatchObject({
      name: 'flat 100',
      intervalMinutes: 30,
      status: 'active',
      call: { type: 'price', params: { platform: 'airbnb', listingId: '100', checkIn: '2027-03-01', checkOut: '2027-03-04' } },
      rules: [
        { type: 'price_below', amount: 150, field: 'totalPrice' },
        { type: 'price_drop', percent: 10, field: 'totalPrice' },
      ],
    });
    const cal = await w(['add', 'calendar', 'https://www.vrbo.com/100', '--start-date', '2027-03-01', '--end-date', '2027-03-20', '--nights-available', '--min-nights-changed', '--json']);
    expect(cal.code, cal.stderr).toBe(0);
    expect(json<{ data: Watch }>(cal).data).toMatchObject({
      intervalMinutes: 60,
      call: { type: 'availability', params: { platform: 'vrbo', startDate: '2027-03-01' } },
      rules: [{ type: 'nights_available' }, { type: 'min_nights_changed' }],
    });
    const search = await w(['add', 'search', 'watch', '--platforms', 'airbnb,vrbo', '--new-listings', '--every', '1d', '--json']);
    expect(search.code, search.stderr).toBe(0);
    expect(json<{ data: Watch }>(search).data).toMatchObject({
      intervalMinutes: 1440,
      call: { type: 'search', params: { location: 'watch', platforms: 'airbnb,vrbo' } },
      rules: [{ type: 'new_listings' }],
    });
    const ids = [price, cal, search].map((r) => json<{ data: Watch }>(r).data.id);

    // Newest first.
    const listed = json<{ data: Watch[] }>(await w(['list', '--json']));
    expect(listed.data.map((x) => x.id)).toEqual([...ids].reverse());

    // Piped: one JSON line per event, each with its watch's name and call; exit 10.
    const run = await w(['run']);
    expect(run.code, run.stderr).toBe(10);
    const events = lines(run);
    expect(new Set(events.map((e) => e.watchId))).toEqual(new Set(ids));
    expect(events.map((e) => e.rule.type).sort()).toEqual(['min_nights_changed', 'new_listings', 'nights_available', 'price_below', 'price_drop']);
    const below = events.find((e) => e.rule.type === 'price_below')!;
    expect(below).toMatchObject({ name: 'flat 100', call: { type: 'price' } });
    expect(below.after!.totalPrice as number).toBeLessThan(150);
    // The events are the watches' own, as stays watch events lists them (without the run's additions).
    for (const id of ids) {
      const listedEvents = json<{ data: Event[] }>(await w(['events', id, '--json'])).data;
      expect(listedEvents).toEqual(events.filter((e) => e.watchId === id).map(({ name: _n, call: _c, ...e }) => e));
    }

    // Paged: one event a page, every page walked.
    const paged = await w(['events', ids[0]!, '--limit', '1', '--all', '-o', 'jsonl']);
    expect(paged.code, paged.stderr).toBe(0);
    expect(lines(paged).map((e) => e.rule.type)).toEqual(['price_below', 'price_drop']);
    const first = json<{ meta: { pagination: { hasMore: boolean; nextCursor: string } } }>(await w(['events', ids[0]!, '--limit', '1', '--json']));
    expect(first.meta.pagination.hasMore).toBe(true);
    const second = json<{ data: Event[] }>(await w(['events', ids[0]!, '--limit', '1', '--cursor', first.meta.pagination.nextCursor, '--json']));
    expect(second.data.map((e) => e.rule.type)).toEqual(['price_drop']);

    // Nothing due now (the shortest interval is 30 minutes): exit 0, nothing printed, no row added anywhere.
    const before = rowCounts(box.dataDir);
    const again = await w(['run']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(rowCounts(box.dataDir)).toEqual(before);
    expect(json<{ data: Watch[] }>(await w(['list', '--json'])).data.map((x) => x.runs)).toEqual([1, 1, 1]);
  });

  it('a due watch whose answer did not change: no event, exit 0, and the store keeps its row counts (STAYS_NOW steps the clock)', async () => {
    const fresh = freshSandbox();
    const at = (iso: string, args: string[]) => staysIn(['watch', ...args], { ...fresh.env, STAYS_NOW: iso });
    for (const args of [
      ['add', 'price', 'airbnb', '12345678', ...STAY, '--drop', '10', '--every', '15m'],
      ['add', 'calendar', 'airbnb', '12345678', '--start-date', '2027-03-01', '--end-date', '2027-03-20', '--nights-available', '--min-nights-changed', '--every', '15m'],
      ['add', 'search', 'Lisbon', '--new-listings', '--every', '15m'],
    ]) {
      const r = await at('2027-01-01T00:00:00Z', args);
      expect(r.code, r.stderr).toBe(0);
    }
    const first = await at('2027-01-01T00:00:10Z', ['run']);
    // A first run has nothing before it to compare with: no drop, no night freed, no new listing.
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    const counts = rowCounts(fresh.dataDir);
    for (const iso of ['2027-01-01T00:20:00Z', '2027-01-01T00:40:00Z']) {
      const r = await at(iso, ['run']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(rowCounts(fresh.dataDir)).toEqual(counts);
    }
    // They did run each time: three runs each, no events.
    const listed = json<{ data: Watch[] }>(await at('2027-01-01T00:41:00Z', ['list', '--json'])).data;
    expect(listed.map((x) => [x.runs, x.triggers])).toEqual([
      [3, 0],
      [3, 0],
      [3, 0],
    ]);
  });

  it('on a terminal: the events as a table and a one-line summary; -o csv has the columns its help lists', async () => {
    const add = await w(['add', 'price', 'vrbo', '100', ...STAY, '--below', '90', '--name', 'terminal', '-o', 'table'], {}, true);
    expect(add.code, add.stderr).toBe(0);
    expect(plain(add.stdout)).toMatch(/^NAME\s+terminal$/m);
    expect(plain(add.stdout)).toMatch(/^RULES\s+below 90$/m);
    const id = /wat_[0-9a-z]{26}/.exec(add.stdout)![0];
    expect(add.stderr).toContain(`stays watch events ${id}`);
    const run = await w(['run'], {}, true, 160);
    expect(run.code, run.stderr).toBe(10);
    expect(plain(run.stdout)).toMatch(/OCCURRED\s+WATCH\s+NAME\s+RULE\s+CHANGE\s+EVENT ID/);
    expect(plain(run.stdout)).toMatch(new RegExp(`${id}\\s+terminal\\s+below 90\\s+[\\d,.]+ USD → [\\d,.]+ USD\\s+wev_`));
    // A narrow terminal: the table fits, the event id (what the next command takes) whole.
    const narrow = await w(['events', id], {}, true, 60);
    for (const line of plain(narrow.stdout).trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(plain(narrow.stdout)).toMatch(/RULE\s+CHANGE\s+EVENT ID\n[\s\S]*wev_[0-9a-z]{26}$/m);
    expect(plain(run.stderr)).toMatch(/1 watch ran; 1 triggered \(1 event\); 0 credits charged \(sandbox\)/);
    const idle = await w(['run'], {}, true);
    expect(idle.code).toBe(0);
    expect(plain(idle.stderr)).toMatch(/No watch of this key was due/);

    const csv = await w(['events', id, '-o', 'csv']);
    const [header, row] = csv.stdout.trim().split('\n');
    const help = (await w(['events', '--help'])).stdout;
    const listedCols = /Columns of -o tsv and -o csv[^\n]*\n([\s\S]*?)\n[A-Z]/.exec(help)![1]!.replace(/\s+/g, '');
    expect(header).toBe(listedCols);
    const cells = Object.fromEntries(header!.split(',').map((k, i) => [k, row!.split(',')[i]]));
    expect(cells).toMatchObject({ watch_id: id, rule: 'price_below', amount: '90', field: 'nightlyPrice', currency: 'USD' });
    expect(Number(cells.price_after)).toBeLessThan(90);
    const list = await w(['list', '-o', 'csv']);
    const listHelp = (await w(['list', '--help'])).stdout;
    expect(list.stdout.split('\n')[0]).toBe(/Columns of -o tsv and -o csv[^\n]*\n([\s\S]*?)\n[A-Z]/.exec(listHelp)![1]!.replace(/\s+/g, ''));

    const gone = await w(['rm', id, '-o', 'table'], {}, true);
    expect(gone.stdout).toBe(`Deleted watch ${id} (terminal): no more runs.\n`);
    expect((await w(['show', id])).code).toBe(3);
  });

  it("at 80 columns: watch list keeps NAME and the ids in CALL whole; watch run names each event's watch by its whole id (issue 36, item 17)", async () => {
    const fresh = freshSandbox();
    const cli = (args: string[], columns: number) => staysIn(['watch', ...args], fresh.env, { tty: true, columns });
    const ids: string[] = [];
    for (const args of [
      ['add', 'price', 'airbnb', '906295957123456789', ...STAY, '--below', '150', '--name', 'Flat by the river, March'],
      ['add', 'calendar', 'booking', 'pt/hotel-vista-lisboa', '--start-date', '2027-03-01', '--end-date', '2027-04-01', '--nights-available', '--name', 'Vista'],
      ['add', 'price', 'vrbo', '100', ...STAY, '--drop', '10', '--name', 'vrbo trigger'],
      ['add', 'search', 'watch', '--new-listings'],
    ]) {
      const r = await cli([...args, '--json'], 80);
      expect(r.code, r.stderr).toBe(0);
      ids.push(json<{ data: Watch }>(r).data.id);
    }
    for (const columns of [80, 200]) {
      const list = plain((await cli(['list'], columns)).stdout);
      const [header, ...rows] = list.trimEnd().split('\n');
      expect(header).toMatch(/^ID\s+NAME\s+CALL/);
      for (const line of [header!, ...rows]) expect(line.length, line).toBeLessThanOrEqual(columns);
      for (const id of ids) expect(list).toContain(id);
      for (const target of ['price airbnb 906295957123456789', 'calendar booking pt/hotel-vista-lisboa', 'price vrbo 100', 'search watch']) expect(list).toContain(target);
      expect(list).toMatch(/Vista/);
      if (columns === 200) expect(header).toMatch(/DATES\s+RULES\s+EVERY\s+STATUS\s+NEXT RUN/);
    }
    const run = await cli(['run'], 80);
    expect(run.code, run.stderr).toBe(10);
    const table = plain(run.stdout).trimEnd().split('\n');
    expect(table[0]).toMatch(/^WATCH\s+NAME\s+RULE\s+CHANGE$/);
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(80);
    // Each event with its watch's whole id; the two triggers' among them.
    const watches = table.slice(1).map((l) => l.split(/\s+/)[0]!);
    for (const w of watches) expect(ids).toContain(w);
    expect(watches).toEqual(expect.arrayContaining([ids[2], ids[3]]));
  });

  it('bad input: a typed error on stderr, nothing on stdout, the exit code of its class', async () => {
    const cases: [string[], number, RegExp][] = [
      [['add', 'price', 'airbnb', '1', ...STAY], 2, /Say what to watch for: --below AMOUNT/],
      [['add', 'calendar', 'airbnb', '1', '--start-date', '2027-03-01', '--end-date', '2027-03-09'], 2, /--nights-available, --min-nights-changed/],
      [['add', 'search', 'Lisbon'], 2, /--new-listings/],
      [['add', 'price', 'airbnb', '1', ...STAY, '--below', '100', '--every', 'soon'], 2, /--every must be a whole number of minutes/],
      [['add', 'price', 'airbnb', '1', ...STAY, '--below', '100', '--every', '5m'], 2, /--every must be at least 15[\s\S]*invalid_request\/invalid_parameter[\s\S]*param: --every/],
      [
        ['add', 'price', 'airbnb', '1', '--check-in', '2027-03-04', '--check-out', '2027-03-01', '--below', '100'],
        2,
        /--check-out must be after --check-in[\s\S]*invalid_date_range[\s\S]*param: --check-out/,
      ],
      [['add', 'price', 'airbnb', '1', ...STAY, '--below', '100', '--field', 'gross'], 2, /argument 'gross' is invalid/],
      [['add', 'calendar', 'booking', 'us/x', '--start-date', '2027-03-01', '--end-date', '2027-03-09', '--min-nights-changed'], 2, /booking states no minimum stay/],
      [['add', 'price', 'airbnb', '--below', '100'], 2, /LISTING_ID/],
      [['show', 'wat_nope'], 3, /not_found\/watch_not_found/],
      [['events', 'wat_nope'], 3, /watch_not_found/],
      [['rm', 'wat_nope'], 3, /watch_not_found/],
      [['list', '--cursor', 'zz'], 2, /invalid_cursor/],
    ];
    for (const [args, code, err] of cases) {
      const r = await w([...args, '--no-input']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(err);
    }
    // --json: the error envelope as one line on stderr, the API's own param.
    const j = await w(['add', 'price', 'airbnb', '1', ...STAY, '--below', '-3', '--json']);
    expect(j.code).toBe(2);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { type: 'invalid_request', code: 'invalid_parameter', param: 'rules[0].amount', creditsCharged: 0 } });
  });

  it('watch run delivers its watch.triggered webhooks before it exits, signed, one per event', async () => {
    const fresh = freshSandbox();
    const r = await startReceiver();
    try {
      const cli = (...args: string[]) => staysIn(args, fresh.env);
      const hook = await cli('webhooks', 'create', '--url', r.url, '--events', 'watch.triggered', '--json');
      expect(hook.code, hook.stderr).toBe(0);
      const secret = json<{ data: { signing_secret: string } }>(hook).data.signing_secret;
      expect((await cli('watch', 'add', 'search', 'watch', '--new-listings')).code).toBe(0);
      const run = await cli('watch', 'run');
      expect(run.code, run.stderr).toBe(10);
      const [event] = lines(run);
      // Delivered when the command returned: nothing waits here for a later attempt.
      expect(r.received.map((x) => x.body.event)).toEqual(['watch.triggered']);
      const got = r.received[0]!;
      expect(verifyWebhook(got.raw, String(got.headers['x-service-signature']), secret).ok).toBe(true);
      expect(got.body.data).toMatchObject({ watch_id: event!.watchId, watch_event_id: event!.id, rule: { type: 'new_listings' }, changes: event!.changes });
    } finally {
      await r.close();
    }
  });

  it('stays help exit-codes lists 10 for a run that triggered; stays help sandbox names the watch triggers', async () => {
    const r = await staysIn(['help', 'exit-codes'], box.env);
    expect(r.stdout).toMatch(/^\s+10 {2}stays watch run: a watch triggered/m);
    const sandbox = await staysIn(['help', 'sandbox'], box.env);
    expect(sandbox.stdout).toMatch(/a watch of listing 100 \(any platform\) or of a search of the location\nwatch raises every one of its rules on every run/);
  });
});

describe('stays watch run with a live key (simulated upstream, in-process)', () => {
  it('each run billed as the same call by hand (the charge in --json meta); a due run that sees no change adds only its charge to the store', async () => {
    const box = freshSandbox();
    const env = { ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' };
    const acct = json<{ id: string }>(await staysIn(['admin', 'account', 'create', '--plan', 'pro', '--credits', '5000', '--json'], box.env)).id;
    const live = json<{ key: string }>(await staysIn(['admin', 'key', 'create', '--account', acct, '--env', 'live', '--json'], box.env)).key;
    // STAYS_NOW: the simulated world seen at chosen instants.
    const cli = (at: string, ...args: string[]) => staysIn([...args, '--api-key', live], { ...env, STAYS_NOW: at });
    const balance = async () => json<{ data: { credits: { balance: number } } }>(await cli('2027-01-01T00:00:00Z', 'account', '--json')).data.credits.balance;
    const found = json<{ data: { platformListingId: string }[] }>(await cli('2027-01-01T00:00:00Z', 'search', 'Faro', '--platforms', 'airbnb', '--limit', '1', '--json')).data[0]!;
    const add = await cli('2027-01-01T00:00:00Z', 'watch', 'add', 'price', 'airbnb', found.platformListingId, ...STAY, '--drop', '50', '--every', '15m', '--json');
    expect(add.code, add.stderr).toBe(0);
    // The machine's local sandbox key (another account) has nothing due.
    const other = await staysIn(['watch', 'run'], { ...env, STAYS_NOW: '2027-01-01T00:00:10Z' });
    expect([other.code, other.stdout]).toEqual([0, '']);

    const b0 = await balance();
    const run = await cli('2027-01-01T00:00:10Z', 'watch', 'run', '--json');
    expect(run.code, run.stderr).toBe(0);
    const body = json<{ data: Event[]; meta: { creditsCharged: number; runs: unknown[] } }>(run);
    expect(body.data).toEqual([]);
    expect(body.meta.runs).toEqual([{ watchId: json<{ data: Watch }>(add).data.id, outcome: 'ok', creditsCharged: body.meta.creditsCharged, error: null, events: 0, missedRuns: 0 }]);
    expect(body.meta.creditsCharged).toBeGreaterThan(0);
    expect(b0 - (await balance())).toBe(body.meta.creditsCharged);

    // Nothing due: no charge, no row anywhere.
    const b1 = await balance();
    const counts = rowCounts(box.dataDir);
    // The live answers were recorded (issue 26, item 1): the run's quote among them.
    expect(counts.observations).toBeGreaterThan(0);
    expect((await cli('2027-01-01T00:00:20Z', 'watch', 'run')).code).toBe(0);
    expect(rowCounts(box.dataDir)).toEqual(counts);
    expect(await balance()).toBe(b1);

    // Due again, the same answer: its charge (one ledger row), no event, no new observation.
    const again = json<{ data: Event[]; meta: { creditsCharged: number } }>(await cli('2027-01-01T00:20:00Z', 'watch', 'run', '--json'));
    expect(again.data).toEqual([]);
    expect(again.meta.creditsCharged).toBeGreaterThan(0);
    const after = rowCounts(box.dataDir);
    expect(after.credit_ledger).toBe(counts.credit_ledger! + 1);
    for (const t of ['observations', 'watch_events', 'watches', 'jobs', 'webhook_outbox']) expect(after[t], t).toBe(counts[t]);
  });
});

describe('stays watch against a server (--base-url)', () => {
  let s: Served;
  let a: TestAccount;
  let box: Sandbox;
  beforeAll(async () => {
    s = await serveIn();
    a = await s.account({ rpm: 100_000 });
    box = freshSandbox();
  });
  afterAll(async () => {
    await s?.stop();
  });
  const remote = (...args: string[]) => staysIn(['watch', ...args, '--base-url', s.url, '--api-key', a.sandboxKey], box.env);

  it('add, list, show, events and rm over HTTP', async () => {
    const add = await remote('add', 'search', 'watch', '--new-listings', '--json');
    expect(add.code, add.stderr).toBe(0);
    const id = json<{ data: Watch }>(add).data.id;
    expect(json<{ data: Watch[] }>(await remote('list', '--json')).data.map((x) => x.id)).toEqual([id]);
    expect(json<{ data: Watch }>(await remote('show', id, '--json')).data).toMatchObject({ id, call: { type: 'search' } });
    const events = await remote('events', id, '--json');
    expect(events.code, events.stderr).toBe(0);
    expect(Array.isArray(json<{ data: Event[] }>(events).data)).toBe(true);
    // The live key of the account does not see the sandbox key's watch.
    const other = await staysIn(['watch', 'show', id, '--base-url', s.url, '--api-key', a.liveKey], box.env);
    expect(other.code).toBe(3);

    const rm = await remote('rm', id, '--json');
    expect(json<{ data: Watch }>(rm).data.status).toBe('deleted');
    expect((await remote('rm', id)).code).toBe(3);
  });

  it('run through the server (POST /v1/watches/run): the same events, lines and exit codes as in-process on the same store', async () => {
    // Watches that trigger on every run (the sandbox's listing 100 and location "watch"), made through the server.
    for (const args of [
      ['add', 'price', 'airbnb', '100', ...STAY, '--below', '150', '--drop', '10', '--name', 'flat 100'],
      ['add', 'search', 'watch', '--new-listings'],
    ]) {
      const r = await remote(...args);
      expect(r.code, r.stderr).toBe(0);
    }
    const viaServer = await remote('run');
    expect(viaServer.code, viaServer.stderr).toBe(10);
    // Nothing is due any more: the server ran them.
    const again = await remote('run');
    expect([again.code, again.stdout, again.stderr]).toEqual([0, '', '']);
    // In-process on the server's own store with the same key, when they are due again (their next hour).
    const tomorrow = new Date(Date.now() + 61 * 60_000).toISOString();
    const local = await staysIn(['watch', 'run'], { ...box.env, STAYS_DATA_DIR: s.dataDir, STAYS_API_KEY: a.sandboxKey, STAYS_NOW: tomorrow });
    expect(local.code, local.stderr).toBe(10);
    // The same lines but for each event's own id and instant.
    const same = (r: Run) => lines(r).map(({ id: _id, occurredAt: _at, ...e }) => e);
    expect(same(viaServer)).toEqual(same(local));
    expect(
      same(viaServer)
        .map((e) => [e.name, e.rule.type])
        .sort(),
    ).toEqual([
      [null, 'new_listings'],
      ['flat 100', 'price_below'],
      ['flat 100', 'price_drop'],
    ]);
    expect(viaServer.stderr).toBe(local.stderr);
  });
});
