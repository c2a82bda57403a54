// A small stand-in for a service that answers with 202 jobs (D17/D18), on loopback: each
// scenario is chosen by the search `location`. It records every request so tests can check the
// client's polling and retry timing.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  at: number;
}

export interface FakeJobs {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const ROW = {
  id: 'stays_airbnb_12345678',
  platform: 'airbnb',
  platformListingId: '12345678',
  url: 'https://www.airbnb.com/rooms/12345678',
  name: 'Fake flat',
  propertyType: 'apartment',
  location: { lat: 1, lng: 2, city: 'Lisbon', region: null, country: 'PT', address: null },
  starRating: null,
  guestRating: 4.8,
  ratingScale: 5,
  reviewCount: 3,
  maxOccupancy: 2,
  bedrooms: 1,
  bathrooms: 1,
  amenities: [],
  images: [],
  host: null,
  price: null,
};
const meta = (n: number) => ({
  requestId: `req_FAKE${String(n).padStart(22, '0')}`,
  environment: 'live',
  sandbox: false,
  platforms: ['airbnb'],
  cached: false,
  partial: false,
  creditsCharged: 5,
  currency: 'USD',
  pagination: null,
  platformResults: [],
  warnings: [],
});
const jobMeta = (n: number) => ({ requestId: `req_FAKE${String(n).padStart(22, '0')}`, creditsCharged: 0, platforms: ['airbnb'] });
const error = (type: string, code: string, message: string, retryable = false) => ({ type, code, message, retryable });

export async function startFakeJobs(): Promise<FakeJobs> {
  const seen: Seen[] = [];
  const polls = new Map<string, number>();
  let n = 0;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_FAKE${String(++n).padStart(22, '0')}`, ...headers });
    res.end(JSON.stringify(body));
  };
  const accepted = (res: ServerResponse, jobId: string, retryAfter = '1') =>
    send(res, 202, { data: { jobId, status: 'pending', pollUrl: `/v1/jobs/${jobId}`, estimatedSeconds: 1 }, meta: jobMeta(n) }, { 'retry-after': retryAfter });
  let rateLimited = 0;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? 'GET', url: url.pathname + url.search, auth: req.headers.authorization, at: Date.now() });
    if (url.pathname === '/v1/search') {
      const where = url.searchParams.get('location') ?? '';
      if (where === 'boom')
        return send(res, 500, {
          error: { ...error('internal_error', 'internal_error', 'Fake failure.'), param: null, requestId: 'req_FAKE', creditsCharged: 0, docUrl: 'https://stays.dev/docs/errors/internal_error' },
        });
      if (where === 'busy-once' && rateLimited++ === 0) return send(res, 429, { error: { ...error('rate_limited', 'rate_limit_exceeded', 'Slow down.', true), param: null } }, { 'retry-after': '1' });
      if (where === 'busy') return send(res, 429, { error: { ...error('rate_limited', 'rate_limit_exceeded', 'Slow down.', true), param: null } }, { 'retry-after': '1' });
      if (where === 'busy-once') return send(res, 200, { data: [ROW], meta: meta(n) });
      return accepted(res, `job_${where}`);
    }
    const m = /^\/v1\/jobs\/(job_[\w-]+)$/.exec(url.pathname);
    if (m) {
      const jobId = m[1]!;
      const count = (polls.get(jobId) ?? 0) + 1;
      polls.set(jobId, count);
      const running = () => send(res, 200, { data: { jobId, status: 'running', pollUrl: `/v1/jobs/${jobId}`, estimatedSeconds: 1 }, meta: jobMeta(n) }, { 'retry-after': '1' });
      if (jobId === 'job_slow') return running();
      if (count < 2) return running();
      if (jobId === 'job_fails')
        return send(res, 200, { data: { jobId, status: 'failed', error: error('upstream_timeout', 'actor_timeout', 'The upstream work timed out without data.', true) }, meta: jobMeta(n) });
      if (jobId === 'job_missing')
        return send(res, 200, { data: { jobId, status: 'failed', error: error('not_found', 'listing_not_found', 'The listing does not exist upstream.') }, meta: jobMeta(n) });
      return send(res, 200, { data: { jobId, status: 'completed', result: [ROW] }, meta: meta(n) });
    }
    return send(res, 404, { error: { ...error('not_found', 'route_not_found', 'No such route.'), param: null } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
