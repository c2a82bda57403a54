// The simulated upstream (STAYS_UPSTREAM=simulated): the sandbox world answered with a per-call
// latency and configurable failures per platform, for demos, tests and benchmarks.
import { type ErrorCode, ServiceError } from '../core/errors.js';
import type { EnabledPlatform } from '../core/platforms.js';
import type { Upstream } from '../core/upstream.js';
import { sandboxUpstream } from './sandbox/upstream.js';
import type { SandboxWorld } from './sandbox/types.js';

export interface SimulatedOptions {
  /** Milliseconds per call, per platform. */
  latencyMs: Record<EnabledPlatform, number>;
  /** A failure code per platform: every call to that platform fails with it. */
  fail: Partial<Record<EnabledPlatform, ErrorCode>>;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function simulatedUpstream(world: SandboxWorld, opts: SimulatedOptions): Upstream {
  const inner = sandboxUpstream(world);
  const sleep = opts.sleep ?? defaultSleep;
  const call = async <T>(platform: EnabledPlatform, f: () => Promise<T>): Promise<T> => {
    await sleep(opts.latencyMs[platform]);
    const code = opts.fail[platform];
    if (code) throw new ServiceError(code, `Simulated upstream: ${platform} is configured to fail with ${code} (STAYS_SIM_FAIL).`);
    return f();
  };
  return {
    name: 'simulated',
    simulated: true,
    estimateSeconds: (p) => Math.ceil(opts.latencyMs[p] / 1000),
    searchPlatform: (p, location, o) => call(p, () => inner.searchPlatform(p, location, o)),
    listing: (p, id, o) => call(p, () => inner.listing(p, id, o)),
    price: (p, id, stay) => call(p, () => inner.price(p, id, stay)),
    availability: (p, id, s, e) => call(p, () => inner.availability(p, id, s, e)),
    reviews: (p, id) => call(p, () => inner.reviews(p, id)),
    compareGoogle: (q, stay) => call('google', () => inner.compareGoogle(q, stay)),
  };
}

/** Parses `2000` or `airbnb=3000,booking=500` (the default applies to platforms not named). */
export function parseLatency(spec: string | undefined, fallback = 2000): Record<EnabledPlatform, number> {
  const out: Record<EnabledPlatform, number> = { airbnb: fallback, booking: fallback, vrbo: fallback, google: fallback };
  if (spec === undefined || spec.trim() === '') return out;
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(?:(airbnb|booking|vrbo|google)=)?(\d{1,7})$/.exec(part);
    if (!m) throw new Error(`STAYS_SIM_LATENCY_MS: cannot read ${JSON.stringify(part)}; use 2000 or airbnb=3000,booking=500`);
    if (m[1]) out[m[1] as EnabledPlatform] = Number(m[2]);
    else for (const p of Object.keys(out) as EnabledPlatform[]) out[p] = Number(m[2]);
  }
  return out;
}

/** Parses `vrbo=all_actors_failed,booking=actor_timeout`. */
export function parseFailures(spec: string | undefined, isCode: (c: string) => c is ErrorCode): Partial<Record<EnabledPlatform, ErrorCode>> {
  const out: Partial<Record<EnabledPlatform, ErrorCode>> = {};
  if (spec === undefined || spec.trim() === '') return out;
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(airbnb|booking|vrbo|google)=([a-z_]+)$/.exec(part);
    if (!m || !isCode(m[2]!)) throw new Error(`STAYS_SIM_FAIL: cannot read ${JSON.stringify(part)}; use vrbo=all_actors_failed,booking=actor_timeout`);
    out[m[1] as EnabledPlatform] = m[2] as ErrorCode;
  }
  return out;
}
