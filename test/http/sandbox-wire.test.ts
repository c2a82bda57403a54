// The sandbox search's answer on the wire of a real `stays serve`: a memoised page is kept as
// bytes around its request id and written to the Node response in parts (src/http/render.ts), so
// only a real server shows it is still the one JSON document, with the right length and headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays();
  a = await s.account({ rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const get = (path: string) => s.req(path, { key: a.sandboxKey });

describe('sandbox search on the wire', () => {
  it('search: a repeated page (kept as bytes, written in parts) is the same answer but for its request id', async () => {
    // With a warning (its docUrl is written per request base) and without.
    for (const q of ['/v1/search?location=Braga&limit=6', '/v1/search?location=Braga&limit=6&platforms=vrbo,expedia']) {
      const answers = [];
      for (let i = 0; i < 3; i++) {
        const r = await get(q);
        const text = await r.text();
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/json');
        expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(text));
        expect(r.headers.get('x-ratelimit-limit')).toBe('100000');
        // The bytes JSON.stringify({ data, meta }) gives, as for any other answer.
        const body = JSON.parse(text) as { data: unknown; meta: { requestId: string; warnings: { docUrl: string }[] } };
        expect(Object.keys(body)).toEqual(['data', 'meta']);
        expect(text).toBe(JSON.stringify(body));
        expect(body.meta.requestId).toBe(r.headers.get('x-request-id'));
        if (q.includes('expedia')) expect(body.meta.warnings[0]!.docUrl).toBe(`${s.url}/docs/warnings/platform_not_enabled`);
        answers.push(text.replace(body.meta.requestId, 'req_X'));
      }
      expect(new Set(answers).size).toBe(1);
    }
  });
});
