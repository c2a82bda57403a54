// Comp set and watch names (issue 35, item 8) over the app in-process: one rule for both (the
// `label` field of core/schemas/fields.ts): trimmed before the length check, so a name of spaces is
// refused rather than stored empty; bidirectional controls refused; each refusal a typed 400
// naming `name`, free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp();
  a = await t.account({ credits: 100, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

const post = (path: string, body: unknown) => t.req(path, { method: 'POST', key: a.sandboxKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const WATCH = { call: { type: 'search', params: { location: 'Lisbon' } }, rules: [{ type: 'new_listings' }] };
const COMPSET = { near: 'airbnb:100', radiusMeters: 500 };
const BAD: [string, RegExp][] = [
  ['', /empty/],
  ['   ', /empty/],
  ['\t \u00a0 ', /empty/],
  ['flat\u202egpj.exe', /bidirectional/],
  ['\u2066isolate\u2069', /bidirectional/],
  ['mark\u200f', /bidirectional/],
  ['arabic\u061cmark', /bidirectional/],
  ['embed\u202a', /bidirectional/],
];

describe('names of comp sets and watches', () => {
  it('a name of spaces, or one with a bidirectional control, is a typed 400 naming name, for both', async () => {
    const b0 = (await t.admin<{ credits: { balance: number } }>('account', 'show', a.id)).credits.balance;
    for (const [name, message] of BAD) {
      for (const [path, body] of [
        ['/v1/watches', WATCH],
        ['/v1/compsets', COMPSET],
      ] as const) {
        const err = await expectError(await post(path, { ...body, name }), 400, 'invalid_parameter', 'name');
        expect(err.error.message, `${path} ${JSON.stringify(name)}`).toMatch(message);
      }
    }
    expect((await t.admin<{ credits: { balance: number } }>('account', 'show', a.id)).credits.balance).toBe(b0);
  });

  it('trimmed first: the length counts the kept text, and the kept text is what is stored', async () => {
    const padded = `   ${'x'.repeat(200)}   `;
    const made = await post('/v1/watches', { ...WATCH, name: padded });
    expect(made.status, await made.clone().text()).toBe(201);
    expect(((await made.json()) as { data: { name: string } }).data.name).toBe('x'.repeat(200));
    await expectError(await post('/v1/watches', { ...WATCH, name: 'x'.repeat(201) }), 400, 'invalid_parameter', 'name');
    await expectError(await post('/v1/compsets', { ...COMPSET, name: ` ${'y'.repeat(101)} ` }), 400, 'invalid_parameter', 'name');
  });
});
