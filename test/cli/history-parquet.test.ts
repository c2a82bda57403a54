// `stays history export -o parquet --out FILE` (issue 38, item 8) as a real child process over the
// build: live calls on the simulated upstream record observations in a temp SQLite store, and the
// Parquet file, read back with hyparquet, holds exactly what -o jsonl exports for the same --since
// (every row, every column, typed: strings, UTC millisecond timestamps, 64-bit integers). Bad input
// is a typed usage error (exit 2) with no file; a page that fails mid-export (a loopback stand-in
// for the server), or Ctrl-C while one is awaited, fails the command and leaves no file, not a
// half one, and no temp file either.
// When DuckDB or pandas is installed, they read the file as it is (skipped otherwise).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountIn } from '../helpers/seed.js';
import { BIN, tempDir } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, stays } from './helpers.js';

type Obs = { platform: string; listingId: string; kind: string; key: string; currency: string | null; value: unknown; source: string; firstSeen: string; lastSeen: string; timesSeen: number };

/** What a Parquet row of an observation is, read back: the csv's columns, typed. */
const expected = (o: Obs) => ({
  platform: o.platform,
  listing_id: o.listingId,
  kind: o.kind,
  key: o.key,
  currency: o.currency,
  value: o.value === null || o.value === undefined ? null : JSON.stringify(o.value),
  source: o.source,
  first_seen: new Date(o.firstSeen),
  last_seen: new Date(o.lastSeen),
  times_seen: BigInt(o.timesSeen),
});
const read = async (path: string) => parquetReadObjects({ file: await asyncBufferFromFile(path) });
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Obs);

let box: Sandbox;
let env: NodeJS.ProcessEnv;
let work: string;

beforeAll(async () => {
  box = freshSandbox();
  mkdirSync(box.dataDir, { recursive: true });
  const a = await accountIn(box.dataDir, { credits: 100_000, rpm: 100_000 });
  env = { ...box.env, STAYS_API_KEY: a.liveKey, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' };
  // Live calls: a search (rows without a currency) and a quote of one of its listings (a currency).
  const found = await stays(['search', 'Faro', '--platforms', 'airbnb,vrbo', '--json'], env, { timeoutMs: 60_000 });
  expect(found.code, found.stderr).toBe(0);
  const id = json<{ data: { platform: string; platformListingId: string }[] }>(found).data.find((p) => p.platform === 'airbnb')!.platformListingId;
  const quote = await stays(['price', 'airbnb', id, '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--json'], env, { timeoutMs: 60_000 });
  expect(quote.code, quote.stderr).toBe(0);
  work = tempDir('stays-parquet-');
}, 120_000);

describe('stays history export -o parquet (child process, SQLite store)', () => {
  it('the file holds what -o jsonl exports: every row, every column, typed; written in pages of 7', async () => {
    const jsonl = await stays(['history', 'export', '--since', '2026-01-01', '--limit', '7'], env);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const obs = lines(jsonl.stdout);
    expect(obs.length).toBeGreaterThan(14);
    expect(obs.some((o) => o.currency !== null)).toBe(true);
    expect(obs.some((o) => o.currency === null)).toBe(true);

    const file = join(work, 'observations.parquet');
    const r = await stays(['history', 'export', '--since', '2026-01-01', '--limit', '7', '-o', 'parquet', '--out', file], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(await read(file)).toEqual(obs.map(expected));
    // Nothing else beside it: the temp directory went once the file was renamed into place.
    expect(readdirSync(work)).toEqual(['observations.parquet']);

    const meta = await parquetMetadataAsync(await asyncBufferFromFile(file));
    expect(Number(meta.num_rows)).toBe(obs.length);
    const types = Object.fromEntries(meta.schema.slice(1).map((s) => [s.name, [s.type, s.logical_type?.type ?? s.converted_type ?? null, s.repetition_type]]));
    expect(types).toEqual({
      platform: ['BYTE_ARRAY', 'STRING', 'REQUIRED'],
      listing_id: ['BYTE_ARRAY', 'STRING', 'REQUIRED'],
      kind: ['BYTE_ARRAY', 'STRING', 'REQUIRED'],
      key: ['BYTE_ARRAY', 'STRING', 'REQUIRED'],
      currency: ['BYTE_ARRAY', 'STRING', 'OPTIONAL'],
      value: ['BYTE_ARRAY', 'STRING', 'OPTIONAL'],
      source: ['BYTE_ARRAY', 'STRING', 'REQUIRED'],
      first_seen: ['INT64', 'TIMESTAMP', 'REQUIRED'],
      last_seen: ['INT64', 'TIMESTAMP', 'REQUIRED'],
      times_seen: ['INT64', null, 'REQUIRED'],
    });
    expect(meta.schema.find((s) => s.name === 'first_seen')?.logical_type).toEqual({ type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' });

    // --out - streams the same bytes to a pipe; an export of nothing is a file of no rows.
    const piped = await stays(['history', 'export', '--since', '2026-01-01', '--limit', '7', '-o', 'parquet', '--out', '-'], env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.startsWith('PAR1')).toBe(true);
    const none = join(work, 'none.parquet');
    const empty = await stays(['history', 'export', '--since', '2099-01-01', '-o', 'parquet', '--out', none], env);
    expect(empty.code, empty.stderr).toBe(0);
    expect(await read(none)).toEqual([]);
  });

  it('bad input: a typed usage error (exit 2), nothing on stdout, no file', async () => {
    const dir = tempDir('stays-parquet-bad-');
    const run = (args: string[]) => stays(['history', 'export', '--since', '2026-01-01', ...args], env);
    const noOut = await run(['-o', 'parquet']);
    expect(noOut.code).toBe(2);
    expect(noOut.stdout).toBe('');
    expect(noOut.stderr).toMatch(/--out FILE/);
    // Off -o parquet, --out is refused rather than ignored; -o jsonl's errors are JSON envelopes.
    const textOut = await run(['-o', 'jsonl', '--out', join(dir, 'x.jsonl')]);
    expect(textOut.code).toBe(2);
    expect(JSON.parse(textOut.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { type: 'invalid_request', code: 'usage', param: 'out' } });
    writeFileSync(join(dir, 'plain'), '');
    for (const [out, why] of [
      [join(dir, 'missing', 'x.parquet'), /cannot write in .*missing \(no such directory\)/],
      [join(dir, 'plain', 'x.parquet'), /cannot write in .*plain/],
      [dir, /is a directory/],
    ] as const) {
      const r = await run(['-o', 'parquet', '--out', out]);
      expect(r.code, out).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(why);
    }
    expect(readdirSync(dir)).toEqual(['plain']);
  });

  it('a page that fails mid-export, or Ctrl-C, fails the command (typed) and leaves no file and no temp file', async () => {
    const [first] = lines((await stays(['history', 'export', '--since', '2026-01-01', '--limit', '3'], env)).stdout);
    // A stand-in server: the first page answers, the next is refused (or holds a broken row).
    let held = false;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_FAKE0000000000000000000001' });
        res.end(JSON.stringify(body));
      };
      const meta = (nextCursor: string | null) => ({ requestId: 'req_FAKE0000000000000000000001', creditsCharged: 0, pagination: { nextCursor, hasMore: nextCursor !== null } });
      const cursor = url.searchParams.get('cursor');
      if (url.searchParams.get('since') === '2026-01-03') {
        // The export Ctrl-C stops: the next page never comes.
        if (cursor === null) return send(200, { data: [first], meta: meta('held') });
        held = true;
        return;
      }
      if (cursor === null) return send(200, { data: [first, first], meta: meta(url.searchParams.get('since') === '2026-01-02' ? 'broken' : 'refused') });
      if (cursor === 'broken') return send(200, { data: [{ ...first, lastSeen: null }], meta: meta(null) });
      send(400, { error: { type: 'invalid_request', code: 'invalid_cursor', message: 'The cursor is not valid.', param: 'cursor', retryable: false } });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const dir = tempDir('stays-parquet-fail-');
      const remote = { ...box.env, STAYS_BASE_URL: base, STAYS_API_KEY: 'stay_live_FAKEFAKEFAKEFAKEFAKEFAKE' };
      const refused = await stays(['history', 'export', '--since', '2026-01-01', '-o', 'parquet', '--out', join(dir, 'a.parquet')], remote);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/invalid_cursor/);
      const broken = await stays(['history', 'export', '--since', '2026-01-02', '-o', 'parquet', '--out', join(dir, 'b.parquet')], remote);
      expect(broken.code, broken.stderr).toBe(1);
      expect(broken.stderr).toMatch(/without last_seen/);
      expect(readdirSync(dir)).toEqual([]);

      // Ctrl-C while a page is awaited: exit 130, and the temp directory goes with the process.
      const child = spawn(process.execPath, [BIN, 'history', 'export', '--since', '2026-01-03', '-o', 'parquet', '--out', join(dir, 'c.parquet')], {
        env: { ...process.env, ...remote },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      for (let i = 0; !held; i++) {
        if (i > 400) throw new Error('the export did not ask for its second page');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(readdirSync(dir)).toHaveLength(1);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  const duckdb = has('duckdb', ['-version']);
  const pandas = has('python3', ['-c', 'import pandas, pyarrow']);

  it.skipIf(!duckdb && !pandas)('DuckDB and pandas read the file as it is, with the same rows and types (when installed)', async () => {
    const file = join(work, 'readers.parquet');
    expect((await stays(['history', 'export', '--since', '2026-01-01', '-o', 'parquet', '--out', file], env)).code).toBe(0);
    const obs = lines((await stays(['history', 'export', '--since', '2026-01-01'], env)).stdout);
    if (duckdb) {
      const r = spawnSync('duckdb', ['-json', '-c', `SELECT count(*) AS n, count(DISTINCT typeof(first_seen)) AS t, min(typeof(first_seen)) AS ts, min(typeof(times_seen)) AS ti FROM '${file}'`], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ n: obs.length, t: 1, ts: 'TIMESTAMP WITH TIME ZONE', ti: 'BIGINT' }]);
    }
    if (pandas) {
      const py = `import pandas as pd, json, sys
df = pd.read_parquet(sys.argv[1])
print(json.dumps({"n": len(df), "first": str(df["first_seen"].dtype), "times": str(df["times_seen"].dtype), "listing": df["listing_id"].tolist()}))`;
      const r = spawnSync('python3', ['-c', py, file], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const got = JSON.parse(r.stdout) as { n: number; first: string; times: string; listing: string[] };
      expect(got).toMatchObject({ n: obs.length, times: 'int64', listing: obs.map((o) => o.listingId) });
      // pandas 2 keeps the file's milliseconds, pandas 1 makes them nanoseconds: UTC either way.
      expect(got.first).toMatch(/^datetime64\[(ms|ns), UTC\]$/);
    }
    expect(existsSync(file)).toBe(true);
  });
});
