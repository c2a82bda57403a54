// `stays collect create|list|show|pause|resume|rm` (issue 38, items 1 and 7), the CLI run in this
// process (staysIn) in-process on a fresh machine's SQLite store with its sandbox key, and against
// a real `stays serve` on loopback (serveIn) with --base-url: the body built from flags, a table for
// people and JSON or CSV for scripts, a collection found by id or by name, paused and resumed, typed
// errors with nothing on stdout, and the same collection whether the service runs in-process or
// remotely.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

type Collection = { id: string; name: string; location: string | null; bbox: number[] | null; status: string; maxCreditsPerDay: number; cadence: string; createdAt: string; updatedAt: string };
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const CREATE = ['create', 'alfama', '--bbox', '-9.14,38.70,-9.12,38.72', '--platforms', 'airbnb,vrbo', '--cadence', 'weekly', '--max-credits-per-day', '800'];

describe('stays collect, in-process on the local store', () => {
  let box: Sandbox;
  const c = (args: string[], tty = false) => staysIn(['collect', ...args], box.env, { tty, columns: 120 });
  beforeAll(() => {
    box = freshSandbox();
  });

  it('create from flags; list as a table and CSV; show by id or name; pause and resume; rm by name', async () => {
    const made = await c([...CREATE, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const col = json<{ data: Collection; meta: { creditsCharged: number } }>(made);
    expect(col.meta.creditsCharged).toBe(0);
    expect(col.data).toMatchObject({ name: 'alfama', bbox: [-9.14, 38.7, -9.12, 38.72], cadence: 'weekly', maxCreditsPerDay: 800, status: 'active' });
    expect((await c(['create', 'lisbon', '--location', 'Lisbon', '--max-credits-per-day', '5000', '--paused'])).code).toBe(0);

    const table = await c(['list'], true);
    expect(table.code, table.stderr).toBe(0);
    const text = plain(table.stdout);
    expect(text).toMatch(/ID\s+NAME\s+AREA\s+STATUS\s+BUDGET\s+FOUND\s+PLATFORMS/);
    expect(text).toMatch(/lisbon\s+Lisbon\s+paused\s+5,000\/day\s+0/);
    expect(text).toMatch(/alfama\s+box -9\.14,38\.7,-9\.12,38\.72\s+active\s+800\/day\s+0\s+airbnb,vrbo/);
    const csv = await c(['list', '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe(
      'id,name,location,bbox,comp_set,platforms,status,horizon_nights,cadence,rates,max_credits_per_day,listings_discovered,listings_tracked,credits_spent_today,created_at',
    );

    const byName = json<{ data: Collection }>(await c(['show', 'alfama', '--json'])).data;
    const byId = json<{ data: Collection }>(await c(['show', col.data.id, '--json'])).data;
    expect(byName).toEqual(byId);
    const one = plain((await c(['show', 'alfama'], true)).stdout);
    expect(one).toMatch(/CADENCE\s+weekly/);
    expect(one).toMatch(/RATES\s+auto \(airbnb sampled, vrbo sampled\)/);
    expect(one).toMatch(/PROGRESS\s+discovery: 0 found, 0 tracked, no complete pass yet/);

    const paused = await c(['pause', 'alfama', '--json']);
    expect(json<{ data: Collection }>(paused).data.status).toBe('paused');
    const resumed = await c(['resume', 'alfama'], true);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('Resumed alfama.');
    expect(json<{ data: Collection }>(await c(['show', 'alfama', '--json'])).data.status).toBe('active');

    const rm = await c(['rm', 'alfama'], true);
    expect(rm.code, rm.stderr).toBe(0);
    expect(plain(rm.stdout)).toBe(`Deleted collection ${col.data.id} (alfama).\n`);
    expect(json<{ data: Collection[] }>(await c(['list', '--json'])).data.map((x) => x.name)).toEqual(['lisbon']);
    const gone = await c(['show', col.data.id]);
    expect(gone.code).toBe(3);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain('collection_not_found');
  });

  it('--dry-run prints the estimate and creates nothing', async () => {
    const dry = await c(['create', 'porto', '--location', 'Porto', '--max-credits-per-day', '300', '--dry-run'], true);
    expect(dry.code, dry.stderr).toBe(0);
    expect(plain(dry.stdout)).toMatch(/ESTIMATE\s+[\d,]+ credits\/day with discovery \([\d,]+ a pass\); [\d,]+ credits\/day \([\d,]+ a pass\) tracking [\d,]+ of [\d,]+ listings/);
    expect(dry.stderr).toContain('A dry run: nothing was created.');
    expect(json<{ data: Collection[] }>(await c(['list', '--json'])).data.map((x) => x.name)).not.toContain('porto');
  });

  it('bad input is a typed error with nothing on stdout (exit 2): no area, two areas, a budget of 0, a name taken', async () => {
    for (const args of [
      ['create', 'x', '--max-credits-per-day', '5'],
      ['create', 'x', '--location', 'Porto', '--bbox', '1,2,3,4', '--max-credits-per-day', '5'],
      ['create', 'x', '--location', 'Porto', '--max-credits-per-day', '0'],
      ['create', 'lisbon', '--location', 'Porto', '--max-credits-per-day', '5'],
      ['create', 'x', '--location', 'Porto', '--max-credits-per-day', '5', '--cadence', 'hourly'],
    ]) {
      const r = await c(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/missing_parameter|mutually_exclusive_params|invalid_parameter|collection_name_taken/);
    }
    expect(json<{ data: Collection[] }>(await c(['list', '--json'])).data.map((x) => x.name)).toEqual(['lisbon']);
  });
});

describe('stays collect against a server (--base-url)', () => {
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

  it('the same collection over HTTP as in-process (id and times aside); a live key does not see a sandbox key’s', async () => {
    const remote = (...args: string[]) => staysIn(['collect', ...args, '--base-url', s.url, '--api-key', a.sandboxKey], box.env);
    const there = await remote(...CREATE, '--json');
    expect(there.code, there.stderr).toBe(0);
    const here = await staysIn(['collect', ...CREATE, '--json'], freshSandbox().env);
    expect(here.code, here.stderr).toBe(0);
    const strip = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Collection) => rest;
    const remoteCol = json<{ data: Collection }>(there).data;
    expect(strip(remoteCol)).toEqual(strip(json<{ data: Collection }>(here).data));
    expect(json<{ data: Collection }>(await remote('pause', remoteCol.id, '--json')).data.status).toBe('paused');
    const live = await staysIn(['collect', 'show', remoteCol.id, '--base-url', s.url, '--api-key', a.liveKey], box.env);
    expect(live.code).toBe(3);
    expect((await remote('rm', remoteCol.id)).code).toBe(0);
    expect((await remote('rm', remoteCol.id)).code).toBe(3);
  });
});
