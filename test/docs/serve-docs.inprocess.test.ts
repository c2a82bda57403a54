// The service documents itself (issue 15): on the app as `stays serve` sets it up (in-process,
// test/helpers/app.ts, its own /docs), every docUrl its error and
// warning answers carry (both families) resolves to a page on that server; every catalogue code
// has its page; the reproduce line of each page reproduces its code; /docs and its assets load
// from the server itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_DOCS, WARNING_DOCS } from '../../src/core/error-docs.js';
import { ALL_ERROR_CODES, errorInfo } from '../../src/core/errors.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
const seen = new Map<string, string>(); // docUrl → the request that produced it

/** Every docUrl anywhere in a JSON body. */
function collect(body: unknown, from: string): void {
  if (Array.isArray(body)) for (const x of body) collect(x, from);
  else if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      if (k === 'docUrl' && typeof v === 'string') seen.set(v, from);
      else collect(v, from);
    }
  }
}

async function call(path: string, init: RequestInit & { key?: string } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await s.req(path, init);
  const body = (await res.json()) as Record<string, unknown>;
  collect(body, `${init.method ?? 'GET'} ${path}`);
  return { status: res.status, body };
}

const errorOf = (b: Record<string, unknown>) => b.error as { code: string; docUrl?: string } | undefined;
const warningsOf = (b: Record<string, unknown>) => (b.meta as { warnings?: { code: string; docUrl?: string }[] } | undefined)?.warnings ?? [];

/** `GET /v1/x?y with a stay_test_ key` → the method and path, when the line is a sandbox request. */
function sandboxRequest(line: string | undefined): { method: string; path: string } | null {
  const m = /^(GET|DELETE) (\/\S+) with a stay_test_ key$/.exec(line ?? '');
  return m ? { method: m[1]!, path: m[2]! } : null;
}

beforeAll(async () => {
  s = await startApp();
  a = await s.account();
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

describe('error and warning pages on stays serve', () => {
  it('every code of the catalogue has its page: 200 HTML with type, status, retryable, cause and fix', async () => {
    for (const code of ALL_ERROR_CODES) {
      const res = await s.req(`/docs/errors/${code}`);
      const html = await res.text();
      expect(res.status, code).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const info = errorInfo(code);
      expect(html).toContain(`<code>${code}</code>`);
      expect(html).toContain(`<code>${info.type}</code>`);
      expect(html).toContain(`<dd>${info.status}</dd>`);
      expect(html).toMatch(info.retryable ? /retryable<\/dt><dd><span class="yes">yes/ : /retryable<\/dt><dd><span class="no">no/);
      const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
      expect(html).toContain(esc(ERROR_DOCS[code].cause));
      expect(html).toContain(esc(ERROR_DOCS[code].fix));
      expect(html).not.toMatch(/<script/i);
    }
  });

  it('the lists link every code; the magic-id pages show their sandbox trigger', async () => {
    const errors = await (await s.req('/docs/errors')).text();
    for (const code of ALL_ERROR_CODES) expect(errors).toContain(`href="/docs/errors/${code}"`);
    const warnings = await (await s.req('/docs/warnings')).text();
    for (const code of Object.keys(WARNING_DOCS)) expect(warnings).toContain(`href="/docs/warnings/${code}"`);
    expect(await (await s.req('/docs/errors/identity_mismatch')).text()).toMatch(/<td><code>listingId<\/code><\/td><td><code>409<\/code><\/td>/);
    expect(await (await s.req('/docs/errors/upstream_degraded')).text()).toMatch(/<td><code>location<\/code><\/td><td><code>fail<\/code><\/td>/);
    // A trailing slash leads to the list (fetch follows the 308).
    for (const list of ['errors', 'warnings']) {
      const res = await s.req(`/docs/${list}/`);
      expect(res.status).toBe(200);
      expect(res.url).toMatch(new RegExp(`/docs/${list}$`));
    }
  });

  it('an unknown code answers 404 with a page linking the list (and a near code), escaped', async () => {
    const res = await s.req('/docs/errors/listing_not_fund');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('href="/docs/errors"');
    expect(html).toContain('href="/docs/errors/listing_not_found"');
    const evil = await s.req(`/docs/warnings/${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(evil.status).toBe(404);
    const text = await evil.text();
    expect(text).not.toContain('<script>');
    expect(text).toContain('&lt;script&gt;');
    expect(text).toContain('href="/docs/warnings"');
  });

  it("each page's reproduce line reproduces its code with a sandbox key", async () => {
    const wrong: string[] = [];
    let tried = 0;
    for (const code of ALL_ERROR_CODES) {
      const r = sandboxRequest(ERROR_DOCS[code].reproduce);
      if (!r) continue;
      tried++;
      const { status, body } = await call(r.path, { method: r.method, key: a.sandboxKey });
      if (errorOf(body)?.code !== code || status !== errorInfo(code).status) wrong.push(`${code}: ${r.method} ${r.path} → ${status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    for (const [code, d] of Object.entries(WARNING_DOCS)) {
      const r = sandboxRequest((d as { reproduce?: string }).reproduce);
      if (!r) continue;
      tried++;
      const { status, body } = await call(r.path, { method: r.method, key: a.sandboxKey });
      if (status !== 200 || !warningsOf(body).some((w) => w.code === code)) wrong.push(`${code}: ${r.path} → ${status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(25);
  });

  it('every docUrl in the answers (errors and warnings, both families) names a page on this server that answers 200', async () => {
    const sb = { key: a.sandboxKey };
    // Errors before and around the routes, Family U and S.
    await call('/v1/account');
    await call('/v1/account', { key: 'stay_test_nope' });
    await call('/v1/nope');
    await call('/v1/health', { method: 'DELETE' });
    await call('/v1/search', { ...sb, method: 'POST', body: 'x'.repeat(2 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    await call('/v1/listing/airbnb/12345678', { key: a.liveKey });
    await call('/v1/stays/404', sb);
    await call('/v1/stays/abc', sb);
    await call('/v1/stays/12345678/nope', sb);
    await call('/v1/stays/batch', { ...sb, method: 'POST', body: 'entries=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await call('/v1/webhooks/wh_nope', sb);
    await call('/v1/listings/superhost?location=fail', sb);
    for (const id of ['404', '409', '502', '503', '504']) await call(`/v1/reviews?platform=vrbo&listingId=${id}`, sb);
    await call(`/v1/price?platform=booking&listingId=us/410&checkIn=${day(30)}&checkOut=${day(33)}`, sb);
    // Warnings: a partial search (a failed leg's error code), skipped platform, ignored filter, a
    // batch with a failing id, a listing without its price.
    const partial = await call('/v1/search?location=partial', sb);
    expect(warningsOf(partial.body).length).toBeGreaterThan(0);
    await call('/v1/search?location=Lisbon&platforms=airbnb,expedia&priceMin=10', sb);
    await call(`/v1/availability?platform=airbnb&listingIds=12345678,404&startDate=${day(10)}&endDate=${day(20)}`, sb);
    await call(`/v1/listing/airbnb/411?checkIn=${day(30)}&checkOut=${day(33)}`, sb);
    await call('/v1/stays/search?location=Lisbon&maxItems=1000', sb);

    const urls = [...seen.keys()];
    const codes = new Set(urls.map((u) => u.split('/').pop()));
    expect(codes.size, [...codes].join(' ')).toBeGreaterThanOrEqual(15);
    expect(urls.some((u) => u.includes('/docs/warnings/'))).toBe(true);
    for (const [url, from] of seen) {
      expect(url.startsWith(`${s.url}/docs/`), `${from}: ${url}`).toBe(true);
      // The page the docUrl names, from the same app (nothing listens at its origin in-process).
      const res = await s.req(url.slice(s.url.length));
      expect(res.status, `${from}: ${url}`).toBe(200);
      expect(await res.text()).toContain(`<code>${url.split('/').pop()}</code>`);
    }
  });
});

describe('/docs: the API reference', () => {
  it('answers 200 HTML with the renderer, its assets from this server with their content types', async () => {
    const res = await s.req('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/assets/init.js']));
    const types: Record<string, RegExp> = { js: /^application\/javascript/, css: /^text\/css/, png: /^image\/png$/ };
    for (const path of assets.filter((p) => p.startsWith('/docs/assets/'))) {
      const r = await s.req(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type'), path).toMatch(types[path.split('.').pop()!]!);
      expect((await r.arrayBuffer()).byteLength, path).toBeGreaterThan(100);
    }
    expect((await s.req('/docs/assets/nope.js')).status).toBe(404);
    expect((await s.req('/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });

  it('names no other origin: no CDN, and the console is pointed at this server', async () => {
    for (const path of ['/docs', '/docs/errors', '/docs/errors/listing_not_found', '/docs/warnings', '/docs/warnings/price_unavailable', '/docs/assets/init.js']) {
      const text = await (await s.req(path)).text();
      const external = [...text.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>]*/gi)].map((m) => m[0]).filter((u) => !u.includes('127.0.0.1'));
      expect(external, path).toEqual([]);
    }
    const res = await s.req('/docs');
    expect(res.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
    expect(await res.text()).toContain(`data-server="${s.url}"`);
  });

  it('the served document, which the reference renders, has both families and the webhook routes', async () => {
    const doc = (await (await s.req('/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/search', '/v1/listing/{platform}/{id}', '/v1/stays/{id}']));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/v1/webhooks'))).toBe(true);
  });
});

describe('docUrl bases', () => {
  it('STAYS_PUBLIC_URL: docUrls and the console name the public URL', async () => {
    const t = await startApp({ STAYS_PUBLIC_URL: 'https://stays.example.test/' });
    try {
      const { error } = (await (await t.req('/v1/account')).json()) as { error: { docUrl: string } };
      expect(error.docUrl).toBe('https://stays.example.test/docs/errors/missing_api_key');
      expect(await (await t.req('/docs')).text()).toContain('data-server="https://stays.example.test"');
    } finally {
      await t.stop();
    }
  });
});
