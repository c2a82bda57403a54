// Errors in CLI words, the CLI run in this process (staysIn): the API's parameter names become the
// command's flags and arguments in human output (the --json envelope stays the API's own), an
// unquoted multi-word location says to quote it, and remote mode explains a refused connection
// with the fix. cli-errors.test.ts (e2e) holds `stays serve` on a taken port, a real server process.
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { day } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, staysIn } from './helpers.js';

let box: Sandbox;
beforeAll(() => {
  box = freshSandbox();
});

const errorLine = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('error: ')) ?? '';

describe('API errors name CLI flags (in-process)', () => {
  it('--check-out must be after --check-in, param: --check-out', async () => {
    const r = await staysIn(['search', 'Lisbon', '--check-in', day(10), '--check-out', day(8)], box.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r.stderr)).toBe('error: --check-out must be after --check-in.');
    expect(r.stderr).toMatch(/^ {2}param: --check-out$/m);
    expect(r.stderr).toMatch(/^ {2}invalid_request\/invalid_date_range$/m);
  });

  it('--children is 1 but --child-ages has 0 values', async () => {
    const r = await staysIn(['search', 'Lisbon', '--children', '1'], box.env);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe('error: --children is 1 but --child-ages has 0 values.');
    expect(r.stderr).toMatch(/^ {2}param: --child-ages$/m);
  });

  it('price: a past --check-in, and positional arguments by their usage names', async () => {
    const past = await staysIn(['price', 'airbnb', '12345678', '--check-in', '2020-01-01', '--check-out', '2020-01-03'], box.env);
    expect(past.code).toBe(2);
    expect(errorLine(past.stderr)).toMatch(/^error: --check-in 2020-01-01 is in the past \(today is \d{4}-\d\d-\d\d UTC\)\.$/);
    const id = await staysIn(['price', 'airbnb', 'stays_vrbo_4886746', '--check-in', day(10), '--check-out', day(12)], box.env);
    expect(id.code).toBe(2);
    expect(errorLine(id.stderr)).toMatch(/^error: LISTING_ID "stays_vrbo_4886746" is a vrbo id but PLATFORM is airbnb\.$/);
    expect(id.stderr).toMatch(/^ {2}param: LISTING_ID$/m);
  });

  it('availability: --end-date must be after --start-date', async () => {
    const r = await staysIn(['availability', 'vrbo', '4886746', '--start-date', day(10), '--end-date', day(9)], box.env);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe('error: --end-date must be after --start-date.');
  });

  it('prose keeps its words: only parameter names are rewritten', async () => {
    const r = await staysIn(['search', 'Lisbon', '--currency', 'XYZ'], box.env);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toMatch(/^error: --currency must be an ISO-4217 currency code/);
  });

  it('--json keeps the API envelope exactly: API parameter names', async () => {
    const r = await staysIn(['search', 'Lisbon', '--check-in', day(10), '--check-out', day(8), '--json'], box.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const env = JSON.parse(r.stderr) as { error: Record<string, unknown> };
    expect(env.error).toMatchObject({ type: 'invalid_request', code: 'invalid_date_range', message: 'checkOut must be after checkIn.', param: 'checkOut' });
    expect(env.error.requestId).toMatch(/^req_/);
  });

  it('stays api speaks the API: its errors keep the parameter names', async () => {
    const r = await staysIn(['api', 'search', '-f', 'location=Lisbon', '-f', `checkIn=${day(10)}`, '-f', `checkOut=${day(8)}`], box.env);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe('error: checkOut must be after checkIn.');
    expect(r.stderr).toMatch(/^ {2}param: checkOut$/m);
  });
});

describe('an unquoted multi-word location', () => {
  it('says to quote it (exit 2, nothing on stdout)', async () => {
    const r = await staysIn(['search', 'New', 'York', '--limit', '1'], box.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: Quote a multi-word location: stays search "New York"');
    expect(r.stderr).not.toMatch(/too many arguments/);
  });

  it('in the --json envelope too', async () => {
    const r = await staysIn(['search', 'Rio', 'de', 'Janeiro', '--json'], box.env);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({ error: { type: 'invalid_request', code: 'usage', message: 'Quote a multi-word location: stays search "Rio de Janeiro"' } });
  });

  it('quoted, it searches', async () => {
    const r = await staysIn(['search', 'New York', '--limit', '1', '--platforms', 'airbnb', '-o', 'jsonl'], box.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!).location.city).toBe('New York');
  });
});

describe('serve and remote mode explain the socket', () => {
  it('a refused connection: nothing is listening, start it or check the base URL', async () => {
    // A port that was free a moment ago: bound by us, then closed, so nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const base = `http://127.0.0.1:${port}`;
    const r = await staysIn(['account', '--base-url', base, '--api-key', 'stay_test_x'], box.env);
    expect(r.code).toBe(1);
    expect(errorLine(r.stderr)).toBe(`error: Could not connect to ${base}: nothing is listening; start it with stays serve, or check --base-url / STAYS_BASE_URL.`);
    const viaEnv = await staysIn(['account', '--json'], { ...box.env, STAYS_BASE_URL: base, STAYS_API_KEY: 'stay_test_x' });
    expect(viaEnv.code).toBe(1);
    expect(JSON.parse(viaEnv.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { type: 'connection_error', message: expect.stringContaining('nothing is listening') } });
  });

  it('serve --help documents STAYS_UPSTREAM and the STAYS_SIM_* variables', async () => {
    const r = await staysIn(['serve', '--help'], box.env);
    expect(r.code).toBe(0);
    for (const v of ['STAYS_UPSTREAM', 'STAYS_SIM_LATENCY_MS', 'STAYS_SIM_FAIL', 'STAYS_DATA_DIR']) expect(r.stdout).toContain(v);
    expect(r.stdout).toMatch(/STAYS_UPSTREAM\s+where live keys get data: none \(default/);
  });
});
