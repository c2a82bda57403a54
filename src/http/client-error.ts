// Requests that never reach the Hono app still get the JSON error envelope and a request id:
// bytes Node's HTTP parser refuses (raw spaces or NUL in the request line or headers, oversized
// headers, bad versions), requests whose target or Host cannot form a URL, a missing Host, an
// unmet Expect and CONNECT. Node (and the adapter) would otherwise answer these in plain text,
// with an empty body, or not at all.
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type ErrorCode, ServiceError, errorBody } from '../core/errors.js';
import { preview } from '../core/validate.js';

export interface ClientErrorOptions {
  logger?: Logger;
  newRequestId: () => string;
  docsUrl: string;
}

interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
  param: string | null;
  headers?: Record<string, string>;
}

/** How long a refused connection may go on sending before it is closed (closing at once could reset it and lose the answer). */
const LINGER_MS = 2_000;
/** Every method the API serves somewhere (the answer to CONNECT, which it serves nowhere). */
const ALL_METHODS = 'GET, HEAD, POST';

type ParseError = Error & { code?: string; reason?: string };

function refusalOf(err: ParseError, server: Server): Refusal {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const limit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
      return { status: 431, code: 'request_headers_too_large', message: `The request line and headers are larger than ${limit} bytes.`, param: 'headers' };
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'payload_too_large', message: 'The chunk extensions of the request body are too large.', param: 'body' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, code: 'invalid_parameter', message: 'The client closed its side of the connection before the request was complete.', param: null };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request did not arrive in time.', param: null };
    default: {
      // llhttp's reason is a fixed English phrase; keep only printable ASCII all the same.
      const reason = String(err.reason ?? err.code ?? err.message)
        .replace(/[^\x20-\x7e]/g, '')
        .slice(0, 100);
      return { status: 400, code: 'invalid_parameter', message: `The request is not valid HTTP/1.1 (${reason}).`, param: null };
    }
  }
}

function envelope(r: Refusal, requestId: string, docsUrl: string): string {
  return JSON.stringify({ error: errorBody(new ServiceError(r.code, r.message, { param: r.param }), requestId, docsUrl) });
}

/** A whole HTTP/1.1 response as bytes, for a socket with no ServerResponse. */
function rawResponse(r: Refusal, requestId: string, docsUrl: string): string {
  const body = envelope(r, requestId, docsUrl);
  const head = [
    `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    ...Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** host[:port] as the WHATWG URL parser writes it, or undefined when it is not one. */
function canonicalHost(host: string): string | undefined {
  if (!/^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{0,5})?$/.test(host)) return undefined;
  try {
    return new URL(`http://${host}/`).host;
  } catch {
    return undefined;
  }
}

function backslashInPath(target: string): boolean {
  const q = target.indexOf('?');
  return (q === -1 ? target : target.slice(0, q)).includes('\\');
}

/**
 * Why a request the parser accepted still cannot become a URL, if it cannot. RFC 9112 §3.2: a
 * missing (HTTP/1.1) or invalid Host is a 400. A valid Host is handed on in its canonical form,
 * which the adapter always accepts; nothing in the app reads the Host otherwise.
 */
function requestProblem(req: IncomingMessage, canonicalOf: (host: string) => string | undefined): Refusal | undefined {
  // PRI is the HTTP/2 connection preface: Node closes the connection right after such a request,
  // so it must be answered here, at once, or the client gets nothing at all.
  if (req.method === 'PRI') {
    return { status: 405, code: 'method_not_allowed', message: 'PRI opens an HTTP/2 connection; this server speaks HTTP/1.1.', param: null, headers: { Allow: ALL_METHODS } };
  }
  const host = req.headers.host;
  if (host === undefined || host === '') {
    if (req.httpVersion !== '1.0') return { status: 400, code: 'invalid_parameter', message: 'An HTTP/1.1 request needs a Host header.', param: 'host' };
    req.headers.host = 'localhost';
  } else {
    const canonical = canonicalOf(host);
    if (canonical === undefined) return { status: 400, code: 'invalid_parameter', message: `The Host header ${preview(host)} is not a valid host[:port].`, param: 'host' };
    if (canonical !== host) req.headers.host = canonical;
  }
  const target = req.url ?? '';
  const bad = (message: string): Refusal => ({ status: 400, code: 'invalid_parameter', message, param: null });
  if (target.startsWith('/')) return backslashInPath(target) ? bad('The request path contains a backslash.') : undefined;
  if (target.startsWith('http://') || target.startsWith('https://')) {
    if (backslashInPath(target)) return bad('The request target contains a backslash.');
    try {
      new URL(target);
      return undefined;
    } catch {
      return bad(`The request target ${preview(target)} is not a valid URL.`);
    }
  }
  return bad(`The request target ${preview(target)} is not a path such as /v1/search.`);
}

/**
 * Installs the handlers on a node http.Server that already has its request listener (the one
 * @hono/node-server's serve() attaches): call it right after serve().
 */
export function installClientErrorHandler(server: Server, opts: ClientErrorOptions): void {
  const refused = new WeakSet<Duplex>();
  const lastRequest = new WeakMap<Duplex, IncomingMessage>();
  // Clients send the same Host on every request: parse it once, not per request.
  let lastHost: [string, string | undefined] = ['', undefined];
  const canonicalOf = (host: string) => {
    if (lastHost[0] !== host) lastHost = [host, canonicalHost(host)];
    return lastHost[1];
  };

  const log = (requestId: string, r: Refusal, detail: Record<string, unknown>) => opts.logger?.info({ reqId: requestId, status: r.status, code: r.code, ...detail }, 'malformed request');

  const answer = (req: IncomingMessage, res: ServerResponse, r: Refusal) => {
    const requestId = opts.newRequestId();
    log(requestId, r, { method: req.method, url: preview(req.url ?? '') });
    const body = envelope(r, requestId, opts.docsUrl);
    res.writeHead(r.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': requestId, ...r.headers, Connection: 'close' });
    res.end(body);
  };

  const refuseSocket = (socket: Duplex, r: Refusal, detail: Record<string, unknown>) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = opts.newRequestId();
    log(requestId, r, detail);
    socket.end(rawResponse(r, requestId, opts.docsUrl));
    // Whatever the client still sends is read and dropped until it closes, or for LINGER_MS.
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };

  server.on('clientError', (err: ParseError, socket: Duplex) => {
    // The parser reports every later chunk of a refused connection again: one answer is enough.
    if (refused.has(socket)) return;
    refused.add(socket);
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    // Node's own field for the response in progress on this connection (its default handler reads it too).
    const pending = (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
    const req = lastRequest.get(socket);
    const midBody = req !== undefined && !req.complete;
    const r = refusalOf(err, server);
    const detail = { err: err.code };
    if (pending?.headersSent || (midBody && pending === null)) {
      // An answer is on the wire, or already sent for the request whose body broke: nothing more can be said.
      socket.destroy();
    } else if (pending !== null && !midBody) {
      // Pipelined: the bad request came after one still being answered; answer it after that one.
      const after = () => refuseSocket(socket, r, detail);
      pending.once('finish', after);
      pending.once('close', () => pending.off('finish', after));
    } else {
      refuseSocket(socket, r, detail);
    }
  });

  // Node answers a missing Host itself, with an empty 400 and before any listener runs.
  (server as { requireHostHeader?: boolean }).requireHostHeader = false;
  const inner = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    lastRequest.set(req.socket, req);
    const problem = requestProblem(req, canonicalOf);
    if (problem) {
      answer(req, res, problem);
      return;
    }
    for (const listener of inner) listener.call(server, req, res);
  });

  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    answer(req, res, {
      status: 417,
      code: 'invalid_parameter',
      message: `Expect: ${preview(req.headers.expect ?? '')} cannot be met; only 100-continue is supported.`,
      param: 'expect',
    });
  });

  // Without a listener Node drops CONNECT connections without a word.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    refuseSocket(
      socket,
      { status: 405, code: 'method_not_allowed', message: 'CONNECT is not allowed: this is an API server, not a proxy.', param: null, headers: { Allow: ALL_METHODS } },
      { method: 'CONNECT', url: preview(req.url ?? '') },
    );
  });
}
