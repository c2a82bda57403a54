// A local fake of the public service that speaks this API (shared/spec/peer), for checking that
// our client and CLI work against it. Its answers are the *least* its OpenAPI document allows:
// only required fields, null wherever null is allowed, empty nested arrays. That is the shape a
// client is most likely to trip on, and one our own server never sends.
import { existsSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

type Schema = Record<string, unknown> & { $ref?: string; type?: string | string[]; required?: string[]; properties?: Record<string, Schema> };

/** The peer's OpenAPI document, where CI puts it (../shared beside the clone). */
export const PEER_SPEC = resolve(import.meta.dirname, '../../../shared/spec/peer/stayingapi-openapi.json');
/** Whether the peer's OpenAPI document is beside the clone (../shared: CI has it, a user's clone does not); tests of the peer skip without it. */
export const PEER_SPEC_AVAILABLE = existsSync(PEER_SPEC);
type Doc = { components: { schemas: Record<string, Schema> }; paths: Record<string, unknown> };
let loaded: Doc | undefined;
/** The peer's document, read on first use. */
const spec = (): Doc => (loaded ??= JSON.parse(readFileSync(PEER_SPEC, 'utf8')) as Doc);

function deref(s: Schema): Schema {
  return s.$ref ? deref(spec().components.schemas[s.$ref.replace('#/components/schemas/', '')]!) : s;
}

function minimalString(s: Schema): string {
  const pattern = String(s.pattern ?? '');
  if (s.format === 'uri') return 'https://example.com/x';
  if (pattern.includes('\\d{4}-\\d{2}-\\d{2}')) return '2027-03-01';
  if (pattern === '^[A-Z]{3}$') return 'USD';
  if (pattern === '^[a-z]{2}$') return 'en';
  if (pattern.startsWith('^req_')) return `req_${'0'.repeat(26)}`;
  return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
}

/** The least instance of a schema of the peer's document. */
function minimal(schema: Schema): unknown {
  const s = deref(schema);
  const options = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (options) return options.some((o) => deref(o).type === 'null') ? null : minimal(options[0]!);
  if (s.allOf) return Object.assign({}, ...(s.allOf as Schema[]).map((p) => minimal(p)));
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? (s.type.includes('null') ? 'null' : s.type[0]) : s.type;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : Number(s.minimum ?? 0);
    case 'string':
      return minimalString(s);
    case 'array':
      return [];
    case 'object':
    case undefined:
      return Object.fromEntries((s.required ?? []).map((k) => [k, minimal(s.properties?.[k] ?? {})]));
    default:
      throw new Error(`no minimal value for type ${String(type)}`);
  }
}

const schema = (name: string) => spec().components.schemas[name]!;
/** One least item, with the nested arrays a caller reads (compare offers, availability dates) holding one least element. */
function item(name: string): Record<string, unknown> {
  const v = minimal(schema(name)) as Record<string, unknown>;
  const props = deref(schema(name)).properties ?? {};
  for (const k of ['offers', 'dates']) if (k in v) v[k] = [minimal((props[k]!.items ?? {}) as Schema)];
  return v;
}

export interface PeerFake {
  url: string;
  /** Method and path (with query) of every request, in order. */
  requests: string[];
  /** What the fake answers for each operation (the data of its envelope). */
  data: Record<'search' | 'listing' | 'price' | 'compare' | 'availability' | 'reviews' | 'account', unknown>;
  close(): Promise<void>;
}

export async function startPeerFake(): Promise<PeerFake> {
  const meta = minimal(schema('Meta'));
  const data = {
    search: [item('Property')],
    listing: item('Property'),
    price: item('Price'),
    compare: item('PriceCompare'),
    availability: [item('Availability')],
    reviews: [item('Review')],
    account: minimal(schema('Account')),
  };
  const requests: string[] = [];
  const polls = new Map<string, number>();
  let jobs = 0;
  const error = (status: number, type: string, code: string, message: string) => ({
    status,
    body: { error: { type, code, message, requestId: `req_${'1'.repeat(26)}`, creditsCharged: 0, retryable: false, docUrl: `https://stayingapi.com/docs/errors/${code}` } },
  });
  const jobMeta = { requestId: `req_${'2'.repeat(26)}`, creditsCharged: 0, platforms: ['airbnb'] };

  const answer = (req: IncomingMessage): { status: number; body: unknown; headers?: Record<string, string> } => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.headers.authorization !== 'Bearer stay_live_peer') return error(401, 'authentication_error', 'invalid_api_key', 'Invalid API key.');
    const p = url.pathname;
    if (p === '/v1/search') return { status: 200, body: { data: data.search, meta } };
    if (p === '/v1/price') return { status: 200, body: { data: data.price, meta } };
    if (p === '/v1/price-compare') return { status: 200, body: { data: data.compare, meta } };
    if (p === '/v1/availability') return { status: 200, body: { data: data.availability, meta } };
    if (p === '/v1/reviews') return { status: 200, body: { data: data.reviews, meta } };
    if (p === '/v1/account') return { status: 200, body: { data: data.account } };
    // Listings go async, as the peer does past its 8 s threshold: 202, one poll in progress, then done.
    const listing = /^\/v1\/listing\/(\w+)\/([^/]+)$/.exec(p);
    if (listing) {
      const jobId = `job_${listing[2] === 'fails' ? 'fails' : 'listing'}${++jobs}`;
      return { status: 202, headers: { 'retry-after': '0' }, body: { data: { jobId, status: 'pending', pollUrl: `/v1/jobs/${jobId}`, estimatedSeconds: 1 }, meta: jobMeta } };
    }
    const job = /^\/v1\/jobs\/(job_\w+)$/.exec(p);
    if (job) {
      const n = (polls.get(job[1]!) ?? 0) + 1;
      polls.set(job[1]!, n);
      if (n === 1) return { status: 200, headers: { 'retry-after': '0' }, body: { data: { jobId: job[1], status: 'running', pollUrl: p, estimatedSeconds: 1 }, meta: jobMeta } };
      if (job[1]!.startsWith('job_fails')) {
        return {
          status: 200,
          body: { data: { jobId: job[1], status: 'failed', error: { type: 'upstream_unavailable', code: 'all_actors_failed', message: 'Every source failed.', retryable: true } }, meta: jobMeta },
        };
      }
      return { status: 200, body: { data: { jobId: job[1], status: 'completed', result: data.listing }, meta } };
    }
    return error(404, 'not_found', 'listing_not_found', 'No such route.');
  };

  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      const a = answer(req);
      res.writeHead(a.status, { 'content-type': 'application/json', 'x-request-id': `req_${'3'.repeat(26)}`, ...a.headers });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    data,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
