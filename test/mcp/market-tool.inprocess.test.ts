// get_market_metrics over /mcp (issue 27, item 5): with a sandbox key, free and the same data as
// GET /v1/market; its text states each figure's method and sample size and the observation window
// in words an agent can repeat (the numbers are the structured result's); a location with nothing
// observed is the typed error no_observations, never zeros.
import { describe, expect, it } from 'vitest';
import type { MarketView as Market } from '../../src/core/schemas/market.js';
import { httpClient, textOf } from './helpers.js';
import { sandboxMcpApp } from './sandbox-app.js';

describe('get_market_metrics (a sandbox key over /mcp)', () => {
  const app = sandboxMcpApp();
  const args = { location: 'Lisbon', from: '2027-06-01', to: '2027-07-01' };

  it('is listed as read-only, answers as REST does, free, and says each method and sample size', async () => {
    const { tools } = await app.client.listTools();
    const tool = tools.find((t) => t.name === 'get_market_metrics');
    expect(tool?.annotations).toMatchObject({ openWorldHint: false });
    const r = await app.client.callTool({ name: 'get_market_metrics', arguments: args });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent as { data: Market; meta: { creditsCharged: number } };
    expect(body.meta.creditsCharged).toBe(0);
    const rest = (await (await app.s.req('/v1/market?location=Lisbon&from=2027-06-01&to=2027-07-01', { key: app.acct.sandboxKey })).json()) as { data: Market };
    expect(body.data).toEqual(rest.data);
    const text = textOf(r);
    const o = body.data.overall;
    const w = body.data.observationWindow;
    expect(text).toContain(`Computed from ${w.observations} observations of ${w.listings} listings`);
    expect(text).toContain('nights 2027-06-01 to 2027-07-01 (30 nights)');
    // The sandbox market has calendars and prices: these figures stand on a sample.
    for (const f of [o.activeListings, o.occupancy.calendarUnavailableRate, o.occupancy.inferredBookedRate]) expect(f.sampleSize).toBeGreaterThan(1);
    for (const [label, f] of [
      ['Active listings', o.activeListings],
      ['calendar-unavailable rate', o.occupancy.calendarUnavailableRate],
      ['inferred booked rate', o.occupancy.inferredBookedRate],
      ['ADR', o.adr],
      ['RevPAR', o.revpar],
    ] as const) {
      const line = text.split('\n').find((l) => l.includes(`${label}`) && l.includes(f.method));
      expect(line, label).toBeDefined();
      // Said with its number and sample, or said to have none: never a zero for no sample.
      if (f.value === null) expect(line).toContain(`no figure (method ${f.method}; its sample is empty: 0 ${f.sampleUnit})`);
      else expect(line).toContain(`(method ${f.method}, from ${f.sampleSize} ${f.sampleUnit})`);
    }
    expect(text).toContain('calendar-unavailable rate');
    expect(text).toContain('inferred booked rate');
    expect(text).toContain(`method ${o.pricePercentiles.method}, from ${o.pricePercentiles.sampleSize} prices`);
  });

  it('a location with nothing observed is a tool error carrying no_observations (the sandbox location empty; a live key on a store that never searched it)', async () => {
    const r = await app.client.callTool({ name: 'get_market_metrics', arguments: { ...args, location: 'empty' } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'not_found', code: 'no_observations' });
    const live = await httpClient(`${app.s.url}/mcp`, app.acct.liveKey, app.s.fetch);
    try {
      const never = await live.callTool({ name: 'get_market_metrics', arguments: args });
      expect(never.isError).toBe(true);
      expect((never.structuredContent as { error: unknown }).error).toMatchObject({ type: 'not_found', code: 'no_observations' });
      expect(textOf(never)).toContain('no_observations');
    } finally {
      await live.close();
    }
    const bad = await app.client.callTool({ name: 'get_market_metrics', arguments: { location: 'Lisbon', from: '2027-04-01', to: '2027-03-01' } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { error: { type: string } }).error.type).toBe('invalid_request');
  });
});
