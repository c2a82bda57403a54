// get_inferred_bookings over /mcp: with a sandbox key, free and the same data as GET
// /v1/history/bookings; its text names the method, the counts and the sample, lists the bookings,
// and under minConfidence says which nights it answered unknown; bad arguments are tool errors
// carrying the API's typed error.
import { describe, expect, it } from 'vitest';
import type { BookingInferenceView } from '../../src/core/schemas/history.js';
import { textOf } from './helpers.js';
import { sandboxMcpApp } from './sandbox-app.js';

describe('get_inferred_bookings (a sandbox key over /mcp)', () => {
  const app = sandboxMcpApp();
  const args = { platform: 'airbnb', listingId: '62959578', from: '2027-06-01', to: '2027-07-01', method: 'calendar-diff/2' };
  const query = 'platform=airbnb&listingId=62959578&from=2027-06-01&to=2027-07-01&method=calendar-diff/2';

  it('is listed read-only, answers as REST does, free, and says the method, counts, sample and bookings', async () => {
    const tool = (await app.client.listTools()).tools.find((t) => t.name === 'get_inferred_bookings');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    const r = await app.client.callTool({ name: 'get_inferred_bookings', arguments: args });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent as { data: BookingInferenceView; meta: { creditsCharged: number } };
    expect(body.meta.creditsCharged).toBe(0);
    const rest = (await (await app.s.req(`/v1/history/bookings?${query}`, { key: app.acct.sandboxKey })).json()) as { data: BookingInferenceView };
    expect(body.data).toEqual(rest.data);
    const d = body.data;
    expect(d.bookings.length).toBeGreaterThan(0);
    const text = textOf(r);
    expect(text).toContain(`airbnb 62959578, nights 2027-06-01 to 2027-07-01, by method calendar-diff/2: ${d.counts.booked} booked (a guest), ${d.counts.blocked} blocked (the host)`);
    expect(text).toContain(`From ${d.sample.observations} observations: ${d.sample.nights} nights of the window observed`);
    for (const b of d.bookings) expect(text).toContain(`- ${b.checkIn} to ${b.checkOut} (${b.nights} night`);
  });

  it('under minConfidence says which nights it answered unknown; bad arguments are typed tool errors', async () => {
    const all = (await app.client.callTool({ name: 'get_inferred_bookings', arguments: args })).structuredContent as { data: BookingInferenceView };
    // Above the surest night's confidence: every observed night is answered unknown, its state kept as likely.
    const r = await app.client.callTool({ name: 'get_inferred_bookings', arguments: { ...args, minConfidence: 1 } });
    const d = (r.structuredContent as { data: BookingInferenceView }).data;
    const unsure = all.data.nights.filter((n) => n.state !== 'unknown' && n.confidence < 1);
    expect(unsure.length).toBeGreaterThan(0);
    expect(d.nights.filter((n) => n.likely !== null).map((n) => n.date)).toEqual(unsure.map((n) => n.date));
    expect(textOf(r)).toContain(`${unsure.length} nights less than 1 sure answered unknown`);
    for (const bad of [
      { ...args, minConfidence: 2 },
      { ...args, method: 'guess' },
      { ...args, to: '2027-05-01' },
    ]) {
      const e = await app.client.callTool({ name: 'get_inferred_bookings', arguments: bad });
      expect(e.isError).toBe(true);
      expect((e.structuredContent as { error: { type: string } }).error.type).toBe('invalid_request');
    }
  });
});
