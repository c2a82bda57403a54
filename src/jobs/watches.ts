// `stays serve` runs due watches (issue 26, item 4): every tick it fills its watch pool
// (src/core/ops/watch-runs.ts): due watches claimed (another instance on the same database claims
// others) and run concurrently, at most WATCH_RUN_SLOTS at once and WATCH_RUNS_PER_ACCOUNT of one
// account, each account's first before anyone's next (issue 35, item 4). A run ended claims again
// at once; the tick finds what came due meanwhile. Runs in progress finish before stop() resolves.
import type { Services } from '../core/context.js';
import { type WatchRunReport, watchPool } from '../core/ops/watch-runs.js';

/** How often due watches are looked for: runs are minutes apart (at least 15), so a run starts at most this late while a slot is free. */
const WATCH_TICK_MS = 30_000;

export interface WatchRunner {
  /** Runs what is due now and waits until no run is in flight; the reports of the runs ended meanwhile. */
  runDue(): Promise<WatchRunReport[]>;
  stop(): Promise<void>;
}

export function startWatchRunner(
  services: Services,
  opts: { tickMs?: number; slots?: number; perAccount?: number; onError(err: unknown): void; onRuns?(reports: WatchRunReport[]): void },
): WatchRunner {
  // The runs ended while a runDue() waits, for it.
  const collectors = new Set<WatchRunReport[]>();
  const pool = watchPool(services, {
    ...(opts.slots === undefined ? {} : { slots: opts.slots }),
    ...(opts.perAccount === undefined ? {} : { perAccount: opts.perAccount }),
    onRun: (r) => {
      for (const c of collectors) c.push(r);
      opts.onRuns?.([r]);
    },
    onError: opts.onError,
  });
  const tick = () => void pool.fill();
  const timer = setInterval(tick, opts.tickMs ?? WATCH_TICK_MS);
  timer.unref();
  // The first look at once: watches that came due while no server ran.
  const first = setTimeout(tick, 0);
  first.unref();
  return {
    async runDue() {
      const got: WatchRunReport[] = [];
      collectors.add(got);
      try {
        await pool.fill();
        await pool.idle();
      } finally {
        collectors.delete(got);
      }
      return got;
    },
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      await pool.stop();
    },
  };
}
