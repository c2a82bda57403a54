// What the core needs from the runtime around it, as interfaces it owns: the job runner of this
// process (jobs/runner.ts implements it), where its events go (the webhook hub, webhooks/hub.ts)
// and the box that seals secrets (secrets.ts). The store's port is ports/store.ts.
import type { ServiceError } from '../errors.js';
import type { KeyEnv } from '../ids.js';
import type { Meta } from '../schemas/resources.js';
import type { LiveWork, WebhookEvent } from './store.js';

/** How a job ended: the answer it was started for, or its error. */
export type JobOutcome = { ok: true; data: unknown; meta: Meta } | { ok: false; error: ServiceError };

/** This process's jobs and the work in flight that its heartbeat renews. */
export interface JobRunnerPort {
  /** This process's instance id, which owns the jobs it runs and the holds it takes. */
  readonly owner: string;
  /** Upstream calls in flight, by leg key (coalescing). */
  readonly inflight: Map<string, Promise<unknown>>;
  /** Credit holds this process will still settle or release. */
  readonly holds: Set<string>;
  /** Shared flights this process leads. */
  readonly flights: Set<string>;
  /** Runs the job `id`, which owns the credit hold `holdId` until it ends. */
  run(id: string, holdId: string, task: () => Promise<JobOutcome>): Promise<JobOutcome>;
  /** The job's outcome if it ends within `ms`, else null. */
  wait(id: string, ms: number): Promise<JobOutcome | null>;
  /** `p`'s outcome, or null as soon as shutdown begins: work that only waits gives up then. */
  unlessStopping<T>(p: Promise<T>): Promise<T | null>;
  /** What the heartbeat renews: the work in flight in this process. */
  live(): LiveWork;
}

/** Seals a secret for storage and opens it again. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** Whose event it is: the account, and the environment of the key whose call caused it. */
export interface EventOwner {
  accountId: string;
  env: KeyEnv;
}

/** Where the core's events go: queued for the account's subscribed webhooks. */
export interface EventSink {
  /**
   * Queues `event` with `data` for the subscribed webhooks of the account in the environment the
   * event happened in (a live job's events reach live webhooks only); resolves once it is queued.
   */
  emit(owner: EventOwner, event: WebhookEvent, data: Record<string, unknown>): Promise<void>;
  /** The server key's box for signing secrets (loaded, or generated into the data dir, on first use). */
  box(): SecretBox;
  /** Resolves once every emit made so far has been queued (or has failed and been reported). */
  idle(): Promise<void>;
  /** Deliveries queued again outside emit (a resend): the dispatcher hears of them as of new ones. */
  announce(deliveryIds: string[]): void;
}
