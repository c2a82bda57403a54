// A/B of two builds' cold start: `node bench/ab.mjs N DIR_A DIR_B -- ARGS…` spawns `DIR/bin/stays
// ARGS` of each build in turn (alternating which goes first), N rounds after 3 warm-up rounds,
// each build with its own compile cache and one shared local data directory, and prints the
// quartiles of each. Both builds must be built (npm run build) and the data directory's local
// sandbox key provisioned by a first run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [n, a, b, sep, ...args] = process.argv.slice(2);
if (!n || !a || !b || sep !== '--') {
  console.error('usage: node bench/ab.mjs N DIR_A DIR_B -- ARGS…');
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'stays-ab-'));
const env = (d) => ({
  ...process.env,
  NODE_COMPILE_CACHE: join(scratch, `cc-${d.replace(/\W/g, '_')}`),
  STAYS_DATA_DIR: join(scratch, 'data'),
  STAYS_CONFIG_DIR: join(scratch, 'config'),
});
const once = (d) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [`${d}/bin/stays`, ...args], { env: env(d) });
  if (r.status !== 0) throw new Error(`${d}: ${r.stderr.toString()}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
for (let i = 0; i < 3; i++) {
  once(a);
  once(b);
}
const times = { [a]: [], [b]: [] };
for (let i = 0; i < Number(n); i++) for (const d of i % 2 ? [a, b] : [b, a]) times[d].push(once(d));
for (const d of [a, b]) {
  const x = times[d].sort((p, q) => p - q);
  const q = (f) => x[Math.floor(f * (x.length - 1))].toFixed(1);
  console.log(`${d} ${args.join(' ')}: min ${q(0)} p25 ${q(0.25)} median ${q(0.5)} ms (n=${n})`);
}
