// README's webhook receiver, run as written (its port made free): `import { verifyWebhook } from
// 'stays'` resolves to this package (self-reference), a signed delivery gets 200, a tampered
// one 400 with the reason.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
// Inside the package, so the bare 'stays' import resolves to it as it would in a user's project.
const DIR = join(ROOT, 'test', '.tmp-readme-receiver');
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const freePort = () =>
  new Promise<number>((r) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => r(port));
    });
  });

describe("README's webhook receiver", () => {
  it('accepts a signed delivery and refuses a tampered one', async () => {
    const start = README.indexOf('### Webhooks\n');
    const code = /```ts\n([\s\S]*?)```/.exec(README.slice(start))?.[1];
    expect(code).toContain("import { verifyWebhook } from 'stays';");
    const port = await freePort();
    mkdirSync(DIR, { recursive: true });
    const file = join(DIR, 'receiver.mts');
    writeFileSync(file, code!.replace(/\.listen\(3000\)/, `.listen(${port}, '127.0.0.1', () => console.log('ready'))`));
    const secret = 'whsec_readme_test';
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), file], { env: { ...process.env, STAYS_WEBHOOK_SECRET: secret }, cwd: DIR });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await new Promise<void>((r, reject) => {
        child.stdout.on('data', () => out.includes('ready') && r());
        child.once('exit', (c) => reject(new Error(`receiver exited ${c}: ${out}`)));
      });
      const body = JSON.stringify({ id: 'evt_readme', event: 'job.succeeded', created_at: new Date().toISOString(), data: { job_id: 'job_X' } });
      const post = (b: string, sig: string) => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: b, headers: { 'content-type': 'application/json', 'x-service-signature': sig } });
      const ok = await post(body, signatureHeader(body, secret));
      expect(ok.status).toBe(200);
      const bad = await post(body.replace('job_X', 'job_Y'), signatureHeader(body, secret));
      expect(bad.status).toBe(400);
      expect(await bad.text()).toBe('mismatch');
      expect(out).toContain('evt_readme job.succeeded');
    } finally {
      child.kill();
    }
  }, 30_000);
});
