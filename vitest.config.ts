import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three tiers (docs/testing.md), told apart by the file name:
//   *.unit.test.ts       unit: pure modules, injected clock and ids, no store, no socket
//   *.inprocess.test.ts  inprocess: the app, the store and the CLI in this process (temp SQLite)
//   *.test.ts            e2e: everything else; child processes (`stays serve`, the CLI, `stays admin`), the build in dist/
// `npm run test:fast` runs unit and inprocess; `npm test` runs all three after the type-check and the build.
const UNIT = 'test/**/*.unit.test.ts';
const INPROCESS = 'test/**/*.inprocess.test.ts';
// More workers than cores for the fast tiers: the in-process files wait on real timers (simulated
// upstream latencies, Retry-After, job polling, the CLI's own waits) more than they compute, and
// vitest's default (cores - 1: one worker on a 2-core machine) ran those waits one after another.
const FAST_WORKERS = Math.max(4, availableParallelism() - 1);
const E2E_WORKERS = Math.max(3, availableParallelism() - 1);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      // Not isolated: the files of a worker share its loaded modules (loading the service's modules
      // again for each file was over half of these tiers' time). A test restores what it changes
      // in the process: vi.stubEnv with vi.unstubAllEnvs, spies restored, process.exitCode reset.
      { extends: true, test: { name: 'unit', include: [UNIT], isolate: false, maxWorkers: FAST_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'inprocess', include: [INPROCESS], isolate: false, maxWorkers: FAST_WORKERS, sequence: { groupOrder: 0 } } },
      // After the fast tiers (vitest runs projects with different worker counts as separate groups).
      // Two files at once: an e2e file mostly waits on its child processes and timers, and each
      // was written to pass with one core kept busy, which the other file now is.
      {
        extends: true,
        test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: [UNIT, INPROCESS, '**/node_modules/**'], maxWorkers: E2E_WORKERS, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
