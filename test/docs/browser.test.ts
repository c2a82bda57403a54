// The reference in a real browser: headless Chromium from the system's packages (Debian's
// `chromium`, which .ci/run installs), driven by playwright-core, against a real `stays serve`.
// It opens /docs, sees the operations and expands one, opens an error page from a real error's
// docUrl, and keeps screenshots in test-artifacts/. Every request the page makes is checked: any
// that would leave loopback is blocked and fails the test. Without Chromium the test skips, saying so.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';

const CHROMIUM = process.env.STAYS_TEST_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does)`);

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe.skipIf(!haveChromium)('/docs in a browser (system Chromium)', () => {
  let s: Stays;
  let a: TestAccount;
  let browser: Browser;
  let context: BrowserContext;
  const left: string[] = []; // requests that would have left loopback
  const seen: string[] = [];
  let unusable: string | undefined;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const { chromium } = await import('playwright-core');
    const args = ['--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'];
    if (process.getuid?.() === 0) args.push('--no-sandbox');
    s = await startStays();
    a = await s.account();
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args, timeout: 30_000 });
    } catch (e) {
      // The environment (no user namespaces for the sandbox, a broken install), not the product.
      unusable = `browser test skipped: ${CHROMIUM} did not start (${String(e).split('\n')[0]})`;
      console.warn(unusable);
      return;
    }
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      seen.push(url.href);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !LOOPBACK.has(url.hostname)) {
        left.push(url.href);
        return route.abort('blockedbyclient');
      }
      return route.continue();
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.stop();
  });

  it('opens /docs, lists the operations of both families and expands one', async (t) => {
    if (unusable) t.skip(unusable);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${s.url}/docs`, { waitUntil: 'load', timeout: 20_000 });
    const ops = page.locator('.opblock');
    await ops.first().waitFor({ state: 'visible', timeout: 20_000 });
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    const normalized = paths.map((p) => p.replace(/\u200b/g, '').trim());
    expect(normalized.length).toBeGreaterThan(20);
    expect(normalized).toEqual(expect.arrayContaining(['/v1/search', '/v1/stays/{id}']));
    // The webhook events (OpenAPI 3.1 webhooks) are listed too.
    expect(normalized).toEqual(expect.arrayContaining(['job.queued', 'stay.cached']));
    await page.screenshot({ path: join(ARTIFACTS, 'docs-reference.png'), fullPage: false });

    const search = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: /^\/v1\/search$/ }) }).first();
    await search.locator('.opblock-summary').first().click();
    await search.locator('.opblock-body').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await search.locator('.opblock-body').innerText()).toMatch(/Parameters/);
    await search.screenshot({ path: join(ARTIFACTS, 'docs-operation.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(ARTIFACTS, 'docs-reference-dark.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the try-it console sends its request to this server', async (t) => {
    if (unusable) t.skip(unusable);
    const page = await context.newPage();
    await page.goto(`${s.url}/docs`, { waitUntil: 'load', timeout: 20_000 });
    const health = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: /^\/v1\/health$/ }) }).first();
    await health.waitFor({ state: 'visible', timeout: 20_000 });
    await health.locator('.opblock-summary').first().click();
    await health.locator('.try-out__btn').click();
    const sent = page.waitForRequest((r) => r.url().endsWith('/v1/health'), { timeout: 10_000 });
    await health.locator('.execute').click();
    expect((await sent).url()).toBe(`${s.url}/v1/health`);
    await health.locator('.live-responses-table tbody .response-col_status').first().waitFor({ state: 'visible', timeout: 10_000 });
    expect(await health.locator('.live-responses-table tbody .response-col_status').first().innerText()).toMatch(/200/);
    await health.screenshot({ path: join(ARTIFACTS, 'docs-try-it.png') });
    await page.close();
  });

  it("opens the page a real error's docUrl names, light and dark", async (t) => {
    if (unusable) t.skip(unusable);
    const res = await s.req('/v1/listing/airbnb/404', { key: a.sandboxKey });
    const { error } = (await res.json()) as { error: { code: string; docUrl: string } };
    expect(error.docUrl).toBe(`${s.url}/docs/errors/listing_not_found`);
    const page = await context.newPage();
    const answer = await page.goto(error.docUrl, { waitUntil: 'load', timeout: 20_000 });
    expect(answer?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Error listing_not_found');
    expect(await page.locator('dl.facts').innerText()).toMatch(/HTTP status\s+404/);
    await page.screenshot({ path: join(ARTIFACTS, 'error-page-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(13, 17, 23)');
    await page.screenshot({ path: join(ARTIFACTS, 'error-page-dark.png'), fullPage: true });
    await page.locator('nav a', { hasText: 'Errors' }).click();
    await page.waitForURL(`${s.url}/docs/errors`, { timeout: 10_000 });
    expect(await page.locator('table a').count()).toBeGreaterThan(40);
    await page.close();
  });

  it('no request left loopback', (t) => {
    if (unusable) t.skip(unusable);
    expect(seen.length).toBeGreaterThan(5);
    expect(left).toEqual([]);
  });
});
