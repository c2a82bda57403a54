// D14: sk_live_ is a live prefix (the Family S samples use it). An operator issues one with
// `stays admin key create --env live --prefix sk_live`; it works on both route families, bills
// the same ledger, and is stored hashed like every key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, runCli, startStays } from '../helpers/stays.js';

let s: Stays;
beforeAll(async () => {
  s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20' });
});
afterAll(async () => {
  await s.stop();
});

const balance = async (key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;

describe('sk_live_ keys', () => {
  it('are issued by the operator, live, and work on Family U and Family S alike', async () => {
    const a = await s.account({ credits: 500 });
    const k = await s.admin<{ key: string; env: string }>('key', 'create', '--account', a.id, '--env', 'live', '--prefix', 'sk_live');
    expect(k.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(k.env).toBe('live');

    const u = await s.req('/v1/listing/airbnb/12345', { key: k.key, headers: { prefer: 'wait=30' } });
    const ub = (await u.json()) as { meta: { creditsCharged: number; environment: string } };
    expect(u.status).toBe(200);
    expect(ub.meta.environment).toBe('live');

    const st = await s.req('/v1/stays/12345', { key: k.key });
    const sb = (await st.json()) as { data: { id: string }; meta: { credits_charged: number; environment: string }; request_id: string };
    expect(st.status).toBe(200);
    expect(sb.data.id).toBe('12345');
    expect(sb.meta.environment).toBe('live');
    expect(sb.meta.credits_charged).toBe(1);

    // One ledger: both keys of the account see the same balance, down by exactly what was returned.
    expect(await balance(k.key)).toEqual(await balance(a.liveKey));
    expect((await balance(k.key)).balance).toBe(500 - ub.meta.creditsCharged - sb.meta.credits_charged);
    expect((await balance(k.key)).held).toBe(0);
  });

  it('a sandbox key cannot take a live prefix (usage error, nothing created)', async () => {
    const a = await s.account();
    const r = await runCli(['admin', 'key', 'create', '--account', a.id, '--env', 'sandbox', '--prefix', 'sk_live', '--json', '--data-dir', s.dataDir]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/prefix must be one of stay_test/);
  });
});
