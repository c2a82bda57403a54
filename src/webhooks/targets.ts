// SSRF guard for webhook targets (STAYS_WEBHOOK_DENY_PRIVATE=1, multi-tenant deployments):
// loopback, private, link-local, carrier-grade NAT, multicast and unspecified addresses are
// refused. A literal IP is checked as written; a host name is resolved (all its addresses, with a
// short timeout) and refused if any address is private or if it does not resolve in time.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ServiceError } from '../core/errors.js';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) blocked.addSubnet(net, bits, 'ipv6');

/** Whether an IP address (v4 or v6, IPv4-mapped included) is one a public service must not call. */
export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return blocked.check(ip, 'ipv4');
  if (v !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(ip, 'ipv6');
}

export const DNS_TIMEOUT_MS = 2_000;

/** Refuses (invalid_parameter, param url) a target on a private network; resolves host names. */
export async function assertPublicTarget(url: string, timeoutMs = DNS_TIMEOUT_MS, param = 'url'): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const refuse = (why: string) =>
    new ServiceError('invalid_parameter', `url ${why}; this server refuses loopback, private and link-local webhook targets (STAYS_WEBHOOK_DENY_PRIVATE).`, { param });
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
