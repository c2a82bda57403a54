// Booking (and google) availability on the scraping platform (issue 22, item 7): the documented
// booking actor answers with a hotel and its rooms for one stay, never calendar days, so no
// default actor serves booking calendars. `stays serve` with STAYS_UPSTREAM=apify and the default
// actor table refuses such a call up front: 400 platform_not_enabled (not retryable), saying why,
// nothing held or charged, no actor run and no job. A platform whose calendar actor exists still
// runs it. Doctor lists the capability the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveActors } from '../../src/sources/apify/actors.js';
import { ACTORS, FIXTURES, IDS } from '../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../fakes/apify/server.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';
import { upstreamOver } from '../sources/apify/helpers.js';

let fake: ApifyFake;
let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  fake = await startApifyFake({ syncLimitMs: 2_000 });
  // The documented defaults (no STAYS_ACTORS), served by the fake.
  s = await startApp({ STAYS_UPSTREAM: 'apify', STAYS_APIFY_TOKEN: fake.token, STAYS_APIFY_BASE_URL: fake.url, STAYS_APIFY_RETRIES: '0' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
});
afterAll(async () => {
  await s?.stop();
  await fake?.close();
});

type Credits = { balance: number; held: number };
const credits = async () => ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: Credits } }).data.credits;
const runs = () => fake.calls.filter((c) => c.method === 'POST').length;
type ErrorBody = { error: { type: string; code: string; message: string; param: string | null; retryable: boolean; creditsCharged: number } };

describe("availability a platform's actors cannot serve", () => {
  for (const platform of ['booking', 'google'] as const) {
    it(`${platform}: refused up front, free, not retryable, no actor run, no job`, async () => {
      const before = await credits();
      const started = runs();
      const res = await s.req(`/v1/availability?platform=${platform}&listingId=${encodeURIComponent(IDS[platform])}&startDate=${day(40)}&endDate=${day(50)}`, {
        key: a.liveKey,
        headers: { prefer: 'wait=15' },
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body.error).toMatchObject({ type: 'invalid_request', code: 'platform_not_enabled', param: 'platform', retryable: false, creditsCharged: 0 });
      expect(body.error.message).toContain(`${platform} availability is not available on this server's upstream`);
      expect(body.error.message).toContain('not with calendar days');
      expect(runs()).toBe(started);
      expect(await credits()).toEqual(before);
      const jobs = (await (await s.req('/v1/jobs', { key: a.liveKey })).json()) as { data: unknown[] };
      expect(jobs.data).toEqual([]);
    });
  }

  it('vrbo, whose actor returns calendar days, still runs it', async () => {
    fake.script(ACTORS.vrbo.availability!, { kind: 'items', items: FIXTURES.vrbo.availability!.normal });
    const started = runs();
    const res = await s.req(`/v1/availability?platform=vrbo&listingId=${IDS.vrbo}&startDate=${day(40)}&endDate=${day(42)}`, { key: a.liveKey, headers: { prefer: 'wait=15' } });
    expect([200, 202]).toContain(res.status);
    expect(runs()).toBeGreaterThan(started);
  });

  it('STAYS_ACTORS may not name the booking scraper for booking availability', () => {
    expect(() => resolveActors(JSON.stringify({ booking: { availability: ['voyager~booking-scraper'] } }))).toThrow(
      /STAYS_ACTORS at booking\.availability: voyager~booking-scraper cannot serve availability: .*not with calendar days/,
    );
    // A calendar actor of one's own is fine.
    expect(resolveActors(JSON.stringify({ booking: { availability: ['me~booking-calendar'] } })).booking.availability.map((x) => x.id)).toEqual(['me~booking-calendar']);
  });

  it('a configured calendar actor answering with a hotel row, not days, is all_actors_failed, never actor_blocked', async () => {
    const u = upstreamOver(fake);
    fake.script(ACTORS.booking.availability!, { kind: 'items', items: FIXTURES.booking.listing!.normal });
    const e = await u.availability('booking', IDS.booking, '2026-11-06', '2026-11-08').then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ code: 'all_actors_failed' });
    expect((e as Error).message).toContain('without calendar days');
  });
});
