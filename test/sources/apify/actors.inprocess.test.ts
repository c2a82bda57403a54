// STAYS_ACTORS over the documented defaults (JSON text or a file), per-actor options, and the
// settings that select and point the apify sources.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { defaultActors, resolveActors } from '../../../src/sources/apify/actors.js';
import { createRuntime } from '../../../src/runtime.js';
import { tempDir } from '../../helpers/stays.js';

describe('STAYS_ACTORS', () => {
  it('unset: the documented defaults, under the 300 s sync cut-off', () => {
    const t = resolveActors(undefined);
    expect(t).toEqual(defaultActors());
    expect(t.airbnb.search[0]).toMatchObject({ id: 'tri_angle~airbnb-scraper', timeoutSecs: 240, memoryMbytes: 4096 });
    expect(t.booking.availability).toEqual([]);
  });

  it('a need named replaces its list (slashes become tildes); per-actor options apply wherever the actor is listed', () => {
    const t = resolveActors(
      JSON.stringify({
        airbnb: { search: ['me/airbnb', { id: 'tri_angle~airbnb-scraper', build: '0.0.61' }], availability: [] },
        actors: { 'voyager/booking-scraper': { timeoutSecs: 600, memoryMbytes: 2048 } },
      }),
    );
    expect(t.airbnb.search).toEqual([
      { id: 'me~airbnb', timeoutSecs: 240 },
      { id: 'tri_angle~airbnb-scraper', timeoutSecs: 240, build: '0.0.61' },
    ]);
    expect(t.airbnb.availability).toEqual([]);
    expect(t.airbnb.reviews).toEqual(defaultActors().airbnb.reviews);
    for (const need of ['search', 'listing', 'price'] as const) expect(t.booking[need][0]).toMatchObject({ id: 'voyager~booking-scraper', timeoutSecs: 600, memoryMbytes: 2048 });
  });

  it('a file path', () => {
    const f = join(tempDir(), 'actors.json');
    writeFileSync(f, JSON.stringify({ vrbo: { reviews: ['someone~vrbo-reviews'] } }));
    expect(resolveActors(f).vrbo.reviews).toEqual([{ id: 'someone~vrbo-reviews', timeoutSecs: 240 }]);
  });

  it.each([
    ['{"airbnb":{"search":"x~y"}}', /airbnb\.search/],
    ['{"airbnb":{"searches":["x~y"]}}', /airbnb/],
    ['{"expedia":{}}', /top|expedia/],
    ['{"airbnb":{"search":["not an id"]}}', /owner~name/],
    ['{"actors":{"x~y":{"memoryMbytes":1000}}}', /power of 2/],
    ['{nope', /STAYS_ACTORS/],
    ['/no/such/actors.json', /not a JSON object and not a readable file/],
  ])('refuses %s', (setting, message) => {
    expect(() => resolveActors(setting)).toThrow(ConfigError);
    expect(() => resolveActors(setting)).toThrow(message);
  });
});

describe('settings', () => {
  it('STAYS_UPSTREAM=apify with its defaults; the base URL without a trailing /v2', () => {
    const c = loadConfig({}, { STAYS_UPSTREAM: 'apify', STAYS_APIFY_TOKEN: 't', STAYS_APIFY_BASE_URL: 'http://127.0.0.1:9/v2/' });
    expect(c).toMatchObject({ upstream: 'apify', apifyToken: 't', apifyBaseUrl: 'http://127.0.0.1:9', apifyRetries: 2 });
    expect(loadConfig({}, {}).apifyBaseUrl).toBe('https://api.apify.com');
    expect(() => loadConfig({}, { STAYS_APIFY_RETRIES: '20' })).toThrow(/STAYS_APIFY_RETRIES/);
  });

  it('apify without a token is a configuration error naming the setting', () => {
    expect(() => createRuntime({ config: { dataDir: tempDir() }, env: { STAYS_UPSTREAM: 'apify' } })).toThrow(/STAYS_APIFY_TOKEN/);
  });

  it('the runtime composes the apify upstream without loading the client', async () => {
    const rt = createRuntime({ config: { dataDir: tempDir() }, env: { STAYS_UPSTREAM: 'apify', STAYS_APIFY_TOKEN: 't' } });
    try {
      expect(rt.upstream).toMatchObject({ name: 'apify', simulated: false });
    } finally {
      await rt.close();
    }
  });
});
