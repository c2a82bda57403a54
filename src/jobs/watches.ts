// `stays serve` runs due watches (issue 26, item 4): every tick it claims the watches whose next
// run is due (another instance on the same database claims others) and runs them one by one
// (src/core/ops/watch-runs.ts). A run in progress finishes before stop() resolves.
import type { Services } from '../core/context.js';
import { type WatchRunReport, runDueWatches } from '../core/ops/watch-runs.js';

/** How often due watches are looked for: runs are minutes apart (at least 15), so a run starts at most this late. */
const WATCH_TICK_MS = 30_000;

export interface WatchRunner {
  /** Runs what is due now (waiting for a tick's runs in progress first); what the tick does. */
  runDue(): Promise<WatchRunReport[]>;
  stop(): Promise<void>;
}

export function startWatchRunner(services: Services, opts: { tickMs?: number; onError(err: unknown): void; onRuns?(reports: WatchRunReport[]): void }): WatchRunner {
  let stopped = false;
  let current: Promise<WatchRunReport[]> = Promise.resolve([]);
  const runDue = (): Promise<WatchRunReport[]> => {
    current = current.then(
      () => (stopped ? [] : runDueWatches(services)),
      () => (stopped ? [] : runDueWatches(services)),
    );
    return current;
  };
  const tick = async () => {
    try {
      const reports = await runDue();
      if (reports.length > 0) opts.onRuns?.(reports);
    } catch (e) {
      opts.onError(e);
    }
  };
  const timer = setInterval(() => void tick(), opts.tickMs ?? WATCH_TICK_MS);
  timer.unref();
  // The first look at once: watches that came due while no server ran.
  const first = setTimeout(() => void tick(), 0);
  first.unref();
  return {
    runDue,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await current.catch(() => undefined);
    },
  };
}
