// STAYS_NOW (issue 26, item 2): the service's clock starts at that instant and runs on, so the same
// data directory observed at two instants six hours apart shows both sightings; refused with a
// real upstream, and a malformed value is a usage error naming it.
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { tempDir } from '../helpers/stays.js';
import { worldTruth } from '../../src/sources/sandbox/moving.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.stop();
});

describe('STAYS_NOW', () => {
  it('starts the clock at that instant: observations carry it, and a later start sees its own', async () => {
    const dataDir = tempDir();
    const at = async (now: string) => {
      const t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_NOW: now }, { dataDir });
      apps.push(t);
      return t;
    };
    const first = await at('2027-01-01T00:00:00Z');
    const a = await first.account({ credits: 10_000, rpm: 100_000 });
    const path = '/v1/price?platform=airbnb&listingId=4242&checkIn=2027-02-01&checkOut=2027-02-04&adults=2';
    const history = '/v1/history/price?platform=airbnb&listingId=4242&checkIn=2027-02-01&checkOut=2027-02-04&adults=2&from=2026-12-31';
    expect((await first.req(path, { key: a.liveKey, headers: { prefer: 'wait=30' } })).status).toBe(200);
    const once = JSON.parse(await (await first.req(history, { key: a.liveKey })).text()) as { data: { firstSeen: string; lastSeen: string; timesSeen: number }[] };
    expect(once.data).toHaveLength(1);
    expect(once.data[0]!.firstSeen.slice(0, 16)).toBe('2027-01-01T00:00');
    // Six hours on, the price's hour of cache is over: asked again, the same quote extends its row
    // (the moving world's price held from 00:00 to 06:00: one 12-hour step, the same lead day).
    const stay = { checkIn: '2027-02-01', checkOut: '2027-02-04', adults: 2, children: 0, childAges: [], currency: 'USD' };
    expect(worldTruth.priceAt('airbnb', '4242', stay, Date.parse('2027-01-01T06:00:00Z'))).toEqual(worldTruth.priceAt('airbnb', '4242', stay, Date.parse('2027-01-01T00:00:00Z')));
    const later = await at('2027-01-01T06:00:00Z');
    expect((await later.req(path, { key: a.liveKey, headers: { prefer: 'wait=30' } })).status).toBe(200);
    const twice = JSON.parse(await (await later.req(history, { key: a.liveKey })).text()) as typeof once;
    expect(twice.data.map((r) => [r.firstSeen.slice(0, 16), r.lastSeen.slice(0, 16), r.timesSeen])).toEqual([['2027-01-01T00:00', '2027-01-01T06:00', 2]]);
  });

  it('is refused with a real upstream, and must be a date-time with its offset', () => {
    const base = { STAYS_DATA_DIR: tempDir(), STAYS_DOCS_URL: 'https://docs.example/' };
    expect(() => loadConfig({}, { ...base, STAYS_NOW: '2027-01-01T00:00:00Z', STAYS_UPSTREAM: 'apify', STAYS_APIFY_TOKEN: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { ...base, STAYS_NOW: '2027-01-01T00:00:00Z', STAYS_UPSTREAM: 'apify', STAYS_APIFY_TOKEN: 'x' })).toThrow(/STAYS_NOW/);
    expect(() => loadConfig({}, { ...base, STAYS_NOW: 'tomorrow' })).toThrow(/^invalid setting STAYS_NOW: /);
    expect(loadConfig({}, { ...base, STAYS_NOW: '2027-01-01T00:00:00Z', STAYS_UPSTREAM: 'simulated' }).now).toBe('2027-01-01T00:00:00Z');
  });
});
