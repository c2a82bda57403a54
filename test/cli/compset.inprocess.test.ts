// `stays compset create|list|show|rm` (issue 27, item 2), the CLI run in this process (staysIn)
// in-process on a fresh machine's SQLite store with its sandbox key, and against a real
// `stays serve` on loopback (serveIn) with --base-url: the body built from flags (--radius 2km is
// 2000 metres, the anchor placed where the sandbox world puts the listing), a table for people and
// JSON for scripts, a comp set found by id or by name, typed errors with nothing on stdout, and the
// same comp set (id and time aside) whether the service runs in-process or remotely.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

type CompSet = {
  id: string;
  name: string;
  anchor: { platform: string; listingId: string; lat: number; lng: number };
  radiusMeters: number;
  bedrooms: number | null;
  platforms: string[] | null;
  createdAt: string;
};
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const CREATE = ['create', 'Alfama 2BR', '--near', 'airbnb:100', '--radius', '2km', '--bedrooms', '2'];

describe('stays compset, in-process on the local store', () => {
  let box: Sandbox;
  const c = (args: string[], tty = false) => staysIn(['compset', ...args], box.env, { tty, columns: 120 });
  beforeAll(() => {
    box = freshSandbox();
  });

  it('create saves the flags (2km is 2000 m) around where the sandbox places the anchor; list, show by id or name; rm by name', async () => {
    const made = await c([...CREATE, '--platforms', 'airbnb,vrbo', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const set = json<{ data: CompSet; meta: { creditsCharged: number } }>(made);
    expect(set.meta.creditsCharged).toBe(0);
    expect(set.data).toMatchObject({ name: 'Alfama 2BR', anchor: { platform: 'airbnb', listingId: '100' }, radiusMeters: 2000, bedrooms: 2, platforms: ['airbnb', 'vrbo'] });
    expect(set.data.id).toMatch(/^cs_/);
    // The anchor is where the listing itself says it is (the sandbox listing, free).
    const listing = await staysIn(['listing', 'airbnb', '100', '--json'], box.env);
    expect(listing.code, listing.stderr).toBe(0);
    const where = json<{ data: { location: { lat: number; lng: number } } }>(listing).data.location;
    expect([set.data.anchor.lat, set.data.anchor.lng]).toEqual([where.lat, where.lng]);

    const table = await c(['list'], true);
    expect(table.code, table.stderr).toBe(0);
    const text = plain(table.stdout);
    expect(text).toMatch(/ID\s+NAME\s+NEAR\s+RADIUS\s+BEDROOMS\s+PLATFORMS/);
    expect(text).toContain(set.data.id);
    expect(text).toMatch(/Alfama 2BR\s+airbnb:100\s+2 km\s+2\s+airbnb,vrbo/);

    type Shown = CompSet & { memberCount: number; members: { platform: string; listingId: string; distanceMeters: number; bedrooms: number | null }[] };
    const byName = json<{ data: Shown }>(await c(['show', 'Alfama 2BR', '--json'])).data;
    const byId = json<{ data: Shown }>(await c(['show', set.data.id, '--json'])).data;
    expect(byName).toEqual(byId);
    expect(byName).toMatchObject(set.data);
    // Its members now (issue 36, item 11): within 2 km of the anchor, 2 bedrooms, on its platforms, nearest first.
    expect(byName.memberCount).toBeGreaterThan(0);
    expect(byName.members).toHaveLength(Math.min(byName.memberCount, 200));
    for (const m of byName.members) expect(m).toMatchObject({ bedrooms: 2, platform: expect.stringMatching(/^(airbnb|vrbo)$/) });
    expect(byName.members.every((m, i, all) => m.distanceMeters <= 2000 && (i === 0 || all[i - 1]!.distanceMeters <= m.distanceMeters))).toBe(true);
    const one = await c(['show', 'Alfama 2BR'], true);
    expect(plain(one.stdout)).toMatch(/RADIUS\s+2 km/);
    const first = byName.members[0]!;
    expect(plain(one.stdout)).toMatch(new RegExp(`MEMBERS\\s+${byName.memberCount} listings?; the nearest: ${first.platform}:${first.listingId} \\(${first.distanceMeters} m\\)`));

    const csv = await c(['list', '-o', 'csv']);
    expect(csv.stdout).toBe(
      `id,name,anchor_platform,anchor_listing_id,anchor_lat,anchor_lng,radius_meters,bedrooms,platforms,created_at\n${set.data.id},Alfama 2BR,airbnb,100,${where.lat},${where.lng},2000,2,"airbnb,vrbo",${set.data.createdAt}\n`,
    );

    const rm = await c(['rm', 'Alfama 2BR'], true);
    expect(rm.code, rm.stderr).toBe(0);
    expect(plain(rm.stdout)).toBe(`Deleted comp set ${set.data.id} (Alfama 2BR).\n`);
    expect(json<{ data: CompSet[] }>(await c(['list', '--json'])).data).toEqual([]);
    const gone = await c(['show', set.data.id]);
    expect(gone.code).toBe(3);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain('compset_not_found');
  });

  it('bad input is a typed error with nothing on stdout: a radius without its unit (nothing sent), a name taken, an anchor that names no listing', async () => {
    const unit = await c(['create', 'x', '--near', 'airbnb:100', '--radius', '2']);
    expect(unit.code).toBe(2);
    expect(unit.stdout).toBe('');
    expect(unit.stderr).toMatch(/--radius must be a distance with its unit/);
    expect(json<{ data: CompSet[] }>(await c(['list', '--json'])).data).toEqual([]);

    expect((await c(['create', 'twice', '--near', 'airbnb:100', '--radius', '500m'])).code).toBe(0);
    const twice = await c(['create', 'twice', '--near', 'airbnb:100', '--radius', '500m']);
    expect(twice.code).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toContain('compset_name_taken');

    const nowhere = await c(['create', 'nowhere', '--near', 'nothing-here', '--radius', '1km']);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stdout).toBe('');
    expect(nowhere.stderr).toMatch(/near/);
    expect(json<{ data: CompSet[] }>(await c(['list', '--json'])).data.map((x) => x.name)).toEqual(['twice']);
  });
});

describe('stays compset against a server (--base-url)', () => {
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

  it('the same comp set over HTTP as in-process (id and time aside); a live key does not see a sandbox key’s', async () => {
    const remote = (...args: string[]) => staysIn(['compset', ...args, '--base-url', s.url, '--api-key', a.sandboxKey], box.env);
    const there = await remote(...CREATE, '--json');
    expect(there.code, there.stderr).toBe(0);
    const here = await staysIn(['compset', ...CREATE, '--json'], freshSandbox().env);
    expect(here.code, here.stderr).toBe(0);
    const strip = ({ id: _i, createdAt: _c, ...rest }: CompSet) => rest;
    const remoteSet = json<{ data: CompSet }>(there).data;
    expect(strip(remoteSet)).toEqual(strip(json<{ data: CompSet }>(here).data));
    expect(json<{ data: CompSet[] }>(await remote('list', '--json')).data.map((x) => x.id)).toEqual([remoteSet.id]);
    const live = await staysIn(['compset', 'show', remoteSet.id, '--base-url', s.url, '--api-key', a.liveKey], box.env);
    expect(live.code).toBe(3);
    expect((await remote('rm', remoteSet.id)).code).toBe(0);
    expect((await remote('rm', remoteSet.id)).code).toBe(3);
  });
});
