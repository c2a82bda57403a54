// One webhook delivery attempt over HTTP: POST the signed body, read the status and the first
// 500 bytes of the answer, within a deadline. The target's host is resolved here and the
// connection made only to the addresses that were resolved (pinned); when private targets are
// refused (denyPrivate, src/webhooks/targets.ts) every address is checked first, so a name that
// resolves differently a moment later (DNS rebinding) cannot reach a private network. An answer
// that came from a private address (allowed on a loopback-only server) never has its body kept:
// its preview is null, so the attempt log cannot be used to read an internal service.
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { isPrivateAddress } from './targets.js';

// node:dns, node:http(s) and node:net load on the first delivery: every runtime has a dispatcher,
// and an in-process CLI command usually delivers nothing (loading them was ~2 ms of its start).
const dnsLookup = (host: string, opts: { all: true; verbatim: true }, cb: (e: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
  process.getBuiltinModule('node:dns').lookup(host, opts, cb);
const isIP = (host: string) => process.getBuiltinModule('node:net').isIP(host);

/** How much of a receiver's answer the attempt log keeps (spec: the first 500 bytes). */
export const PREVIEW_BYTES = 500;

export type SendResult =
  /** The receiver answered (any status); preview null when it answered from a private address. */
  | { kind: 'answered'; status: number; preview: string | null }
  /** No answer: timeout, refused, reset, no such host… (retried). */
  | { kind: 'failed'; preview: string }
  /** Not sent: the target is on a private network and this server refuses those (not retried). */
  | { kind: 'refused'; preview: string };

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) => new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (e, addresses) => (e ? reject(e) : resolve(addresses))));

export interface SendOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  denyPrivate: boolean;
  /** Aborts the attempt (shutdown); the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  resolve?: Resolver;
}

/** The target's addresses to connect to, or why it is refused (a private one, with denyPrivate). */
async function pin(host: string, resolve: Resolver, denyPrivate: boolean): Promise<{ addresses: LookupAddress[] } | { refused: string }> {
  const refuse = (addr: string) => ({
    refused: `not sent: ${host === addr ? addr : `${host} resolves to ${addr}, which`} is a loopback, private or link-local address, and this server refuses those targets (STAYS_WEBHOOK_DENY_PRIVATE)`,
  });
  const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await resolve(host);
  const bad = denyPrivate ? addresses.find((a) => isPrivateAddress(a.address)) : undefined;
  if (bad) return refuse(bad.address);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  return { addresses };
}

/** Why there was no answer, in a few words for the attempt log. */
function describe(e: unknown, host: string, timeoutMs: number): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.name === 'WebhookTimeout') return `no answer within ${timeoutMs} ms (timeout)`;
  switch (err?.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${host} (ECONNREFUSED)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} does not resolve (${err.code})`;
    case 'ECONNRESET':
      return `connection reset by ${host} (ECONNRESET)`;
    default:
      return `${err?.code ? `${err.code}: ` : ''}${err?.message ?? String(e)}`.slice(0, PREVIEW_BYTES);
  }
}

/** The first PREVIEW_BYTES of the body as text (a character cut in half is dropped). */
export function previewOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks)
    .subarray(0, PREVIEW_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/** POSTs `body` to `url` once. Never throws for a receiver's failure: that is a SendResult. */
export async function sendOnce(url: string, body: string, o: SendOptions): Promise<SendResult> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const timeout = Object.assign(new Error('timeout'), { name: 'WebhookTimeout' });
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, deadline]) : deadline;
  try {
    const target = await Promise.race([
      pin(host, o.resolve ?? systemResolver, o.denyPrivate),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
    if ('refused' in target) return { kind: 'refused', preview: target.refused };
    // Only the addresses resolved (and checked) above: the connection never looks the name up again.
    const pinned = target.addresses;
    const lookup = (_h: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) => (opts.all ? cb(null, pinned) : cb(null, pinned[0]!.address, pinned[0]!.family));
    const { status, preview } = await new Promise<{ status: number; preview: string | null }>((resolve, reject) => {
      const send = process.getBuiltinModule(u.protocol === 'https:' ? 'node:https' : 'node:http').request;
      const req = send(u, {
        method: 'POST',
        headers: { ...o.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        // One connection per attempt: nothing pooled outlives the dispatcher.
        agent: false,
        lookup: lookup as never,
      });
      const onAbort = () => req.destroy(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      req.once('close', () => signal.removeEventListener('abort', onAbort));
      req.once('error', reject);
      req.once('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        // Where the answer came from; unknown counts as private.
        const from = res.socket?.remoteAddress;
        const hidden = from === undefined || isPrivateAddress(from);
        const done = () => {
          resolve({ status: res.statusCode ?? 0, preview: hidden ? null : previewOf(chunks) });
          res.destroy();
        };
        res.on('data', (c: Buffer) => {
          if (size < PREVIEW_BYTES) chunks.push(c);
          size += c.length;
          if (size >= PREVIEW_BYTES) done();
        });
        res.once('end', done);
        res.once('error', reject);
        // Cut short (the deadline, or the receiver hung up): what arrived is the preview.
        res.once('close', () => (signal.aborted ? reject(signal.reason) : done()));
      });
      req.end(body);
    });
    return { kind: 'answered', status, preview };
  } catch (e) {
    if (o.signal?.aborted) throw o.signal.reason;
    return { kind: 'failed', preview: describe(deadline.aborted ? timeout : e, host, o.timeoutMs) };
  }
}
