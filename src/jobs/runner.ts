// Runs jobs inside the server process and remembers the ones in flight, so `Prefer: wait` can
// await a job and identical upstream questions can share one call (D19). Job state itself lives
// in the store, so a poller never depends on this memory.
import type { ServiceError } from '../core/errors.js';
import type { Meta } from '../core/schemas/resources.js';

export type JobOutcome = { ok: true; data: unknown; meta: Meta } | { ok: false; error: ServiceError };

export class JobRunner {
  private readonly running = new Map<string, Promise<JobOutcome>>();
  /** Upstream calls in flight, by leg key (coalescing). */
  readonly inflight = new Map<string, Promise<unknown>>();

  run(id: string, task: () => Promise<JobOutcome>): Promise<JobOutcome> {
    const p = task().finally(() => this.running.delete(id));
    this.running.set(id, p);
    return p;
  }

  /** The job's outcome if it ends within `ms`, else null. */
  async wait(id: string, ms: number): Promise<JobOutcome | null> {
    const p = this.running.get(id);
    if (!p || ms <= 0) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((r) => {
      timer = setTimeout(() => r(null), ms);
    });
    try {
      return await Promise.race([p, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  get size(): number {
    return this.running.size;
  }

  /** Waits for running jobs to end, at most `ms`; what is still running then is failed on restart. */
  async drain(ms: number): Promise<void> {
    if (this.running.size === 0) return;
    await Promise.race([Promise.allSettled([...this.running.values()]), new Promise((r) => setTimeout(r, ms).unref())]);
  }
}
