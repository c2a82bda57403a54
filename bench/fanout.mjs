// Live fan-out on the simulated upstream: a 4-platform search whose legs take 100/200/300/400 ms.
// End-to-end job time (request with Prefer: wait, so the answer arrives when the job ends) is
// reported as a ratio to the slowest leg (target <= 1.10): legs run in parallel, not in sum.
// Cache-hit latency is reported against GET /v1/health on the same server, same run.
import { fmt, median, startStays } from './lib.mjs';

const RUNS = Number(process.env.BENCH_FANOUT_RUNS ?? 20);
const LATENCY = { airbnb: 100, booking: 200, vrbo: 300, google: 400 };
const SLOWEST = Math.max(...Object.values(LATENCY));

const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

async function timed(url, headers) {
  const t = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t;
}

export async function benchFanout() {
  const spec = Object.entries(LATENCY)
    .map(([p, ms]) => `${p}=${ms}`)
    .join(',');
  const stays = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: spec });
  const auth = { authorization: `Bearer ${stays.liveKey}` };
  try {
    const jobs = [];
    for (let i = 0; i < RUNS; i++) {
      // A new location each run, so no leg is cached.
      jobs.push(await timed(`${stays.url}/v1/search?location=Benchtown${i}&limit=10`, { ...auth, prefer: 'wait=30' }));
    }
    const hit = `${stays.url}/v1/search?location=Benchtown0&limit=10`;
    const hits = [];
    const health = [];
    for (let i = 0; i < 200; i++) {
      hits.push(await timed(hit, auth));
      health.push(await timed(`${stays.url}/v1/health`, {}));
    }
    return [
      { measure: 'slowest leg (simulated latency)', value: `${SLOWEST} ms` },
      { measure: `end-to-end job time, median of ${RUNS}`, value: `${fmt(median(jobs), 1)} ms` },
      { measure: 'ratio job time / slowest leg (target <= 1.10)', value: fmt(median(jobs) / SLOWEST, 3) },
      { measure: 'cache-hit search latency, median / p99 of 200', value: `${fmt(median(hits), 2)} / ${fmt(p99(hits), 2)} ms` },
      { measure: 'GET /v1/health latency, median (baseline)', value: `${fmt(median(health), 2)} ms` },
      { measure: 'ratio cache hit / health (median)', value: fmt(median(hits) / median(health), 2) },
    ];
  } finally {
    await stays.stop();
  }
}
