// `stays api`: raw passthrough like `gh api` (body as sent, -i for status and headers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  s = await serveIn();
  a = await s.account({ plan: 'pro', scopes: 'stays.read,billing.write' });
  box = freshSandbox();
});
afterAll(async () => {
  await s.stop();
});

const api = (args: string[], input?: string) => staysIn(['api', ...args, '--base-url', s.url, '--api-key', a.sandboxKey], box.env, { input });

describe('stays api', () => {
  it('GET with -f parameters; -i prints the status line and headers first', async () => {
    const r = await api(['v1/search', '-f', 'location=Lisbon', '-f', 'limit=1', '-f', 'platforms=booking', '-i']);
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head).toMatch(/^HTTP 200\n/);
    expect(head).toMatch(/^x-request-id: req_\w+$/m);
    expect(head).toMatch(/^x-ratelimit-remaining: \d+$/m);
    expect(JSON.parse(body!).data).toHaveLength(1);
  });

  it('POST with -F typed fields and with --input - (stdin)', async () => {
    const topup = await api(['/v1/billing/topups', '-X', 'POST', '-F', 'credits=500']);
    expect(topup.code).toBe(0);
    // A sandbox key's top-up is a test-mode answer (D24): the typed field was accepted, no credits minted.
    expect(JSON.parse(topup.stdout).data.credits.balance).toBe(1000);
    const search = await api(['search', '--input', '-'], '{"location":"Porto","limit":1,"platforms":["airbnb"]}');
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).data[0].platform).toBe('airbnb');
  });

  it('an error prints the body on stdout and exits with the mapped code', async () => {
    const r = await api(['/v1/nowhere']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'route_not_found' } });
    expect(r.stderr).toMatch(/not_found\/route_not_found/);
  });
});
