// Sandbox GET /v1/search throughput and p99 latency against a bare Hono hello-world route,
// both served the same way, measured alternately in the same run.
import { cannon, fmt, ROOT, startProcess, startStays } from './lib.mjs';
import { join } from 'node:path';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

export async function benchHttp() {
  const stays = await startStays();
  const hello = await startProcess([join(ROOT, 'bench', 'hello.mjs')]);
  const runs = { stays: [], hello: [] };
  try {
    // Warm both up so JIT and caches are settled before measuring.
    await cannon({ url: `${hello.url}/v1/hello`, duration: 2 });
    await cannon({ url: `${stays.url}/v1/search?location=Lisbon&limit=10`, headers: { authorization: `Bearer ${stays.sandboxKey}` }, duration: 2 });
    for (let i = 0; i < ROUNDS; i++) {
      runs.hello.push(await cannon({ url: `${hello.url}/v1/hello`, duration: DURATION }));
      runs.stays.push(await cannon({ url: `${stays.url}/v1/search?location=Lisbon&limit=10`, headers: { authorization: `Bearer ${stays.sandboxKey}` }, duration: DURATION }));
    }
  } finally {
    await stays.stop();
    await hello.stop();
  }
  const summary = (rs) => ({
    rps: rs.reduce((s, r) => s + r.requests.average, 0) / rs.length,
    p99: rs.reduce((s, r) => s + r.latency.p99, 0) / rs.length,
    non2xx: rs.reduce((s, r) => s + r.non2xx + r.errors, 0),
  });
  const st = summary(runs.stays);
  const he = summary(runs.hello);
  if (st.non2xx > 0) throw new Error(`stays answered ${st.non2xx} non-2xx responses during the benchmark`);
  return [
    { name: 'bare Hono hello-world (baseline)', rps: he.rps, p99: he.p99 },
    { name: 'sandbox GET /v1/search?location=Lisbon&limit=10 (40 rows)', rps: st.rps, p99: st.p99 },
    { name: 'ratio stays / baseline (req/s)', ratio: st.rps / he.rps, goal: '>= 0.5' },
  ].map((r) => ({ ...r, rps: r.rps !== undefined ? fmt(r.rps, 0) : undefined, p99: r.p99 !== undefined ? `${fmt(r.p99, 1)} ms` : undefined, ratio: r.ratio !== undefined ? fmt(r.ratio, 2) : undefined }));
}
