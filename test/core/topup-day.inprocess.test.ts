// The daily top-up cap (D24 amended) counts per UTC day of the service's clock: an injected clock
// walks across midnight.
import { afterEach, expect, it } from 'vitest';
import { createAccount, createKey } from '../../src/core/admin.js';
import { manualClock } from '../../src/core/clock.js';
import { createApp } from '../../src/app.js';
import { type Runtime, createRuntime } from '../../src/runtime.js';
import { tempDir } from '../helpers/stays.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
});

it('the cap resets at 00:00 UTC', async () => {
  const clock = manualClock(Date.UTC(2027, 2, 1, 23, 59, 59));
  const rt = createRuntime({ config: { dataDir: tempDir(), topupMaxPerDay: 100 }, clock });
  runtimes.push(rt);
  const app = createApp(rt);
  const acct = await createAccount(rt, { plan: 'pro' });
  const { key } = await createKey(rt, { accountId: acct.id, env: 'live', scopes: ['billing.write'] });
  const topup = async (credits: number) => {
    const res = await app.request('/v1/billing/topups', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ credits }) });
    return { status: res.status, body: (await res.json()) as { data?: { credits: { balance: number } }; error?: { code: string } } };
  };

  expect((await topup(100)).body.data?.credits.balance).toBe(100);
  expect((await topup(1)).body.error?.code).toBe('topup_limit_exceeded');
  clock.advance(1000); // 2027-03-02T00:00:00Z
  expect((await topup(100)).body.data?.credits.balance).toBe(200);
  expect((await topup(1)).body.error?.code).toBe('topup_limit_exceeded');
  expect((await rt.store.ledger(acct.id)).map((l) => [l.kind, l.amount, l.createdAt])).toEqual([
    ['topup', 100, Date.UTC(2027, 2, 1, 23, 59, 59)],
    ['topup', 100, Date.UTC(2027, 2, 2)],
  ]);
});
