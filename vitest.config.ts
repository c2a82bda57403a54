import { defineConfig } from 'vitest/config';

// Three tiers (docs/testing.md), told apart by the file name:
//   *.unit.test.ts       unit: pure modules, injected clock and ids, no store, no socket
//   *.inprocess.test.ts  inprocess: the app, the store and the CLI in this process (temp SQLite)
//   *.test.ts            e2e: everything else; child processes (`stays serve`, the CLI, `stays admin`), the build in dist/
// `npm run test:fast` runs unit and inprocess; `npm test` runs all three after the type-check and the build.
const UNIT = 'test/**/*.unit.test.ts';
const INPROCESS = 'test/**/*.inprocess.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      // Not isolated: the files of a worker share its loaded modules (loading the service's modules
      // again for each file was over half of these tiers' time). A test restores what it changes
      // in the process: vi.stubEnv with vi.unstubAllEnvs, spies restored, process.exitCode reset.
      { extends: true, test: { name: 'unit', include: [UNIT], isolate: false } },
      { extends: true, test: { name: 'inprocess', include: [INPROCESS], isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: [UNIT, INPROCESS, '**/node_modules/**'] } },
    ],
  },
});
