// `stays match` and `stays compare --matched` (issue 27, item 4) through the real CLI in this
// process (staysIn): in-process on the local store with the local sandbox key, and remote through
// `stays serve` (serveIn) on the same data directory with the same key: the same answers; pins and
// rejections kept per account; exit codes for bad input and for no match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxTruth } from '../../src/sources/sandbox/truth.js';
import type { TestAccount } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

const ANCHOR = '62959578';
const ref = (p: { platform: string; id?: string; listingId?: string }) => `${p.platform}:${p.listingId ?? p.id}`;

describe('stays match: in-process and remote alike', () => {
  let s: Served;
  let a: TestAccount;
  beforeAll(async () => {
    s = await serveIn();
    a = await s.account({ credits: 1000 });
  });
  afterAll(async () => {
    await s?.stop();
  });
  const local = () => ({ ...freshSandbox().env, STAYS_DATA_DIR: s.dataDir, STAYS_API_KEY: a.sandboxKey });
  const remote = () => ({ ...freshSandbox().env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey });

  it('the same matches in-process and remote; a pin made remotely shows in-process; unpin', async () => {
    const inProc = await staysIn(['match', `airbnb:${ANCHOR}`, '--json'], local());
    expect(inProc.code, inProc.stderr).toBe(0);
    const viaServer = await staysIn(['match', `https://www.airbnb.com/rooms/${ANCHOR}`, '--json'], remote());
    expect(viaServer.code, viaServer.stderr).toBe(0);
    const data = json<{ data: { matches: { platform: string; listingId: string }[] } }>(inProc).data;
    expect(json(viaServer).data).toEqual(data);
    expect(data.matches.map(ref).sort()).toEqual(sandboxTruth.twins('airbnb', ANCHOR).map(ref).sort());

    const neighbour = ref(sandboxTruth.around('airbnb', ANCHOR).find((m) => m.role === 'neighbour')!);
    const pin = await staysIn(['match', 'pin', `airbnb:${ANCHOR}`, neighbour, '--json'], remote());
    expect(pin.code, pin.stderr).toBe(0);
    expect(json(pin).data).toMatchObject({ decision: 'pinned' });
    const after = json<{ data: { matches: { platform: string; listingId: string; decision: string | null; score: number }[] } }>(await staysIn(['match', `airbnb:${ANCHOR}`, '--json'], local())).data;
    expect(after.matches[0]).toMatchObject({ decision: 'pinned', score: 1 });
    expect(ref(after.matches[0]!)).toBe(neighbour);
    // The table: a row per candidate (matches, then the best non-match), the summary on stderr.
    const table = await staysIn(['match', `airbnb:${ANCHOR}`, '-o', 'table'], local());
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/WHY/);
    expect(table.stderr).toMatch(/Method match\/1 \(threshold 0\.8\) scored \d+ candidate listings/);
    expect((await staysIn(['match', 'unpin', `airbnb:${ANCHOR}`, neighbour], local())).code).toBe(0);
    const gone = await staysIn(['match', 'unpin', `airbnb:${ANCHOR}`, neighbour], remote());
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/match_decision_not_found/);
  });

  it('compare --matched: the offers of the listing and its matches, in-process and remote alike', async () => {
    const args = ['compare', '--listing', `airbnb:${ANCHOR}`, '--matched', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--json'];
    const inProc = await staysIn(args, local());
    expect(inProc.code, inProc.stderr).toBe(0);
    const offers = json<{ data: { offers: { platform: string; listingId: string }[] } }>(inProc).data.offers;
    expect(offers.map((o) => `${o.platform}:${o.listingId}`).sort()).toEqual([`airbnb:${ANCHOR}`, ...sandboxTruth.twins('airbnb', ANCHOR).map(ref)].sort());
    expect(json(await staysIn(args, remote())).data).toEqual(json(inProc).data);
  });

  it('bad input and no match: typed errors and exit codes, nothing on stdout', async () => {
    const bad = await staysIn(['match', 'airbnb:abc'], local());
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    const same = await staysIn(['match', 'pin', `airbnb:${ANCHOR}`, 'airbnb:12345678'], remote());
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/another platform/);
    const lone = await staysIn(['compare', '--listing', 'airbnb:10000037', '--matched', '--check-in', '2027-03-01', '--check-out', '2027-03-04'], local());
    expect(lone.code).toBe(3);
    expect(lone.stdout).toBe('');
    expect(lone.stderr).toMatch(/No listing of the same property to compare with\. Method match\/1/);
    const alone = await staysIn(['compare', '--listing', `airbnb:${ANCHOR}`, '--check-in', '2027-03-01', '--check-out', '2027-03-04'], local());
    expect(alone.code).toBe(2);
  });
});
