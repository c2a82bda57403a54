// docUrls of answers the app does not render itself resolve too: a request refused before it
// reached the app (431, the raw client-error path) and the MCP-only address of --mcp-port.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeWithMcpPort } from '../helpers/stays.js';

let url: string;
let mcpUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ url, mcpUrl, stop } = await startServeWithMcpPort());
});
afterAll(() => stop());

/** A raw request whose headers pass the server's limit: answered before the app (431). */
function oversizedHeaders(base: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let out = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', (e) => (out ? resolve(out) : reject(e)));
    socket.write(`GET /v1/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
  });
}

describe('docUrls outside the app', () => {
  it('a 431 answered before the app names a page on the main address', async () => {
    const raw = await oversizedHeaders(url);
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: { code: string; docUrl: string } };
    expect(body.error.docUrl).toBe(`${url}/docs/errors/request_headers_too_large`);
    expect((await fetch(body.error.docUrl)).status).toBe(200);
  });

  it('the MCP-only address: its 404 names a page that resolves there', async () => {
    const res = await fetch(`${mcpUrl}/v1/health`);
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: { docUrl: string } };
    expect(error.docUrl).toBe(`${mcpUrl}/docs/errors/route_not_found`);
    expect((await fetch(error.docUrl)).status).toBe(200);
    const unauth = await fetch(`${mcpUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(unauth.status).toBe(401);
    const link = ((await unauth.json()) as { error: { docUrl: string } }).error.docUrl;
    expect(link).toBe(`${mcpUrl}/docs/errors/missing_api_key`);
    expect((await fetch(link)).status).toBe(200);
  });
});
