// A market read past its time budget (issue 34, item 3): STAYS_ANALYTICS_BUDGET_MS bounds how long
// one GET /v1/market computes; past it the answer is 422 analysis_too_large, typed and free, and the
// same read within the default budget answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const PATH = '/v1/market?location=Lisbon&from=2027-06-01&to=2027-09-01';
let tight: TestApp;
let a: TestAccount;

beforeAll(async () => {
  tight = await startApp({ STAYS_ANALYTICS_BUDGET_MS: '1' });
  a = await tight.account();
});
afterAll(async () => {
  await tight?.stop();
});

describe('the market read’s time budget', () => {
  it('past STAYS_ANALYTICS_BUDGET_MS: 422 analysis_too_large, free, and the server still answers', async () => {
    const e = await expectError(await tight.req(PATH, { key: a.sandboxKey }), 422, 'analysis_too_large', null);
    expect(e.error.creditsCharged).toBe(0);
    expect(e.error.message).toMatch(/1 ms: narrow the scope/);
    expect((await tight.req('/v1/health')).status).toBe(200);
  });

  it('a budget below 1 ms is refused at start, as every setting out of range is', async () => {
    await expect(startApp({ STAYS_ANALYTICS_BUDGET_MS: '0' })).rejects.toThrow(/STAYS_ANALYTICS_BUDGET_MS/);
  });
});
