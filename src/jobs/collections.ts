// `stays serve` runs collections' due items (issue 38, items 3 and 5): every tick, unless a round
// is still under way, it plans the passes that began and claims due items, COLLECTION_SLOTS at a
// time, until none is due (src/core/collections/runs.ts). Several instances on one database share
// the items; an item a killed instance held is claimed again once its lease runs out.
import { type CollectionItemReport, runDueItems } from '../core/ops/collection-runs.js';
import type { Services } from '../core/context.js';

/** How often due items are looked for: tracking items are spread over a day, so a few seconds late is nothing. */
const COLLECTION_TICK_MS = 5_000;

export interface CollectionRunner {
  stop(): Promise<void>;
}

export function startCollectionRunner(services: Services, opts: { tickMs?: number; slots?: number; onError(err: unknown): void; onItems?(reports: CollectionItemReport[]): void }): CollectionRunner {
  let round: Promise<void> | null = null;
  let stopping = false;
  const tick = () => {
    if (round || stopping) return;
    round = runDueItems(services, { owner: services.jobs.owner, ...(opts.slots === undefined ? {} : { slots: opts.slots }), stopped: () => stopping, onError: opts.onError })
      .then((reports) => {
        if (reports.length > 0) opts.onItems?.(reports);
      })
      .catch(opts.onError)
      .finally(() => {
        round = null;
      });
  };
  const timer = setInterval(tick, opts.tickMs ?? COLLECTION_TICK_MS);
  timer.unref();
  const first = setTimeout(tick, 0);
  first.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      clearTimeout(first);
      await round;
    },
  };
}
