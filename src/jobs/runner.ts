// Runs jobs inside this process and remembers the ones in flight, so `Prefer: wait` can await a
// job and identical upstream questions can share one call (D19). Job state itself lives in the
// store, so a poller never depends on this memory. Every job this process runs is owned by it in
// the store (`owner`, with a lease the heartbeat renews: src/jobs/leases.ts).
import type { LiveWork } from '../core/ports/store.js';
import type { JobOutcome, JobRunnerPort } from '../core/ports/runtime.js';

export type { JobOutcome };

export class JobRunner implements JobRunnerPort {
  private readonly running = new Map<string, Promise<JobOutcome>>();
  /** Upstream calls in flight, by leg key (coalescing). */
  readonly inflight = new Map<string, Promise<unknown>>();
  /**
   * Credit holds this process will still settle or release (a call between its hold and its
   * answer, a job's hold while the job runs), and the shared flights it leads: with the running
   * jobs, the only work whose leases the heartbeat renews. Whatever leaves these sets unsettled (a
   * write that failed while the database was away) expires with its lease and is released by a sweep.
   */
  readonly holds = new Set<string>();
  readonly flights = new Set<string>();
  /**
   * Who waits and gives up when shutdown begins, each removed once its wait ends. Not one promise
   * that every wait races against: a promise that never settles keeps a reaction for every race
   * ever run against it, and each reaction the race's answer (a whole search result, with its
   * rendered bytes): the server grew by half a megabyte a live search (issue 35, item 6).
   */
  private readonly stopListeners = new Set<() => void>();
  private stopping = false;

  /** @param owner this process's instance id, which owns the jobs it runs. */
  constructor(readonly owner: string) {}

  /** Runs the job `id`, which owns the credit hold `holdId` until it ends. */
  run(id: string, holdId: string, task: () => Promise<JobOutcome>): Promise<JobOutcome> {
    this.holds.add(holdId);
    const p = task().finally(() => {
      this.running.delete(id);
      this.holds.delete(holdId);
    });
    this.running.set(id, p);
    return p;
  }

  /** What the heartbeat renews: the work in flight in this process. */
  live(): LiveWork {
    return { jobs: [...this.running.keys()], holds: [...this.holds], flights: [...this.flights] };
  }

  /** The job's outcome if it ends within `ms`, else null (also at once after stopWaiting()). */
  async wait(id: string, ms: number): Promise<JobOutcome | null> {
    const p = this.running.get(id);
    if (!p || ms <= 0) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((r) => {
      timer = setTimeout(() => r(null), ms);
    });
    try {
      return await this.unlessStopping(Promise.race([p, timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * `p`'s outcome, or null as soon as shutdown begins (stopWaiting): work that only waits (a
   * sandbox `pending` job, a `Prefer: wait` caller) gives up then. Keeps nothing once `p` settles.
   */
  unlessStopping<T>(p: Promise<T>): Promise<T | null> {
    if (this.stopping) return Promise.resolve(null);
    return new Promise<T | null>((resolve, reject) => {
      const stop = () => resolve(null);
      this.stopListeners.add(stop);
      p.then(resolve, reject).finally(() => this.stopListeners.delete(stop));
    });
  }

  /** Shutdown: every `Prefer: wait` caller gets its answer (the job's 202) now rather than at its deadline. */
  stopWaiting(): void {
    this.stopping = true;
    for (const stop of this.stopListeners) stop();
    this.stopListeners.clear();
  }

  get size(): number {
    return this.running.size;
  }

  /** Ids of the jobs running in this process. */
  ids(): string[] {
    return [...this.running.keys()];
  }

  /** Waits for running jobs to end, at most `ms`; returns whether all of them did. */
  async drain(ms: number): Promise<boolean> {
    if (this.running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.allSettled([...this.running.values()]).then(() => true);
    const late = new Promise<boolean>((r) => {
      timer = setTimeout(() => r(false), ms);
    });
    try {
      return (await Promise.race([all, late])) && this.running.size === 0;
    } finally {
      clearTimeout(timer);
    }
  }
}
