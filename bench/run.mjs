// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
import { benchAnalytics } from './analytics.mjs';
import { benchAnalyst } from './analyst.mjs';
import { benchFanout } from './fanout.mjs';
import { benchHistory } from './history.mjs';
import { benchCli } from './cli.mjs';
import { benchCollections } from './collections.mjs';
import { benchMonth } from './collection-month.mjs';
import { benchDiscovery } from './discovery.mjs';
import { benchCeiling } from './families-ceiling.mjs';
import { benchJq } from './jq.mjs';
import { benchKnee } from './knee.mjs';
import { benchMatches } from './matches.mjs';
import { benchHttp } from './http.mjs';
import { benchMemory } from './memory.mjs';
import { benchScale } from './scale.mjs';
import { benchStore } from './store.mjs';

const which = process.argv[2] ?? 'all';
const suites = {
  http: benchHttp,
  fanout: benchFanout,
  cli: benchCli,
  jq: benchJq,
  memory: benchMemory,
  scale: benchScale,
  store: benchStore,
  knee: benchKnee,
  history: benchHistory,
  analytics: benchAnalytics,
  ceiling: benchCeiling,
  matches: benchMatches,
  analyst: benchAnalyst,
  discovery: benchDiscovery,
  collections: benchCollections,
  month: benchMonth,
};
for (const [name, fn] of Object.entries(suites)) {
  if (which !== 'all' && which !== name) continue;
  process.stdout.write(`\n## ${name}\n`);
  console.table(await fn());
}
