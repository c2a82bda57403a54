// Sandbox GET /v1/search throughput and p99 latency against two bare Hono routes served the
// same way, measured alternately in the same run: hello-world (the baseline) and a
// route answering the very bytes stays answers (same payload, no work).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannon, fmt, ROOT, startProcess, startStays } from './lib.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const QUERY = '/v1/search?location=Lisbon&limit=10';

export async function benchHttp() {
  const stays = await startStays();
  const tmp = mkdtempSync(join(tmpdir(), 'stays-bench-body-'));
  const auth = { authorization: `Bearer ${stays.sandboxKey}` };
  const sample = Buffer.from(await (await fetch(stays.url + QUERY, { headers: auth })).arrayBuffer());
  writeFileSync(join(tmp, 'body.json'), sample);
  const base = await startProcess([join(ROOT, 'bench', 'hello.mjs')], { BENCH_BODY_FILE: join(tmp, 'body.json') });
  const targets = {
    hello: { url: `${base.url}/v1/hello` },
    fixed: { url: `${base.url}/v1/fixed` },
    stays: { url: stays.url + QUERY, headers: auth },
  };
  const runs = { hello: [], fixed: [], stays: [] };
  try {
    for (const t of Object.values(targets)) await cannon({ ...t, duration: 2 }); // warm-up
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, t] of Object.entries(targets)) runs[name].push(await cannon({ ...t, duration: DURATION }));
    }
  } finally {
    await stays.stop();
    await base.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  const avg = (rs, f) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
  const sum = (name) => ({ rps: avg(runs[name], (r) => r.requests.average), p99: avg(runs[name], (r) => r.latency.p99), bad: runs[name].reduce((s, r) => s + r.non2xx + r.errors, 0) });
  const [h, f, s] = [sum('hello'), sum('fixed'), sum('stays')];
  if (s.bad + h.bad + f.bad > 0) throw new Error(`non-2xx or errors during the benchmark: stays ${s.bad}, hello ${h.bad}, fixed ${f.bad}`);
  const row = (name, r) => ({ name, 'req/s': fmt(r.rps, 0), p99: `${fmt(r.p99, 1)} ms` });
  return [
    row('baseline: bare Hono hello-world', h),
    row(`baseline: bare Hono, same ${sample.length}-byte body`, f),
    row(`stays sandbox GET ${QUERY}`, s),
    { name: 'ratio stays / hello-world', 'req/s': fmt(s.rps / h.rps, 2) },
    // Issue 23's budget: the sandbox search at >= 0.8 of a bare route sending the same bytes.
    { name: 'ratio stays / same-body route', 'req/s': fmt(s.rps / f.rps, 2), p99: `budget >= 0.8: ${s.rps / f.rps >= 0.8 ? 'ok' : 'over'}` },
  ];
}
