// Black box: `stays serve` with STAYS_UPSTREAM=apify and STAYS_APIFY_BASE_URL at the local fake
// of the platform API. A live search fans out to one actor per platform, the job's meta names
// the actor that served each leg, and the balance drops by exactly the summed credits; a platform
// whose actor is blocked is a free failed leg; a listing the actor does not find is a free error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTORS, FIXTURES, IDS } from '../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../fakes/apify/server.js';
import { pollJob } from '../helpers/jobs.js';
import { type Stays, type TestAccount, day, startStays } from '../helpers/stays.js';
import { actorsSetting } from '../sources/apify/helpers.js';

let fake: ApifyFake;
let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  fake = await startApifyFake({ syncLimitMs: 2_000 });
  s = await startStays({
    STAYS_UPSTREAM: 'apify',
    STAYS_APIFY_TOKEN: fake.token,
    STAYS_APIFY_BASE_URL: fake.url,
    STAYS_APIFY_RETRIES: '0',
    STAYS_ACTORS: actorsSetting(),
  });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await s?.stop();
  await fake?.close();
});

type Credits = { balance: number; held: number };
const credits = async () => ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: Credits } }).data.credits;
type Result = { platform: string; status: string; creditsCharged: number; source?: string; error?: { code: string } };

describe('stays serve over the scraping platform (fake)', () => {
  it('a live search: each platform served by its actor, charged the summed credits, the token never in the log', async () => {
    for (const p of ['airbnb', 'booking', 'google'] as const) fake.script(ACTORS[p].search!, { kind: 'items', items: FIXTURES[p].search!.normal });
    // A block the actor reports in its rows (an empty dataset of a dated search is an empty answer: below).
    fake.script(ACTORS.vrbo.search!, { kind: 'items', items: [{ error: 'Request blocked: captcha challenge (403)' }] });
    const before = await credits();
    const res = await s.req(`/v1/search?location=Prague&checkIn=${day(40)}&checkOut=${day(42)}&limit=5`, { key: a.liveKey });
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as { data: { jobId: string } };
    const job = await pollJob(s, a.liveKey, data.jobId);
    expect(job.data.status).toBe('completed');
    const results = job.meta.platformResults as Result[];
    const by = Object.fromEntries(results.map((r) => [r.platform, r]));
    expect(by.airbnb).toMatchObject({ status: 'ok', source: 'tri_angle~airbnb-scraper' });
    expect(by.booking).toMatchObject({ status: 'ok', source: 'voyager~booking-scraper' });
    expect(by.google).toMatchObject({ status: 'ok', source: 'martin.forejt~google-hotels-scraper' });
    expect(by.vrbo).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'actor_blocked' } });
    expect(by.vrbo!.source).toBeUndefined();
    expect(job.meta.partial).toBe(true);
    const summed = results.reduce((n, r) => n + r.creditsCharged, 0);
    expect(summed).toBeGreaterThan(0);
    expect(job.meta.creditsCharged).toBe(summed);
    expect(await credits()).toMatchObject({ balance: before.balance - summed, held: 0 });
    expect(job.meta.warnings?.map((w) => w.code) ?? []).not.toContain('simulated_upstream');
    // The 19-digit airbnb id survives as a string.
    expect((job.data.result as { platformListingId: string }[]).map((r) => r.platformListingId)).toContain(IDS.airbnb);
    // Each actor got its input over Bearer auth; the server logged each run without the token.
    expect(fake.calls.filter((c) => c.path.endsWith('/run-sync-get-dataset-items')).every((c) => c.auth === 'bearer')).toBe(true);
    expect(s.stdout()).toContain('upstream source');
    expect(s.stdout()).not.toContain(fake.token);
  });

  it('a dated search the actors succeed on with no rows is an empty answer, not an outage; undated, a block (issue 36, item 6)', async () => {
    for (const p of ['airbnb', 'booking', 'vrbo', 'google'] as const) fake.script(ACTORS[p].search!, { kind: 'empty' });
    const before = await credits();
    const res = await s.req(`/v1/search?location=Tiny%20Hamlet&checkIn=${day(50)}&checkOut=${day(51)}&adults=6&limit=5`, { key: a.liveKey });
    expect(res.status).toBe(202);
    const job = await pollJob(s, a.liveKey, ((await res.json()) as { data: { jobId: string } }).data.jobId);
    expect(job.data.status, JSON.stringify(job.data)).toBe('completed');
    expect(job.data.result).toEqual([]);
    expect(job.meta.partial).toBe(false);
    for (const r of job.meta.platformResults as unknown as (Result & { count: number })[]) expect(r).toMatchObject({ status: 'ok', count: 0 });
    // The runs were paid for: an empty answer is an answer.
    expect((await credits()).balance).toBe(before.balance - job.meta.creditsCharged);

    const wide = await s.req('/v1/search?location=Tiny%20Hamlet&platforms=airbnb&limit=5', { key: a.liveKey, headers: { prefer: 'wait=15' } });
    const body = (await wide.json()) as { error?: { code: string; message: string; creditsCharged: number } };
    expect(wide.status, JSON.stringify(body)).toBe(503);
    expect(body.error).toMatchObject({ code: 'upstream_degraded', creditsCharged: 0 });
    expect(body.error!.message).toContain('actor_blocked');
  });

  it('a price served by the listing actor; a listing it does not find is a free listing_not_found', async () => {
    fake.script(ACTORS.airbnb.price!, { kind: 'items', items: FIXTURES.airbnb.price!.normal });
    const before = await credits();
    const res = await s.req(`/v1/price?platform=airbnb&listingId=${IDS.airbnb}&checkIn=${day(40)}&checkOut=${day(42)}`, { key: a.liveKey, headers: { prefer: 'wait=15' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { listingId: string }; meta: { creditsCharged: number; platformResults: Result[] } };
    expect(body.data.listingId).toBe(IDS.airbnb);
    expect(body.meta.platformResults[0]).toMatchObject({ status: 'ok', source: 'tri_angle~airbnb-rooms-urls-scraper' });
    expect((await credits()).balance).toBe(before.balance - body.meta.creditsCharged);

    fake.script(ACTORS.booking.listing!, { kind: 'items', items: [{ status: 'not_found' }] });
    const mid = await credits();
    const nf = await s.req('/v1/listing/booking/cz%2Fgone-hotel', { key: a.liveKey, headers: { prefer: 'wait=15' } });
    const err = (await nf.json()) as { error: { code: string; creditsCharged: number } };
    expect(nf.status).toBe(404);
    expect(err.error, JSON.stringify(err)).toMatchObject({ code: 'listing_not_found', creditsCharged: 0 });
    expect(await credits()).toMatchObject({ balance: mid.balance, held: 0 });
  });
});
