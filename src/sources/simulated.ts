// The simulated upstream (STAYS_UPSTREAM=simulated): the sandbox world answered with a per-call
// latency and configurable failures per platform, for demos, tests and benchmarks. The runtime
// gives it the world moving with the services' clock (sandbox/moving.ts); sandbox keys read the
// fixed one. Answers take a real provider's path: the world's objects are written as each
// platform's raw actor rows and read back by that platform's normalizer (src/sources/raw/emit.ts),
// so every simulated call exercises the normalizers; the round trip is lossless, so answers equal
// the world's.
import { ConfigError } from '../config.js';
import { type ErrorCode, ServiceError } from '../core/errors.js';
import type { EnabledPlatform } from '../core/platforms.js';
import type { Property } from '../core/schemas/resources.js';
import type { Upstream } from '../core/upstream.js';
import { LANES, offersLane } from './raw/emit.js';
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
  const sleep = opts.sleep ?? defaultSleep;
  const call = async <T>(platform: EnabledPlatform, f: () => T): Promise<T> => {
    await sleep(opts.latencyMs[platform]);
    const code = opts.fail[platform];
    if (code) throw new ServiceError(code, `Simulated upstream: ${platform} is configured to fail with ${code} (STAYS_SIM_FAIL).`);
    try {
      return f();
    } catch (e) {
      throw asSimulated(e);
    }
  };
  return {
    name: 'simulated',
    simulated: true,
    estimateSeconds: (p) => Math.ceil(opts.latencyMs[p] / 1000),
    searchPlatform: (p, location, o) => call(p, () => world.searchPlatform(p, location, o).map((x) => LANES[p].search(x, o.stay))),
    searchAnswer: (p, location, o) =>
      call(p, () => {
        // A capped answer keeps saying what was cut (issue 38): its rows take the raw round trip alone.
        const answer = world.searchAnswer(p, location, o);
        const lane = (rows: readonly Property[]) => rows.map((x) => LANES[p].search(x, o.stay));
        return 'truncated' in answer ? { rows: lane(answer.rows), truncated: answer.truncated } : lane(answer.all());
      }),
    listing: (p, id, o) =>
      call(p, () => {
        // The port's listing body carries neither price nor identity (composed at read time).
        const { price: _price, identity: _identity, ...body } = world.listing(p, id, { currency: o.currency, requestedId: id });
        return LANES[p].listing(body);
      }),
    price: (p, id, stay) => call(p, () => LANES[p].price(world.price(p, id, stay), stay) ?? unpriced(p, id)),
    availability: (p, id, s, e) => call(p, () => LANES[p].availability(world.availability(p, id, s, e), { startDate: s, endDate: e })),
    // No reviews normalizer exists for google (the service refuses google reviews before this
    // port), so its reviews, if ever asked for, are the world's as they are.
    reviews: (p, id) =>
      call(p, () => {
        const reviews = world.reviews(p, id);
        return LANES[p].reviews(reviews, id) ?? reviews;
      }),
    compareGoogle: (q, stay) => call('google', () => offersLane(world.compareGoogle(q, stay), stay)),
  };
}

const SANDBOX_PREFIX = /^Sandbox trigger: /;

/**
 * The world's trigger errors speak as the sandbox; on the simulated upstream (live keys) they say
 * where they come from instead (issue 22, item 16). Code, param and retry hint are kept.
 */
function asSimulated(e: unknown): unknown {
  if (!(e instanceof ServiceError) || !SANDBOX_PREFIX.test(e.message)) return e;
  return new ServiceError(e.code, e.message.replace(SANDBOX_PREFIX, 'Simulated upstream: '), { param: e.param ?? undefined, retryAfter: e.retryAfter, cause: e });
}

function unpriced(platform: EnabledPlatform, id: string): never {
  throw new ServiceError('price_not_found', `Simulated upstream: the ${platform} quote row for ${id} states no price.`);
}

/** Parses `2000` or `airbnb=3000,booking=500` (the default applies to platforms not named). */
export function parseLatency(spec: string | undefined, fallback = 2000): Record<EnabledPlatform, number> {
  const out: Record<EnabledPlatform, number> = { airbnb: fallback, booking: fallback, vrbo: fallback, google: fallback };
  if (spec === undefined || spec.trim() === '') return out;
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(?:(airbnb|booking|vrbo|google)=)?(\d{1,7})$/.exec(part);
    if (!m) throw new ConfigError(`invalid setting STAYS_SIM_LATENCY_MS: cannot read ${JSON.stringify(part)}; use 2000 or airbnb=3000,booking=500`);
    if (m[1]) out[m[1] as EnabledPlatform] = Number(m[2]);
    else for (const p of Object.keys(out) as EnabledPlatform[]) out[p] = Number(m[2]);
  }
  return out;
}

/** Parses `vrbo=all_actors_failed,booking=actor_timeout`. */
export function parseFailures(spec: string | undefined, isCode: (c: string) => c is ErrorCode): Partial<Record<EnabledPlatform, ErrorCode>> {
  const out: Partial<Record<EnabledPlatform, ErrorCode>> = {};
  if (spec === undefined || spec.trim() === '') return out;
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(airbnb|booking|vrbo|google)=([a-z_]+)$/.exec(part);
    if (!m || !isCode(m[2]!)) throw new ConfigError(`invalid setting STAYS_SIM_FAIL: cannot read ${JSON.stringify(part)}; use vrbo=all_actors_failed,booking=actor_timeout`);
    out[m[1] as EnabledPlatform] = m[2] as ErrorCode;
  }
  return out;
}
