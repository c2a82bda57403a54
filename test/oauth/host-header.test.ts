// The Host header chooses nothing (issue 21, item 11): without STAYS_PUBLIC_URL the OAuth issuer,
// the metadata URLs, the 401 challenge and every docUrl name the server's own address (loopback
// names only from the Host: localhost:PORT on a loopback connection), and a server listening on a
// non-loopback address serves no OAuth until STAYS_PUBLIC_URL is set (501 public_url_required,
// typed), saying so at start. Real `stays serve` processes, reached on loopback.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Stays, startStays, tempDir } from '../helpers/stays.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> & { error?: { type: string; code: string; message: string; param: string | null; creditsCharged: number; docUrl: string } };
}

/** A request to 127.0.0.1:port with a Host header of our choosing (fetch would not send it as given). */
function raw(port: number, path: string, host: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host, ...init.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'] }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** `stays serve --host 0.0.0.0 --port 0`: its port and what it printed at start. */
async function serveOnAllInterfaces(env: Record<string, string> = {}): Promise<{ port: number; stderr: () => string; stop(): Promise<void> }> {
  const dataDir = tempDir();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'warn', STAYS_PUBLIC_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    const check = () => {
      // The warning, when there is one, is written before the announcement.
      const m = /listening on http:\/\/0\.0\.0\.0:(\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  return {
    port,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('a loopback server without STAYS_PUBLIC_URL', () => {
  let s: Stays;
  let port: number;
  beforeAll(async () => {
    s = await startStays({ STAYS_PUBLIC_URL: '' });
    port = Number(new URL(s.url).port);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('Host: evil.example changes neither the issuer, the metadata URLs, the 401 challenge nor a docUrl', async () => {
    const as = await raw(port, '/.well-known/oauth-authorization-server', 'evil.example');
    expect(as.status).toBe(200);
    expect(as.body).toMatchObject({ issuer: s.url, authorization_endpoint: `${s.url}/oauth/authorize`, token_endpoint: `${s.url}/oauth/token` });
    expect(JSON.stringify(as.body)).not.toContain('evil.example');
    const prm = await raw(port, '/.well-known/oauth-protected-resource', 'evil.example:80');
    expect(prm.body).toMatchObject({ resource: `${s.url}/mcp`, authorization_servers: [s.url] });
    const mcp = await raw(port, '/mcp', 'evil.example', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toBe(`Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource"`);
    const err = await raw(port, '/v1/account', 'evil.example');
    expect(err.status).toBe(401);
    expect(err.body.error!.docUrl).toBe(`${s.url}/docs/errors/missing_api_key`);
    // A loopback name with another port is not this server either.
    const other = await raw(port, '/v1/account', `localhost:${port + 1}`);
    expect(other.body.error!.docUrl).toBe(`${s.url}/docs/errors/missing_api_key`);
  });

  it('Host: localhost:PORT (a loopback name, this port) is kept, so a local browser stays on its origin', async () => {
    const as = await raw(port, '/.well-known/oauth-authorization-server', `localhost:${port}`);
    expect(as.body).toMatchObject({ issuer: `http://localhost:${port}` });
    const err = await raw(port, '/v1/account', `LOCALHOST:${port}`);
    expect(err.body.error!.docUrl).toBe(`http://localhost:${port}/docs/errors/missing_api_key`);
  });
});

describe('a server listening on 0.0.0.0', () => {
  it('without STAYS_PUBLIC_URL: OAuth endpoints and metadata answer 501 public_url_required, typed; serve warned; docUrls name its own address', async () => {
    const srv = await serveOnAllInterfaces();
    try {
      expect(srv.stderr()).toMatch(/warning: OAuth for MCP clients is off: .*STAYS_PUBLIC_URL is not set/);
      const requests: [string, string, string?][] = [
        ['GET', '/.well-known/oauth-authorization-server'],
        ['GET', '/.well-known/oauth-protected-resource'],
        ['GET', '/.well-known/oauth-protected-resource/mcp'],
        ['POST', '/oauth/register', JSON.stringify({ redirect_uris: ['http://127.0.0.1:53682/callback'] })],
        ['GET', '/oauth/authorize?response_type=code&client_id=x'],
        ['POST', '/oauth/token', 'grant_type=authorization_code'],
      ];
      for (const [method, path, body] of requests) {
        const r = await raw(srv.port, path, 'evil.example', {
          method,
          ...(body ? { body, headers: { 'content-type': body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded' } } : {}),
        });
        expect(r.status, `${method} ${path}`).toBe(501);
        expect(r.body.error).toMatchObject({ type: 'not_implemented', code: 'public_url_required', param: null, creditsCharged: 0, retryable: false });
        expect(r.body.error!.message).toContain('STAYS_PUBLIC_URL');
        expect(r.body.error!.docUrl).toBe(`http://127.0.0.1:${srv.port}/docs/errors/public_url_required`);
        expect(JSON.stringify(r.body)).not.toContain('evil.example');
      }
      // The REST API is unaffected, and its docUrls name the address the connection reached.
      const health = await raw(srv.port, '/v1/health', 'evil.example');
      expect(health.status).toBe(200);
      const err = await raw(srv.port, '/v1/account', 'evil.example');
      expect(err.body.error!.docUrl).toBe(`http://127.0.0.1:${srv.port}/docs/errors/missing_api_key`);
      // The docs page for the code exists.
      const page = await new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: srv.port, path: '/docs/errors/public_url_required' }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
          .on('error', reject)
          .end();
      });
      expect(page).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it('with STAYS_PUBLIC_URL: OAuth is served, at that URL, whatever the Host', async () => {
    const PUBLIC = 'https://stays.example.com';
    const srv = await serveOnAllInterfaces({ STAYS_PUBLIC_URL: PUBLIC });
    try {
      expect(srv.stderr()).not.toContain('warning: OAuth');
      const as = await raw(srv.port, '/.well-known/oauth-authorization-server', 'evil.example');
      expect(as.status).toBe(200);
      expect(as.body).toMatchObject({ issuer: PUBLIC, token_endpoint: `${PUBLIC}/oauth/token` });
      const reg = await raw(srv.port, '/oauth/register', 'evil.example', {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:53682/callback'] }),
        headers: { 'content-type': 'application/json' },
      });
      expect(reg.status).toBe(201);
    } finally {
      await srv.stop();
    }
  });
});
