// SSRF guard for webhook targets (issue 21 item 4). Loopback, private, link-local, carrier-grade
// NAT, multicast, reserved and unspecified addresses are "private", in every IPv6 spelling too:
// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, e.g. [::7f00:1]), SIIT
// (::ffff:0:a.b.c.d), 6to4 (2002:AABB:CCDD::/48 embeds AA.BB.CC.DD), NAT64 (64:ff9b::/96 embeds
// the last 32 bits; 64:ff9b:1::/48 local use) and Teredo (2001::/32, whose client address is
// obfuscated: refused as a whole).
//
// Whether they are refused depends on the server (denyPrivateTargets): by default, whenever it can
// be reached from other hosts (it listens on a non-loopback address, or STAYS_PUBLIC_URL is set);
// a loopback-only server (local development, the in-process CLI) allows them.
// STAYS_WEBHOOK_DENY_PRIVATE=1 forces the refusal, =0 lifts it (an operator delivering to internal
// services on purpose). A literal IP is checked as written; a host name is resolved (all its
// addresses, with a short timeout) and refused if any address is private or if it does not
// resolve in time. Delivery checks again and connects only to a checked address (send.ts).
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';
import { ServiceError } from '../core/errors.js';

// Built on first use, as node:dns is loaded: every runtime loads this module, and an in-process CLI
// command checks no address (building the lists was ~2 ms of its start).
let lists: { blocked4: BlockList; blocked6: BlockList } | undefined;
function blockLists(): { blocked4: BlockList; blocked6: BlockList } {
  if (lists) return lists;
  const blocked4 = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    blocked4.addSubnet(net, bits, 'ipv4');
  const blocked6 = new BlockList();
  for (const [net, bits] of [
    // Unspecified and loopback are caught as IPv4-compatible forms (0.0.0.0, 0.0.0.1) below.
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 32],
    ['2001:10::', 28],
    ['2001:20::', 28],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const)
    blocked6.addSubnet(net, bits, 'ipv6');
  return (lists = { blocked4, blocked6 });
}
const lookup = (host: string, opts: { all: true; verbatim: true }) => process.getBuiltinModule('node:dns/promises').lookup(host, opts);

/** The 16 bytes of an IPv6 address (a trailing dotted quad allowed, zone id ignored), or null. */
function ipv6Bytes(ip: string): Uint8Array | null {
  let s = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(s) !== 6) return null;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? (s.split('::') as [string, string]) : [s, undefined];
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const h = words(head);
  const t = tail === undefined ? [] : words(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  if (all.length !== 8 || all.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return null;
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

const v4 = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
const zero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

/** The IPv4 address an IPv6 one stands for or routes to (mapped, compatible, SIIT, 6to4, NAT64). */
export function embeddedIPv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  if (!b) return null;
  // ::a.b.c.d (IPv4-compatible, :: and ::1 included) and ::ffff:a.b.c.d (IPv4-mapped).
  if (zero(b, 0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) return v4(b, 12);
  // ::ffff:0:a.b.c.d (SIIT, IPv4-translated).
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return v4(b, 12);
  // 2002:AABB:CCDD::/48 (6to4).
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b, 2);
  // 64:ff9b::/96 (NAT64, well-known prefix).
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return v4(b, 12);
  return null;
}

/** Whether an IP address (v4 or v6, in any of its IPv6 spellings) is one a public service must not call. */
export function isPrivateAddress(ip: string): boolean {
  const a = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v = isIP(a);
  if (v === 4) return blockLists().blocked4.check(a, 'ipv4');
  if (v !== 6) return false;
  const inner = embeddedIPv4(a);
  if (inner !== null) return blockLists().blocked4.check(inner, 'ipv4');
  return blockLists().blocked6.check(a, 'ipv6');
}

/** Whether a listening address accepts only connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) {
    const inner = embeddedIPv4(h);
    const b = ipv6Bytes(h)!;
    return (zero(b, 0, 15) && b[15] === 1) || (inner !== null && b[10] === 0xff && inner.startsWith('127.'));
  }
  return false;
}

/**
 * Whether this process refuses private webhook targets: STAYS_WEBHOOK_DENY_PRIVATE forces it
 * either way; else whenever the server can be reached from other hosts (it listens on a
 * non-loopback address, or it has a public URL). The in-process CLI listens nowhere.
 */
export function denyPrivateTargets(config: Pick<Config, 'webhookPrivateTargets' | 'listenHost' | 'publicUrl'>): boolean {
  if (config.webhookPrivateTargets !== 'auto') return config.webhookPrivateTargets === 'deny';
  if (config.publicUrl !== undefined) return true;
  return config.listenHost !== undefined && !isLoopbackHost(config.listenHost);
}

const DNS_TIMEOUT_MS = 2_000;

const WHY = 'this server is reachable from other hosts, so it refuses loopback, private and link-local webhook targets (STAYS_WEBHOOK_DENY_PRIVATE); use a public address';

/** Refuses (invalid_parameter, param url) a target on a private network; resolves host names. */
export async function assertPublicTarget(url: string, timeoutMs = DNS_TIMEOUT_MS, param = 'url'): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const refuse = (why: string) => new ServiceError('invalid_parameter', `url ${why}; ${WHY}.`, { param });
  if (isIP(host) !== 0) {
    if (isPrivateAddress(host)) throw refuse(`points at ${host}, a private address`);
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  let addresses: { address: string }[];
  try {
    addresses = await Promise.race([
      lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        timer.unref();
      }),
    ]);
  } catch (e) {
    throw refuse((e as Error).message === 'timeout' ? `host ${host} did not resolve within ${timeoutMs} ms` : `host ${host} does not resolve`);
  } finally {
    clearTimeout(timer);
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw refuse(`host ${host} resolves to ${bad.address}, a private address`);
  if (addresses.length === 0) throw refuse(`host ${host} does not resolve`);
}
