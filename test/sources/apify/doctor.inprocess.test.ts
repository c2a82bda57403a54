// `stays doctor` against the fake: the token, each configured actor (exists, build, input schema
// against our mapping) and the table of what serves each platform and need, without starting a
// run (only GETs reach the platform).
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineDoctor } from '../../../commands/doctor.js';
import { loadConfig } from '../../../src/config.js';
import { type DoctorReport, checkInput, doctor, doctorText } from '../../../src/sources/apify/doctor.js';
import { type ApifyFake, startApifyFake } from '../../fakes/apify/server.js';

let fake: ApifyFake;
beforeAll(async () => {
  fake = await startApifyFake();
  fake.actor({
    name: 'tri_angle~airbnb-scraper',
    id: 'GsNzxEKzE2vQ5d9HN',
    buildNumber: '0.0.93',
    inputSchema: {
      required: ['locationQueries'],
      properties: {
        locationQueries: { type: 'array' },
        locale: { type: 'string' },
        currency: { type: 'string' },
        checkIn: { type: 'string' },
        checkOut: { type: 'string' },
        adults: { type: 'integer' },
        children: { type: 'integer' },
        maxItems: { type: 'integer' },
      },
    },
  });
  // A schema that needs a field we never send.
  fake.actor({ name: 'voyager~booking-scraper', id: 'oeiQgfg5fsmIJB7Cn', buildNumber: '1.2.3', inputSchema: { required: ['search', 'proxyConfig'], properties: { search: { type: 'string' } } } });
  fake.actor({ name: 'jupri~vrbo-property', id: 'kRRC9n6Rv5lEcE3b3', buildNumber: '4.0.1' });
});
afterAll(() => fake.close());
afterEach(() => vi.unstubAllEnvs());

const env = (o: Record<string, string> = {}) => ({
  STAYS_UPSTREAM: 'apify',
  STAYS_APIFY_TOKEN: fake.token,
  STAYS_APIFY_BASE_URL: fake.url,
  STAYS_ACTORS: JSON.stringify({ airbnb: { search: ['tri_angle~airbnb-scraper'] } }),
  ...o,
});
const row = (r: DoctorReport, platform: string, need: string, rank = 1) => r.rows.find((x) => x.platform === platform && x.need === need && x.rank === rank);

describe('stays doctor', () => {
  it('checks the token and every actor without starting a run, and says what serves each need', async () => {
    const before = fake.calls.length;
    const r = await doctor(loadConfig({}, env()));
    expect(r.token).toEqual({ ok: true, user: 'tester', detail: 'accepted' });
    expect(row(r, 'airbnb', 'search')).toMatchObject({ source: 'tri_angle~airbnb-scraper', status: 'ok', build: '0.0.93', mode: 'sync' });
    expect(row(r, 'booking', 'search')).toMatchObject({ status: 'input_rejected', detail: expect.stringMatching(/needs proxyConfig/) });
    expect(row(r, 'vrbo', 'listing')).toMatchObject({ status: 'warning', build: '4.0.1' });
    expect(row(r, 'airbnb', 'reviews')).toMatchObject({ source: 'tri_angle~airbnb-reviews-scraper', status: 'missing' });
    // The capability as calls see it (issue 22, item 7): refused up front, and why.
    expect(row(r, 'booking', 'availability')).toMatchObject({ status: 'not_configured', detail: expect.stringMatching(/not with calendar days.*refused up front \(400 platform_not_enabled, free\)/) });
    expect(row(r, 'google', 'compare')).toMatchObject({ source: 'martin.forejt~google-hotels-scraper' });
    expect(r.ok).toBe(false);
    expect(fake.calls.slice(before).every((c) => c.method === 'GET')).toBe(true);
    expect(doctorText(r)).toMatch(/^PLATFORM\s+NEED\s+#\s+SOURCE\s+STATUS\s+BUILD\s+MODE\s+DETAIL$/m);
  });

  it('a refused token: the CLI prints the report and exits 4, never echoing the token', async () => {
    for (const [k, v] of Object.entries(env({ STAYS_APIFY_TOKEN: 'apify_api_wrong_secret' }))) vi.stubEnv(k, v);
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const program = new Command().exitOverride();
    defineDoctor(program);
    try {
      await program.parseAsync(['node', 'stays', 'doctor', '--json']);
    } finally {
      write.mockRestore();
    }
    const report = JSON.parse(out.join('')) as DoctorReport;
    expect(report.token).toMatchObject({ ok: false, detail: 'refused (invalid-token)' });
    expect(process.exitCode).toBe(4);
    expect(out.join('')).not.toContain('apify_api_wrong_secret');
    process.exitCode = 0;
  });

  it('other upstreams: a table of the built-in source', async () => {
    const r = await doctor(loadConfig({}, { STAYS_UPSTREAM: 'simulated' }));
    expect(r).toMatchObject({ upstream: 'simulated', token: null, ok: true });
    expect(new Set(r.rows.map((x) => x.source))).toEqual(new Set(['simulated']));
  });

  it('checkInput: required fields, types, enums; unknown fields are notes', () => {
    expect(checkInput({ required: ['a'], properties: { b: { type: 'integer' }, c: { type: 'string', enum: ['x'] } } }, { b: 'two', c: 'y', d: 1 })).toEqual({
      problems: ['needs a, which we do not send', 'b is integer in its schema, we send string', 'c must be one of "x"'],
      notes: ['d'],
    });
    expect(checkInput({ properties: { x: { type: 'string' } } }, { a: 1 }).problems).toEqual(['its schema knows none of our fields (a)']);
  });
});
