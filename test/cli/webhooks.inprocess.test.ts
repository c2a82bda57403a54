// `stays webhooks` (issue 10), the CLI run in this process (staysIn) against a real `stays serve` (test/cli/serve-in.ts: the server in this process, on loopback):
// create prints the secret once and says so, list/get/delete/deliveries in tables, tsv and JSON,
// typed errors in CLI words with their exit codes, and verify against signed bodies.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/webhooks/sign.js';
import { type TestAccount, tempDir } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  s = await serveIn();
  a = await s.account({ rpm: 100_000 });
  box = freshSandbox();
});
afterAll(async () => {
  await s.stop();
});

const hooks = (...args: string[]) => staysIn(['webhooks', ...args, '--base-url', s.url, '--api-key', a.liveKey], box.env);

describe('stays webhooks', () => {
  let id: string;

  it('create: the webhook, its secret once and prominently, and a warning that it will not be shown again', async () => {
    const r = await hooks('create', '--url', 'https://example.com/hooks', '--events', 'job.succeeded,job.failed', '--description', 'ci receiver', '-o', 'table');
    expect(r.code, r.stderr).toBe(0);
    id = /wh_[0-9A-Z]{26}/.exec(r.stdout)![0];
    expect(r.stdout).toMatch(/url\s+https:\/\/example\.com\/hooks/);
    expect(r.stdout).toMatch(/events\s+job\.succeeded,job\.failed/);
    expect(r.stdout).toMatch(/signing secret\s+whsec_[A-Za-z0-9_-]{43}/);
    expect(r.stderr).toMatch(/will not be shown again/);
  });

  it('create --json: the API envelope with signing_secret and note; --jq picks the secret alone', async () => {
    const r = await hooks('create', '--url', 'https://example.com/2', '--events', 'stay.cached', '--json');
    expect(r.code, r.stderr).toBe(0);
    const body = json<{ data: { signing_secret: string; note: string; events: string[] }; request_id: string }>(r);
    expect(body.data.signing_secret).toMatch(/^whsec_/);
    expect(body.data.note).toMatch(/only once/);
    expect(body.request_id).toMatch(/^req_/);
    const q = await hooks('create', '--url', 'https://example.com/3', '--events', 'job.queued', '--jq', '.data.signing_secret');
    expect(q.stdout.trim()).toMatch(/^"?whsec_[A-Za-z0-9_-]{43}"?$/);
  });

  it('list: a table with ids whole, tsv piped, JSON without secrets', async () => {
    const t = await hooks('list', '-o', 'table');
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/ID\s+URL\s+EVENTS\s+ACTIVE/);
    expect(t.stdout).toContain(id);
    const tsv = await hooks('list');
    const row = tsv.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(row.split('\t')).toEqual([id, 'https://example.com/hooks', 'job.succeeded,job.failed', 'true', 'ci receiver', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), 'active', '0', '']);
    const j = await hooks('list', '--json');
    expect(j.stdout).not.toContain('whsec_');
    expect(json<{ data: { id: string }[] }>(j).data.map((w) => w.id)).toContain(id);
  });

  it('get and deliveries', async () => {
    const g = await hooks('get', id, '-o', 'table');
    expect(g.code, g.stderr).toBe(0);
    expect(g.stdout).toMatch(/active\s+yes/);
    expect(g.stdout).toMatch(/description\s+ci receiver/);
    expect(g.stdout).not.toContain('whsec_');
    const d = await hooks('deliveries', id, '-o', 'table');
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toMatch(/No delivery attempts yet/);
    expect(json<{ data: unknown[] }>(await hooks('deliveries', id, '--json')).data).toEqual([]);
  });

  it('delete: revoked, the record stays with active no; again says it was already deleted (exit 0) and changes nothing', async () => {
    const r = await hooks('delete', id, '-o', 'table');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`Deleted webhook ${id}`));
    expect((await hooks('get', id, '-o', 'table')).stdout).toMatch(/active\s+no/);
    const twice = await hooks('delete', id, '-o', 'table');
    expect(twice.code).toBe(0);
    expect(twice.stdout).not.toMatch(/Deleted/);
    expect(twice.stderr).toBe(`Webhook ${id} was already deleted; nothing changed.\n`);
    const again = await hooks('delete', id, '--json');
    expect(again.code).toBe(0);
    expect(json<{ data: unknown }>(again).data).toEqual({ id, revoked: true, already_deleted: true });
  });

  it('list --active leaves out deleted (and disabled) webhooks, in every format', async () => {
    const all = json<{ data: { id: string; active: boolean }[] }>(await hooks('list', '--json'));
    expect(all.data.some((w) => w.id === id && !w.active)).toBe(true);
    const active = json<{ data: { id: string; active: boolean }[] }>(await hooks('list', '--active', '--json'));
    expect(active.data.length).toBeGreaterThan(0);
    expect(active.data.every((w) => w.active)).toBe(true);
    expect(active.data.length).toBe(all.data.filter((w) => w.active).length);
    expect((await hooks('list', '--active', '-o', 'tsv')).stdout).not.toContain(id);
  });

  it('errors: in CLI words, with exit codes (2 invalid, 3 not found, 4 auth)', async () => {
    const bad = await hooks('create', '--url', 'https://example.com', '--events', 'job.exploded');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--events "job\.exploded" is not one of/);
    const ftp = await hooks('create', '--url', 'ftp://example.com', '--events', 'job.queued');
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/--url must be an http or https URL/);
    const missing = await hooks('create', '--events', 'job.queued');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--url/);
    const nf = await hooks('get', 'wh_01J8ZK4R2ABCDEF0123456789A');
    expect(nf.code).toBe(3);
    expect(nf.stderr).toMatch(/webhook_not_found/);
    const nfJson = await hooks('delete', 'nope', '--json');
    expect(nfJson.code).toBe(3);
    expect(JSON.parse(nfJson.stderr).error.code).toBe('webhook_not_found');
    const auth = await staysIn(['webhooks', 'list', '--base-url', s.url, '--api-key', 'stay_live_nope'], box.env);
    expect(auth.code).toBe(4);
  });

  it('in-process: create, list and delete on the local store', async () => {
    const local = freshSandbox();
    const c = await staysIn(['webhooks', 'create', '--url', 'http://127.0.0.1:9/x', '--events', 'job.failed', '--json'], local.env);
    expect(c.code, c.stderr).toBe(0);
    const wid = json<{ data: { id: string } }>(c).data.id;
    const l = await staysIn(['webhooks', 'list', '--json'], local.env);
    expect(json<{ data: { id: string }[] }>(l).data.map((w) => w.id)).toEqual([wid]);
    expect((await staysIn(['webhooks', 'delete', wid], local.env)).code).toBe(0);
  });

  it('in-process: trigger makes a sandbox job whose events are delivered before it exits; resend sends one again', async () => {
    const local = freshSandbox();
    const { startReceiver } = await import('../helpers/receiver.js');
    const r = await startReceiver();
    try {
      const c = await staysIn(['webhooks', 'create', '--url', r.url, '--events', 'job.succeeded', '--json'], local.env);
      const wid = json<{ data: { id: string } }>(c).data.id;
      const t = await staysIn(['webhooks', 'trigger', 'job.succeeded', '-o', 'table'], local.env);
      expect(t.code, t.stderr).toBe(0);
      const jobId = /Triggered job\.succeeded with sandbox job (job_[0-9A-Z]{26}): queued job\.queued, job\.running, job\.succeeded for 1 webhook\./.exec(t.stdout)![1]!;
      // Delivered by the command itself, before it exited.
      expect(r.received.map((x) => [x.body.event, x.body.data.job_id])).toEqual([['job.succeeded', jobId]]);
      const got = await staysIn(['jobs', 'get', jobId, '--json'], local.env);
      expect(json<{ data: { status: string } }>(got).data.status).toBe('completed');
      const re = await staysIn(['webhooks', 'resend', r.received[0]!.body.id, '-o', 'table'], local.env);
      expect(re.code, re.stderr).toBe(0);
      expect(re.stdout).toBe(`Queued delivery ${r.received[0]!.body.id} of webhook ${wid} again: 3 fresh attempts, the same event id.\n`);
      expect(r.received.map((x) => x.body.id)).toEqual([r.received[0]!.body.id, r.received[0]!.body.id]);
      const nf = await staysIn(['webhooks', 'resend', 'evt_01J8ZK4R2ABCDEF0123456789A'], local.env);
      expect(nf.code).toBe(3);
    } finally {
      await r.close();
    }
  });

  it('trigger with a live key: exit 4, sandbox_key_required', async () => {
    const r = await hooks('trigger', 'job.succeeded', '--json');
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stderr).error.code).toBe('sandbox_key_required');
  });
});

describe('stays webhooks verify', () => {
  const dir = tempDir('stays-verify-');
  const secretFile = join(dir, 'secret');
  const secret = 'whsec_test_0123456789abcdef';
  writeFileSync(secretFile, `${secret}\n`);
  const body = JSON.stringify({ id: 'evt_1', event: 'job.succeeded', data: { jobId: 'job_1' } });
  const verify = (header: string, input: string, ...more: string[]) => staysIn(['webhooks', 'verify', '--secret-file', secretFile, '--header', header, ...more], {}, { input });

  it('exit 0 for a fresh signature of this body', async () => {
    const r = await verify(signatureHeader(body, secret), body);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^valid: signed at \d{4}-/);
  });

  it('exit 1 with the reason: tampered body, wrong secret, stale, future, malformed', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, RegExp][] = [
      [signatureHeader(body, secret), body.replace('job_1', 'job_2'), /mismatch/],
      [signatureHeader(body, 'whsec_other'), body, /mismatch/],
      [signatureHeader(body, secret, now - 600), body, /stale/],
      [signatureHeader(body, secret, now + 600), body, /future/],
      ['v1=abc', body, /malformed/],
    ];
    for (const [header, input, reason] of cases) {
      const r = await verify(header, input);
      expect(r.code, header).toBe(1);
      expect(r.stderr).toMatch(reason);
      expect(r.stdout).toBe('');
    }
  });

  it('--tolerance widens the window; an unreadable secret file is a usage error (exit 2)', async () => {
    const old = signatureHeader(body, secret, Math.floor(Date.now() / 1000) - 600);
    expect((await verify(old, body, '--tolerance', '900')).code).toBe(0);
    const r = await staysIn(['webhooks', 'verify', '--secret-file', join(dir, 'missing'), '--header', old], {}, { input: body });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--secret-file .* cannot be read/);
  });
});
