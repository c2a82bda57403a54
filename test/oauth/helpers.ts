// The OAuth flow as a client without a browser does it: plain fetch against a real `stays serve`
// (or the app in-process, through its req), the consent form filled in and posted like a browser
// would (its CSRF cookie included).
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Api } from '../helpers/stays.js';

/** A server: its origin, and its req when it has one (the in-process app has no socket to fetch). */
type Stays = Pick<Api, 'url'> & Partial<Pick<Api, 'req'>>;

const send = (s: Stays, path: string, init: RequestInit): Promise<Response> => (s.req ? s.req(path, init) : fetch(`${s.url}${path}`, init));

export const REDIRECT = 'http://127.0.0.1:53682/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function register(s: Stays, body: object = { redirect_uris: [REDIRECT], client_name: 'Test agent' }): Promise<Response> {
  return send(s, '/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export async function newClient(s: Stays): Promise<string> {
  const res = await register(s);
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

export interface AuthorizeParams {
  clientId: string;
  challenge?: string;
  method?: string | null;
  redirectUri?: string;
  state?: string;
  scope?: string;
}

export function authorizeUrl(s: Stays, p: AuthorizeParams): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: p.clientId, redirect_uri: p.redirectUri ?? REDIRECT, state: p.state ?? 'st-123' });
  if (p.challenge !== undefined) q.set('code_challenge', p.challenge);
  if (p.method !== null) q.set('code_challenge_method', p.method ?? 'S256');
  if (p.scope !== undefined) q.set('scope', p.scope);
  return `${s.url}/oauth/authorize?${q}`;
}

/** The consent page: its hidden fields and the CSRF cookie it set. */
export async function openConsent(s: Stays, p: AuthorizeParams): Promise<{ fields: URLSearchParams; cookie: string; html: string }> {
  const res = await send(s, authorizeUrl(s, p).slice(s.url.length), { redirect: 'manual' });
  const html = await res.text();
  expect(res.status, html).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))),
    );
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { fields, cookie, html };
}

/** Posts the consent form; the answer (a 303 to the client, or the page again). */
export async function consent(s: Stays, page: { fields: URLSearchParams; cookie: string }, apiKey: string, decision = 'allow'): Promise<Response> {
  const body = new URLSearchParams(page.fields);
  body.set('api_key', apiKey);
  body.set('decision', decision);
  return send(s, '/oauth/authorize', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie }, body });
}

/** Where a 303 sends the user agent, parsed. */
export function location(res: Response): URL {
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

/** GET page → POST the form with `apiKey` → the code from the redirect. */
export async function authorize(s: Stays, clientId: string, apiKey: string, challenge: string): Promise<string> {
  const page = await openConsent(s, { clientId, challenge });
  const back = location(await consent(s, page, apiKey));
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('st-123');
  expect(back.searchParams.get('iss')).toBe(s.url);
  return back.searchParams.get('code')!;
}

export async function tokenRequest(s: Stays, params: Record<string, string>): Promise<Response> {
  return send(s, '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

export async function exchange(s: Stays, clientId: string, code: string, verifier: string): Promise<Tokens> {
  const res = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as Tokens;
}

/** The whole flow for `apiKey`: registration, consent, exchange. */
export async function signIn(s: Stays, apiKey: string): Promise<Tokens & { clientId: string }> {
  const clientId = await newClient(s);
  const { verifier, challenge } = pkce();
  const code = await authorize(s, clientId, apiKey, challenge);
  return { clientId, ...(await exchange(s, clientId, code, verifier)) };
}

/** One JSON-RPC request to /mcp with plain fetch (no Authorization when `bearer` is empty); the message from its SSE (or JSON) answer. */
export async function rpc(
  s: Stays,
  bearer: string,
  method: string,
  params: object = {},
): Promise<{ status: number; headers: Headers; message: { result?: Record<string, unknown>; error?: unknown } | null; text: string }> {
  const res = await send(s, '/mcp', {
    method: 'POST',
    headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await res.text();
  let message = null;
  if (res.status === 200) {
    const data = /^data: (.+)$/m.exec(text)?.[1] ?? text;
    message = JSON.parse(data) as { result?: Record<string, unknown> };
  }
  return { status: res.status, headers: res.headers, message, text };
}
