// bin/stays keeps the bundle's compiled code between runs (start-up: bench/cli.mjs). The cache is
// an optimisation only: a missing, corrupt or stale one must never change what a command does.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PEER_SPEC_AVAILABLE, startPeerFake } from '../helpers/peer-fake.js';
import { BIN, tempDir } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, stays } from './helpers.js';

// Node >= 22.1 keeps the cache itself (module.enableCompileCache), in its own format.
const ownCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function';

let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  expect((await stays(['account', '--json'], box.env)).code).toBe(0); // provision outside the checks
});

const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : []);

describe.runIf(ownCache)('the compile cache of bin/stays (Node 20)', () => {
  it('is written after the first run of a command, then used as is, with the same output', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    const env = { ...box.env, NODE_COMPILE_CACHE: dir };
    const first = await stays(['search', 'Lisbon', '--limit', '3', '--json'], env);
    expect(first.code).toBe(0);
    const [file] = caches(dir);
    expect(file).toMatch(/^cli-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+-search\.v8$/);
    const written = readFileSync(join(dir, file!));
    const mtime = statSync(join(dir, file!)).mtimeMs;
    expect(written.length).toBeGreaterThan(10_000);

    const second = await stays(['search', 'Lisbon', '--limit', '3', '--json'], env);
    expect(second.code).toBe(0);
    expect(json(second).data).toEqual(json(first).data);
    // Accepted, so not rewritten.
    expect(statSync(join(dir, file!)).mtimeMs).toBe(mtime);
    expect(readFileSync(join(dir, file!)).equals(written)).toBe(true);

    // Another command has a cache of its own (its code paths differ).
    expect((await stays(['account', '--json'], env)).code).toBe(0);
    expect(caches(dir).sort()).toEqual([file, file!.replace(/-search\.v8$/, '-account.v8')].sort());
  });

  it('stays serve, which tunes V8 heap growth at run time, still reuses its cache on the next start', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    const serveOnce = async () => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', box.dataDir], {
        env: { ...process.env, ...box.env, NODE_COMPILE_CACHE: dir, STAYS_HEAP_GROWTH_PERCENT: '100' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      for (let i = 0; !/listening on/.test(err); i++) {
        if (i > 400 || child.exitCode !== null) throw new Error(`serve did not start: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    };
    await serveOnce();
    const [file] = caches(dir).filter((f) => f.endsWith('-serve.v8'));
    expect(file).toBeDefined();
    const mtime = statSync(join(dir, file!)).mtimeMs;
    await serveOnce();
    // Accepted (the flag hash matched), so not rewritten.
    expect(statSync(join(dir, file!)).mtimeMs).toBe(mtime);
  });

  it('a vendor file the bundle loads (conf, to write a setting) has a cache of its own', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    const env = { ...box.env, NODE_COMPILE_CACHE: dir };
    expect((await stays(['config', 'set', 'output', 'json'], env)).code).toBe(0);
    const files = caches(dir).sort();
    expect(files.map((f) => f.replace(/^cli-[0-9a-f]+-v[\d.]+-\w+-/, ''))).toEqual(['config.v8', 'vendor-conf.v8']);
    const before = files.map((f) => statSync(join(dir, f)).mtimeMs);
    expect((await stays(['config', 'set', 'output', 'table'], env)).code).toBe(0);
    expect(files.map((f) => statSync(join(dir, f)).mtimeMs)).toEqual(before);
  });

  it.runIf(PEER_SPEC_AVAILABLE)("a remote call runs the bundle without the service and loads no vendor file: its HTTP is Node's own", async () => {
    const peer = await startPeerFake();
    try {
      const dir = join(tempDir('stays-v8-'), 'cache');
      const env = { ...box.env, NODE_COMPILE_CACHE: dir, STAYS_BASE_URL: peer.url, STAYS_API_KEY: 'stay_live_peer' };
      const first = await stays(['account', '--json'], env);
      expect(first.code).toBe(0);
      expect(caches(dir).map((f) => f.replace(/^cli-[0-9a-f]+-v[\d.]+-\w+-/, ''))).toEqual(['remote-account.v8']);
      const second = await stays(['account', '--json'], env);
      expect(json(second).data).toEqual(json(first).data);
      // STAYS_BUNDLE=full: the whole bundle, the same answer.
      const full = await stays(['account', '--json'], { ...env, STAYS_BUNDLE: 'full' });
      expect(json(full).data).toEqual(json(first).data);
      expect(
        caches(dir)
          .map((f) => f.replace(/^cli-[0-9a-f]+-v[\d.]+-\w+-/, ''))
          .sort(),
      ).toEqual(['account.v8', 'remote-account.v8']);
    } finally {
      await peer.close();
    }
  });

  it('a command the remote bundle started that turns out to run in-process is handed to the full bundle before anything is sent', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    const env = { ...box.env, NODE_COMPILE_CACHE: dir };
    const usual = await stays(['search', 'Porto', '--limit', '2', '--json'], env);
    const handed = await stays(['search', 'Porto', '--limit', '2', '--json'], { ...env, STAYS_BUNDLE: 'remote' });
    expect(handed.code).toBe(0);
    expect(handed.stderr).toBe(usual.stderr);
    expect(json(handed).data).toEqual(json(usual).data);
    expect(
      caches(dir)
        .map((f) => f.replace(/^cli-[0-9a-f]+-v[\d.]+-\w+-/, ''))
        .sort(),
    ).toEqual(['remote-search.v8', 'search.v8']);
  });

  it('a corrupt cache is rejected by V8 and replaced; the command is unaffected', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    const env = { ...box.env, NODE_COMPILE_CACHE: dir };
    const clean = await stays(['search', 'Porto', '--limit', '2', '--json'], env);
    const [file] = caches(dir);
    const path = join(dir, file!);
    const garbage = Buffer.alloc(statSync(path).size, 0x5a);
    writeFileSync(path, garbage);
    const after = await stays(['search', 'Porto', '--limit', '2', '--json'], env);
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
    expect(json(after).data).toEqual(json(clean).data);
    expect(readFileSync(path).equals(garbage)).toBe(false);
  });

  it('caches of other builds or Node versions unused for an hour are removed when a new one is written', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    mkdirSync(dir, { recursive: true });
    const stale = `cli-0123456789abcdef-${process.version}-${process.arch}-search.v8`;
    const recent = `cli-fedcba9876543210-${process.version}-${process.arch}-search.v8`;
    writeFileSync(join(dir, stale), 'old build');
    const twoHoursAgo = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(join(dir, stale), twoHoursAgo, twoHoursAgo);
    writeFileSync(join(dir, recent), 'a build in use elsewhere');
    const build = /^\/\/ stays-build ([0-9a-f]+)/.exec(readFileSync(join(import.meta.dirname, '../../dist/cli.cjs'), 'utf8'))![1];
    const oldNode = `cli-${build}-v0.0.1-${process.arch}-search.v8`;
    writeFileSync(join(dir, oldNode), 'this build under an old Node');
    utimesSync(join(dir, oldNode), twoHoursAgo, twoHoursAgo);
    writeFileSync(join(dir, 'unrelated.txt'), 'kept');
    expect((await stays(['search', 'Faro', '--limit', '1', '--json'], { ...box.env, NODE_COMPILE_CACHE: dir })).code).toBe(0);
    expect(existsSync(join(dir, stale))).toBe(false);
    expect(existsSync(join(dir, oldNode))).toBe(false);
    expect(existsSync(join(dir, recent))).toBe(true);
    expect(existsSync(join(dir, 'unrelated.txt'))).toBe(true);
    expect(caches(dir)).toHaveLength(2);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes nothing', async () => {
    const dir = join(tempDir('stays-v8-'), 'cache');
    const r = await stays(['search', 'Lisbon', '--limit', '1', '--json'], { ...box.env, NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });

  it('an unwritable cache directory only costs speed', async () => {
    const parent = tempDir('stays-v8-');
    const notADir = join(parent, 'file');
    writeFileSync(notADir, 'x');
    const r = await stays(['search', 'Lisbon', '--limit', '1', '--json'], { ...box.env, NODE_COMPILE_CACHE: join(notADir, 'cache') });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect((json(r).data as unknown[]).length).toBeGreaterThan(0);
  });
});
