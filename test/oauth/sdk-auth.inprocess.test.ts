// The official SDK client doing the whole OAuth dance itself, as an agent would: it meets the
// 401, follows the RFC 9728 pointer, reads the RFC 8414 metadata, registers (RFC 7591), sends
// the user to the consent page with PKCE, exchanges the code and then refreshes on its own when
// the access token expires. The "browser" here fills in the consent form with a sandbox key.
// The app in-process (test/helpers/app.ts): the SDK's transport is given the app's fetch, and the
// token's lifetime runs out on a manual clock. The OAuth flow over a real `stays serve` (and the
// SDK client with its token) is test/oauth/flow.test.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { REDIRECT, consent, location } from './helpers.js';

/** An agent's OAuth state in memory; its browser posts the consent form with `apiKey`. */
class AgentProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  code: string | null = null;
  constructor(
    private readonly s: TestApp,
    private readonly apiKey: string,
  ) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [REDIRECT], client_name: 'SDK agent', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(c: OAuthClientInformationMixed) {
    this.client = c;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: OAuthTokens) {
    this.saved = t;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    const res = await this.s.fetch(url, { redirect: 'manual' });
    const html = await res.text();
    expect(res.status, html).toBe(200);
    const fields = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields.set(
        m[1]!,
        m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))),
      );
    expect(url.origin).toBe(this.s.url);
    const back = location(await consent(this.s, { fields, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! }, this.apiKey));
    this.code = back.searchParams.get('code');
  }
}

async function connect(s: TestApp, provider: AgentProvider): Promise<Client> {
  const url = new URL(`${s.url}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: s.fetch });
  const client = new Client({ name: 'sdk-agent', version: '0.0.0' });
  // With no token yet the connection is refused and the provider sent the "user" to consent.
  await expect(client.connect(first)).rejects.toThrow(/Unauthorized/i);
  expect(provider.code).toMatch(/^stays_ac_/);
  await first.finishAuth(provider.code!);
  const authed = new Client({ name: 'sdk-agent', version: '0.0.0' });
  await authed.connect(new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: s.fetch }));
  return authed;
}

describe('the SDK client runs the OAuth flow by itself', () => {
  let s: TestApp;
  let acct: TestAccount;
  const clock = manualClock(Date.now());
  beforeAll(async () => {
    s = await startApp({ STAYS_OAUTH_ACCESS_TTL_S: '1' }, { clock });
    acct = await s.account();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('discovers, registers, signs in with PKCE, calls search_stays, and refreshes an expired token', async () => {
    const provider = new AgentProvider(s, acct.sandboxKey);
    const client = await connect(s, provider);
    try {
      expect(provider.saved).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), scope: 'stays.read' });
      const r = await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', limit: 1 } });
      expect(r.isError).toBeFalsy();
      // Past the 1 s lifetime (the runtime's clock moved) the SDK meets invalid_token and refreshes
      // by itself (a new refresh token: rotation).
      const before = provider.saved!;
      clock.advance(1_500);
      const again = await client.callTool({ name: 'search_stays', arguments: { location: 'Porto', limit: 1 } });
      expect(again.isError).toBeFalsy();
      expect(provider.saved!.access_token).not.toBe(before.access_token);
      expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    } finally {
      await client.close();
    }
  });
});
