// Malformed HTTP over raw TCP (issue 8, item 7): whatever bytes arrive, `stays serve` answers with
// the JSON error envelope and a request id (X-Request-Id equal to error.requestId), never 5xx,
// never plain text, never an empty reply, and charges nothing. Deterministic cases first, then
// generated ones (fast-check); the count feeds the figure in docs/benchmarks.md.
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';

let s: Stays;
let a: TestAccount;
let port: number;
beforeAll(async () => {
  s = await startStays({ STAYS_ANON_RPM: '100000000' });
  a = await s.account({ plan: 'free', rpm: 100_000_000, credits: 100 });
  port = Number(new URL(s.url).port);
});
afterAll(async () => {
  await s.stop();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes the bytes, half-closes, and collects everything the server sends until it closes. */
function send(bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sock = connect(port, '127.0.0.1', () => sock.end(bytes));
    sock.on('data', (d: Buffer) => chunks.push(d));
    // A reset after the answer (the server closing on unread bytes) loses nothing already read.
    sock.on('error', () => {});
    sock.on('close', () => resolve(Buffer.concat(chunks)));
    sock.setTimeout(20_000, () => {
      sock.destroy();
      reject(new Error('no answer within 20 s'));
    });
  });
}

/** Every response in the reply (interim 1xx dropped); throws on bytes that are not HTTP/1.1 responses. */
function parseReply(reply: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < reply.length) {
    const end = reply.indexOf('\r\n\r\n', at);
    if (end === -1) throw new Error(`incomplete head: ${JSON.stringify(reply.subarray(at, at + 300).toString('latin1'))}`);
    const [statusLine, ...lines] = reply.subarray(at, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine!);
    if (!m) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
    }
    at = end + 4;
    const status = Number(m[1]);
    if (status < 200) continue;
    let body: Buffer;
    if (headers['content-length'] !== undefined) {
      body = reply.subarray(at, at + Number(headers['content-length']));
      at += body.length;
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const eol = reply.indexOf('\r\n', at);
        const size = parseInt(reply.subarray(at, eol).toString('latin1'), 16);
        at = eol + 2;
        if (!(size > 0)) break;
        parts.push(reply.subarray(at, at + size));
        at += size + 2;
      }
      at += 2;
      body = Buffer.concat(parts);
    } else {
      body = reply.subarray(at);
      at = reply.length;
    }
    out.push({ status, headers, body: body.toString('utf8') });
  }
  return out;
}

let requests = 0;

/** The rules every answer keeps, whatever was sent. */
async function sendChecked(bytes: Buffer): Promise<RawResponse[]> {
  requests++;
  const where = JSON.stringify(bytes.subarray(0, 300).toString('latin1'));
  const reply = await send(bytes);
  const responses = parseReply(reply);
  expect(responses.length, `empty reply to ${where}`).toBeGreaterThan(0);
  for (const r of responses) {
    const what = `${where} → ${r.status} ${r.body.slice(0, 300)}`;
    expect(r.status, what).toBeLessThan(500);
    expect(r.headers['content-type'], what).toMatch(/^application\/json/);
    expect(r.headers['x-request-id'], what).toMatch(REQUEST_ID_PATTERN);
    const body = JSON.parse(r.body) as { meta?: { creditsCharged?: number } };
    if (r.status >= 400) {
      const e = ErrorEnvelopeSchema.parse(body).error;
      expect(e.requestId, what).toBe(r.headers['x-request-id']);
      expect(e.creditsCharged).toBe(0);
    } else {
      expect(body.meta?.creditsCharged ?? 0, what).toBe(0);
    }
  }
  return responses;
}

const raw = (s: string) => Buffer.from(s, 'latin1');
const H = 'Host: localhost\r\n';

describe('malformed HTTP gets the JSON error envelope', () => {
  const CASES: [name: string, status: number, code: string, bytes: string][] = [
    ['raw space in the path', 400, 'invalid_parameter', `GET /v1/he alth HTTP/1.1\r\n${H}\r\n`],
    ['NUL in the path', 400, 'invalid_parameter', `GET /v1/health\0 HTTP/1.1\r\n${H}\r\n`],
    ['NUL in a header value', 400, 'invalid_parameter', `GET /v1/health HTTP/1.1\r\n${H}X-A: a\0b\r\n\r\n`],
    ['space in a header name', 400, 'invalid_parameter', `GET /v1/health HTTP/1.1\r\n${H}X A: b\r\n\r\n`],
    ['oversized headers', 431, 'request_headers_too_large', `GET /v1/health HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['oversized request line', 431, 'request_headers_too_large', `GET /v1/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\n${H}\r\n`],
    ['unknown HTTP version', 400, 'invalid_parameter', `GET /v1/health HTTP/9.9\r\n${H}\r\n`],
    ['lower-case version', 400, 'invalid_parameter', `GET /v1/health http/1.1\r\n${H}\r\n`],
    ['garbage request line', 400, 'invalid_parameter', 'hello there\r\n\r\n'],
    ['binary garbage', 400, 'invalid_parameter', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03'],
    ['HTTP/2 preface', 400, 'invalid_parameter', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    // With a version, Node's parser wants the rest of the HTTP/2 preface (a parse error); without
    // one it passes the request on and closes the connection right after, so it is answered at once.
    ['PRI as a method', 400, 'invalid_parameter', `PRI /v1/health HTTP/1.1\r\n${H}\r\n`],
    ['PRI without a version (found by the property test below)', 405, 'method_not_allowed', `PRI /v1/healthHTTP/1.1\r\n${H}\r\n`],
    ['headers cut short', 400, 'invalid_parameter', `GET /v1/health HTTP/1.1\r\n${H}X-A: b`],
    ['HTTP/1.1 without Host', 400, 'invalid_parameter', 'GET /v1/health HTTP/1.1\r\n\r\n'],
    ['invalid Host', 400, 'invalid_parameter', 'GET /v1/health HTTP/1.1\r\nHost: a/b c\r\n\r\n'],
    ['Host port out of range', 400, 'invalid_parameter', 'GET /v1/health HTTP/1.1\r\nHost: localhost:99999\r\n\r\n'],
    ['asterisk target', 400, 'invalid_parameter', `GET * HTTP/1.1\r\n${H}\r\n`],
    ['target without a slash', 400, 'invalid_parameter', `GET v1/health HTTP/1.1\r\n${H}\r\n`],
    ['backslash in the path', 400, 'invalid_parameter', `GET /v1\\health HTTP/1.1\r\n${H}\r\n`],
    ['broken absolute URL', 400, 'invalid_parameter', `GET http://[::1/v1/health HTTP/1.1\r\n${H}\r\n`],
    ['Content-Length and chunked', 400, 'invalid_parameter', `POST /v1/search HTTP/1.1\r\n${H}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['negative Content-Length', 400, 'invalid_parameter', `POST /v1/search HTTP/1.1\r\n${H}Content-Length: -1\r\n\r\n`],
    ['bad chunk size', 400, 'invalid_parameter', `POST /v1/search HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nzz\r\n`],
    ['body cut short', 400, 'invalid_parameter', `POST /v1/search HTTP/1.1\r\n${H}Authorization: Bearer {KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"loc`],
    ['unmet Expect', 417, 'invalid_parameter', `GET /v1/health HTTP/1.1\r\n${H}Expect: teapot\r\n\r\n`],
    ['CONNECT', 405, 'method_not_allowed', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ];

  it.each(CASES)('%s → %i %s', async (_name, status, code, bytes) => {
    const [first, ...more] = await sendChecked(raw(bytes.replace('{KEY}', a.sandboxKey)));
    expect(more).toEqual([]);
    expect(first!.status, first!.body).toBe(status);
    expect((JSON.parse(first!.body) as { error: { code: string } }).error.code).toBe(code);
  });

  it('431 names the headers; CONNECT gets Allow; each answer has its own request id', async () => {
    const [big] = await sendChecked(raw(`GET / HTTP/1.1\r\n${H}X-Big: ${'b'.repeat(40_000)}\r\n\r\n`));
    expect((JSON.parse(big!.body) as { error: { param: string } }).error.param).toBe('headers');
    const [conn] = await sendChecked(raw('CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n'));
    expect(conn!.headers.allow).toBe('GET, HEAD, POST');
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await sendChecked(raw('GET /x y HTTP/1.1\r\n\r\n')))[0]!.headers['x-request-id']!);
    expect(ids.size).toBe(5);
  });

  it('well-formed oddities still work: HTTP/1.0 without Host, an IPv4 shorthand Host, absolute-form, no version (0.9 style), pipelining', async () => {
    expect((await sendChecked(raw(`GET /v1/health\r\n${H}\r\n`)))[0]!.status).toBe(200);
    expect((await sendChecked(raw('GET /v1/health HTTP/1.0\r\n\r\n')))[0]!.status).toBe(200);
    expect((await sendChecked(raw('GET /v1/health HTTP/1.1\r\nHost: 127.1:80\r\n\r\n')))[0]!.status).toBe(200);
    expect((await sendChecked(raw(`GET http://localhost/v1/health HTTP/1.1\r\n${H}\r\n`)))[0]!.status).toBe(200);
    const piped = await sendChecked(raw(`GET /v1/health HTTP/1.1\r\n${H}\r\nGET /v1/he alth HTTP/1.1\r\n${H}\r\n`));
    expect(piped.map((r) => r.status)).toEqual([200, 400]);
  });
});

// ---- Generated malformed requests ---------------------------------------------------------------

const byte = fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c));
const bytes = (maxLength: number) => fc.string({ unit: byte, maxLength });
const ascii = (maxLength: number) => fc.string({ maxLength });
/** Mostly the well-formed part, sometimes a hostile one: most requests carry one or two defects. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>, goodWeight = 6) => fc.oneof({ weight: goodWeight, arbitrary: good }, { weight: 1, arbitrary: bad });

const method = mostly(
  fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE'),
  fc.oneof(fc.constantFrom('CONNECT', 'get', 'G ET', 'GET\0', '', 'PRI', 'BREW', 'M-SEARCH', 'PROPFIND', 'GET GET'), bytes(8)),
);
const PATHS = [
  '/v1/health',
  '/v1/search?location=Lisbon&limit=1',
  '/v1/search',
  '/v1/account',
  '/v1/reviews?platform=airbnb&listingId=1',
  '/v1/listing/airbnb/1',
  '/v1/jobs/job_x',
  '/v1/billing/topups',
  '/v1/openapi.json',
  '/',
  '/v2/x',
  '/v1/search?location=%00',
  '/v1/listing/airbnb/1%002',
  '/v1/search?location=L%7F',
];
const target = mostly(
  fc.constantFrom(...PATHS),
  fc.oneof(
    fc.tuple(fc.constantFrom(...PATHS), bytes(12), fc.nat(40)).map(([p, junk, at]) => p.slice(0, at) + junk + p.slice(at)),
    fc.constantFrom(
      '*',
      '',
      'v1/health',
      '//v1//health',
      '/v1/../v1/health',
      '/v1\\health',
      '/%',
      '/?%00',
      'http://localhost/v1/health',
      'http://[::1',
      'https://a b/',
      'HTTP://x/',
      `/v1/search?location=${'a'.repeat(17_000)}`,
    ),
    ascii(40),
  ),
  3,
);
const version = mostly(fc.constant('HTTP/1.1'), fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1', 'http/1.1', 'HTTP/1.10', 'HTTPS/1.1', 'RTSP/1.0', '', 'HTTP/1.1\0'), 8);
const sep = mostly(fc.constant(' '), fc.constantFrom('  ', '\t', ' \0 ', '', '\r'), 10);
const eol = mostly(fc.constant('\r\n'), fc.constantFrom('\n', '\r', '\n\r'), 10);
const host = mostly(
  fc.constantFrom('Host: localhost', 'Host: 127.0.0.1:8787', 'Host: [::1]:8787'),
  fc.constantFrom(
    '',
    'Host: ',
    'Host: a b',
    'Host: x\0y',
    'Host: [zz]',
    'Host: x:99999',
    'Host: 127.1:80',
    'Host: a/b',
    'Host: localhost\r\nHost: other',
    `Host: ${'h'.repeat(300)}`,
    'Host:localhost',
    ' Host: localhost',
  ),
);
const header = mostly(
  fc.constantFrom(
    'Content-Type: application/json',
    'Accept: */*',
    'Connection: keep-alive',
    'Connection: close',
    'Prefer: wait=1',
    'X-Request-Id: mine',
    'Content-Length: 0',
    'Transfer-Encoding: chunked',
    'Expect: 100-continue',
    'Upgrade: websocket',
    'Accept-Encoding: gzip',
  ),
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom('Content-Length', 'Transfer-Encoding', 'Expect', 'Connection', 'Content-Type', 'Upgrade', 'Prefer', 'Authorization', 'Cookie', 'X-A'),
        fc.oneof(
          fc.constantFrom('5', '-1', '99999999999', '1, 2', 'gzip, chunked', 'identity', 'teapot', 'Bearer nope', 'text/plain'),
          ascii(30),
          bytes(30),
          fc.nat(30_000).map((n) => 'v'.repeat(n)),
        ),
      )
      .map(([n, v]) => `${n}: ${v}`),
    fc.tuple(fc.oneof(ascii(12), bytes(6)), bytes(20)).map(([n, v]) => `${n}: ${v}`),
    bytes(30),
  ),
  4,
);
const body = mostly(
  fc.constantFrom('', '', '{"location":"Lisbon"}', '{"location":"L\\u0000"}', '{"credits":1}'),
  fc.oneof(fc.constantFrom('0\r\n\r\n', '5\r\nhello\r\n0\r\n\r\n'), ascii(50), bytes(50)),
  3,
);
const blank = mostly(fc.constant('\r\n'), fc.constantFrom('\n', '', '\r\n\r\n'), 8);

const rawRequest = fc.record({ method, sep1: sep, target, sep2: sep, version, eol, host, headers: fc.array(header, { maxLength: 3 }), auth: fc.boolean(), blank, body }).map((r) => {
  const lines = [`${r.method}${r.sep1}${r.target}${r.sep2}${r.version}`];
  if (r.host !== '') lines.push(r.host);
  if (r.auth) lines.push(`Authorization: Bearer ${a.sandboxKey}`);
  lines.push(...r.headers);
  // A body the headers do not announce is not a body: say how long it is, unless a header already did.
  if (r.body !== '' && !r.headers.some((h) => /^(content-length|transfer-encoding)/i.test(h))) lines.push(`Content-Length: ${Buffer.byteLength(r.body, 'latin1')}`);
  return raw(`${lines.join(r.eol)}${r.eol}${r.blank}${r.body}`);
});

describe('generated malformed requests', () => {
  it('3,000 raw requests: JSON envelopes with request ids, nothing 5xx, nothing charged', async () => {
    const before = requests;
    await fc.assert(
      fc.asyncProperty(fc.array(rawRequest, { minLength: 20, maxLength: 20 }), async (batch) => {
        await Promise.all(batch.map((b) => sendChecked(b)));
      }),
      { numRuns: 150 },
    );
    expect(requests - before).toBe(3_000);
  }, 120_000);

  it('nothing was charged and the server still answers', async () => {
    const acct = (await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits).toMatchObject({ balance: 100, held: 0 });
    expect((await s.req('/v1/health')).status).toBe(200);
    console.info(`hostile-raw: ${requests} raw requests, 0 answered 5xx or non-JSON`);
  });
});
