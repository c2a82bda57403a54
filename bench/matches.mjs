// Issue 27, item 4: the accuracy of the cross-platform matching method (match/1,
// src/core/analytics/matches.ts) on the sandbox world's labelled pairs (src/sources/sandbox/twins.ts:
// the same property on two platforms, or a neighbour in the same building or street that is
// another property). Prints precision, recall, F1 and the confusion counts at the default
// threshold and a few others (node bench/run.mjs matches, or this file).
//
// Knobs: BENCH_MATCH_CITIES (6): how many built-in cities' airbnb searches give the properties.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const CITIES = Number(process.env.BENCH_MATCH_CITIES ?? 6);
const TREE = resolve(fileURLToPath(import.meta.url), '../..');

async function evalModule() {
  const dir = join(TREE, 'node_modules', '.cache', 'stays-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `match-eval-${process.pid}.mjs`);
  await build({ entryPoints: [join(TREE, 'src/sources/sandbox/match-eval.ts')], bundle: true, platform: 'node', format: 'esm', outfile: file, logLevel: 'error' });
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

export async function benchMatches() {
  const m = await evalModule();
  const { DEFAULT_MATCH_THRESHOLD: def, MATCH_METHOD: method } = m;
  const pairs = m.labelledPairs(CITIES);
  const same = pairs.filter((p) => p.same).length;
  process.stdout.write(`${method}: ${pairs.length} labelled pairs (${same} same property, ${pairs.length - same} neighbours that are not) from ${CITIES} cities; default threshold ${def}\n`);
  const thresholds = [...new Set([0.6, 0.7, 0.75, def, 0.85, 0.9])].sort((a, b) => a - b);
  return m.evaluateMatches(pairs, thresholds).map((c) => ({ ...c, default: c.threshold === def ? 'yes' : '' }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchMatches());
