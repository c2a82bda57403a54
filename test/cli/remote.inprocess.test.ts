// Remote mode against a real `stays serve` on loopback: every subcommand, the base URL in its
// accepted spellings, the key order (flag, env, config), and identical data in both modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, day } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  s = await serveIn();
  a = await s.account();
  box = freshSandbox();
});
afterAll(async () => {
  await s.stop();
});

const remote = (...args: string[]) => staysIn([...args, '--base-url', s.url, '--api-key', a.sandboxKey], box.env);
const local = (...args: string[]) => staysIn(args, box.env);
const stay = () => ['--check-in', day(30), '--check-out', day(33)];

describe('remote mode', () => {
  it('every data subcommand gives the same JSON data as in-process mode', async () => {
    const calls: string[][] = [
      ['search', 'Lisbon', '--limit', '3'],
      ['search', 'Porto', '--limit', '2', '--platforms', 'airbnb,vrbo', ...stay(), '--sort', 'price_asc', '--currency', 'EUR'],
      ['listing', 'booking', 'pt/casa-azul', ...stay()],
      ['price', 'airbnb', '12345678', ...stay(), '--adults', '3'],
      ['compare', '--name', 'Hotel Aurora', '--location', 'Lisbon', ...stay()],
      ['compare', '--listings', 'airbnb:12345678,booking:pt/casa-azul', ...stay()],
      ['availability', 'vrbo', '4886746', '4886747', '--start-date', day(30), '--end-date', day(40)],
      ['reviews', 'booking', 'pt/casa-azul', '--limit', '5', '--sort', 'rating_desc'],
    ];
    for (const args of calls) {
      const [r, l] = await Promise.all([remote(...args, '--json'), local(...args, '--json')]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(l.code, `${args.join(' ')}: ${l.stderr}`).toBe(0);
      expect(json(r).data, args.join(' ')).toEqual(json(l).data);
      expect(json(r).meta).toMatchObject({ sandbox: true, creditsCharged: 0 });
    }
  });

  it('account, jobs and api reach the server', async () => {
    const acct = await remote('account', '--json');
    expect(json<{ data: { plan: { code: string } } }>(acct).data.plan.code).toBe('pro');
    const job = await remote('jobs', 'wait', 'job_01J8ZK4R2ABCDEF0123456789A');
    expect(job.code).toBe(3);
    const api = await remote('api', 'search', '-f', 'location=Lisbon', '-f', 'limit=1', '-f', 'platforms=airbnb');
    expect(JSON.parse(api.stdout).data).toHaveLength(1);
  });

  it('accepts the service root with a trailing slash or /v1', async () => {
    for (const base of [`${s.url}/`, `${s.url}/v1`, `${s.url}/v1/`]) {
      const r = await staysIn(['account', '--json', '--base-url', base, '--api-key', a.sandboxKey], box.env);
      expect(r.code, base).toBe(0);
    }
  });

  it('takes the base URL and key from flag, then env, then config', async () => {
    const cfg = freshSandbox();
    expect((await staysIn(['config', 'set', 'base-url', s.url], cfg.env)).code).toBe(0);
    expect((await staysIn(['config', 'set', 'api-key', 'stay_test_wrongwrongwrongwrongwrongwrongwr'], cfg.env)).code).toBe(0);
    expect((await staysIn(['account'], cfg.env)).code).toBe(4); // config key: wrong
    expect((await staysIn(['account'], { ...cfg.env, STAYS_API_KEY: a.sandboxKey })).code).toBe(0); // env beats config
    expect((await staysIn(['account', '--api-key', a.sandboxKey], { ...cfg.env, STAYS_API_KEY: 'stay_test_x' })).code).toBe(0); // flag beats env
    const viaEnv = await staysIn(['account', '--json'], { ...box.env, STAYS_BASE_URL: s.url, STAYS_API_KEY: a.sandboxKey });
    expect(json<{ data: { plan: { code: string } } }>(viaEnv).data.plan.code).toBe('pro');
  });

  it('--debug logs method, URL, status, latency, request id, rate limit and credits, never the key', async () => {
    const r = await remote('search', 'Lisbon', '--limit', '1', '--debug');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/search\?.*→ 200 · [\d.]+ ms · req_\w+ · ratelimit \d+\/300 reset \d+ · credits 0/);
    expect(r.stderr).toContain('stay_test_…(redacted)');
    expect(r.stderr).not.toContain(a.sandboxKey);
    const viaEnv = await staysIn(['account', '--base-url', s.url, '--api-key', a.sandboxKey], { ...box.env, STAYS_DEBUG: '1' });
    expect(viaEnv.stderr).toMatch(/stays debug: GET/);
  });

  it('an unreachable base URL is a clear error (exit 1)', async () => {
    const r = await staysIn(['account', '--base-url', 'http://127.0.0.1:9', '--api-key', a.sandboxKey], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Could not connect to http:\/\/127\.0\.0\.1:9: nothing is listening; start it with stays serve, or check --base-url \/ STAYS_BASE_URL/);
  });
});
