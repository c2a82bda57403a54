// Our CLI against the public service that speaks this API (a local fake of it, test/helpers/
// peer-fake.ts), whose answers carry only what its OpenAPI document requires: no meta.sandbox,
// no pagination, nulls everywhere they are allowed, an account without id or email, job polls
// shaped its way, error codes we never send. Every command, in every output format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEER_SPEC_AVAILABLE, type PeerFake, startPeerFake } from '../helpers/peer-fake.js';
import { ANSI, type Run, freshSandbox, json, staysIn } from './helpers.js';

let peer: PeerFake;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  // Its OpenAPI document is in ../shared, which a user's clone has not: the suite below skips.
  if (!PEER_SPEC_AVAILABLE) return;
  peer = await startPeerFake();
  // The peer's server URL includes /v1; a base URL ending in /v1 is accepted as the service root.
  env = { ...freshSandbox().env, STAYS_BASE_URL: `${peer.url}/v1`, STAYS_API_KEY: 'stay_live_peer' };
});
afterAll(async () => {
  await peer?.close();
});

const stay = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
const COMMANDS: Record<keyof PeerFake['data'], string[]> = {
  search: ['search', 'Lisbon'],
  listing: ['listing', 'airbnb', '12345678'],
  price: ['price', 'airbnb', '12345678', ...stay],
  compare: ['compare', '--name', 'Hotel Aurora', '--location', 'Lisbon', ...stay],
  availability: ['availability', 'airbnb', '12345678', '--start-date', '2027-03-01', '--end-date', '2027-03-10'],
  reviews: ['reviews', 'airbnb', '12345678'],
  account: ['account'],
};

const ok = (r: Run, what: string) => {
  expect(r.stderr, what).not.toMatch(/unexpected error|TypeError|undefined/);
  expect(r.code, `${what}: ${r.stderr}`).toBe(0);
};

describe.runIf(PEER_SPEC_AVAILABLE)('the CLI against the peer service (least answers its OpenAPI allows)', () => {
  for (const [op, args] of Object.entries(COMMANDS) as [keyof PeerFake['data'], string[]][]) {
    it(`${args[0]}: JSON is the peer's envelope as returned; table, tsv, csv and jsonl print`, async () => {
      const j = await staysIn([...args, '--json'], env);
      ok(j, `${op} --json`);
      expect(json(j).data).toEqual(peer.data[op]);
      for (const format of ['table', 'tsv', 'csv', 'jsonl']) {
        const r = await staysIn([...args, '--output', format], env);
        ok(r, `${op} -o ${format}`);
        expect(r.stdout.trim().length, `${op} -o ${format}`).toBeGreaterThan(0);
        expect(r.stdout).not.toMatch(ANSI);
      }
    });
  }

  it('listing waited through the 202 and one poll, at the paths the peer gives', async () => {
    const before = peer.requests.length;
    ok(await staysIn([...COMMANDS.listing, '--json'], env), 'listing');
    const [accepted, ...polls] = peer.requests.slice(before);
    expect(accepted).toBe('GET /v1/listing/airbnb/12345678');
    expect(polls).toHaveLength(2);
    expect(new Set(polls).size).toBe(1);
    expect(polls[0]).toMatch(/^GET \/v1\/jobs\/job_listing\d+$/);
  });

  it('jobs get and jobs wait follow a job the peer accepted; api passes a response through', async () => {
    const accepted = await staysIn([...COMMANDS.listing, '--no-wait', '--json'], env);
    ok(accepted, 'listing --no-wait');
    const jobId = (json(accepted).data as { jobId: string }).jobId;
    const got = await staysIn(['jobs', 'get', jobId, '--json'], env);
    ok(got, 'jobs get');
    expect(json(got).data).toMatchObject({ jobId, status: 'running' });
    const waited = await staysIn(['jobs', 'wait', jobId, '--json'], env);
    ok(waited, 'jobs wait');
    expect(json(waited).data).toEqual(peer.data.listing);
    const raw = await staysIn(['api', '/v1/account', '-i'], env);
    ok(raw, 'api -i');
    expect(raw.stdout).toMatch(/^HTTP 200\n/);
    expect(raw.stdout).toMatch(/x-request-id: req_/i);
    expect(JSON.parse(raw.stdout.slice(raw.stdout.indexOf('{')))).toEqual({ data: peer.data.account });
  });

  it('--all never ends short in silence: a page without pagination is printed, then the walk fails saying why', async () => {
    const r = await staysIn(['search', 'Lisbon', '--all', '-o', 'jsonl'], env);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/without pagination[\s\S]*stopped after 1 page/);
  });

  it("a failed job exits 7 with the peer's own error code; a bad key exits 4", async () => {
    const failed = await staysIn(['listing', 'airbnb', 'fails'], env);
    expect(failed.code).toBe(7);
    expect(failed.stderr).toMatch(/Every source failed\.[\s\S]*upstream_unavailable\/all_actors_failed/);
    const bad = await staysIn(['account', '--json'], { ...env, STAYS_API_KEY: 'stay_live_wrong' });
    expect(bad.code).toBe(4);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr).error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
  });
});
