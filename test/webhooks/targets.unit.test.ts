// The private-address test of src/webhooks/targets.ts in every IPv6 spelling, which listening
// addresses count as loopback-only, and when a server refuses private targets (issue 21 item 4).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { denyPrivateTargets, embeddedIPv4, isLoopbackHost, isPrivateAddress } from '../../src/webhooks/targets.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::7f00:1',
    '::127.0.0.1',
    '::a00:1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2002:c0a8:101::1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '2001:db8::1',
    '[::1]',
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1', '2002:5db8:d70e::1', '64:ff9b::5db8:d70e', '::ffff:93.184.215.14', '2a00:1450::1'])('%s is public', (ip) =>
    expect(isPrivateAddress(ip)).toBe(false),
  );

  it('reads the IPv4 address inside the IPv6 forms', () => {
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('2002:7f00:1::1')).toBe('127.0.0.1');
    expect(embeddedIPv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('2606:4700::1')).toBeNull();
  });
});

describe('when private targets are refused', () => {
  const cfg = (env: NodeJS.ProcessEnv, listenHost?: string) => loadConfig({ dataDir: '/tmp/x', ...(listenHost ? { listenHost } : {}) }, env);
  it('loopback listening addresses', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'example.com', '192.168.1.2']) expect(isLoopbackHost(h), h).toBe(false);
  });
  it('auto: refused when listening on a non-loopback address or with a public URL; not on loopback or in-process', () => {
    expect(denyPrivateTargets(cfg({}, '0.0.0.0'))).toBe(true);
    expect(denyPrivateTargets(cfg({}, '::'))).toBe(true);
    expect(denyPrivateTargets(cfg({ STAYS_PUBLIC_URL: 'https://stays.example.com' }, '127.0.0.1'))).toBe(true);
    expect(denyPrivateTargets(cfg({ STAYS_PUBLIC_URL: 'https://stays.example.com' }))).toBe(true);
    expect(denyPrivateTargets(cfg({}, '127.0.0.1'))).toBe(false);
    expect(denyPrivateTargets(cfg({}))).toBe(false);
  });
  it('STAYS_WEBHOOK_DENY_PRIVATE forces either way', () => {
    for (const v of ['1', 'true', 'yes', 'deny']) expect(denyPrivateTargets(cfg({ STAYS_WEBHOOK_DENY_PRIVATE: v }, '127.0.0.1')), v).toBe(true);
    for (const v of ['0', 'false', 'no', 'allow']) expect(denyPrivateTargets(cfg({ STAYS_WEBHOOK_DENY_PRIVATE: v, STAYS_PUBLIC_URL: 'https://x.example' }, '0.0.0.0')), v).toBe(false);
    expect(() => cfg({ STAYS_WEBHOOK_DENY_PRIVATE: 'maybe' })).toThrow(/STAYS_WEBHOOK_DENY_PRIVATE/);
  });
});
