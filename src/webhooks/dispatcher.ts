// The delivery engine, one per process: claims due deliveries from the store's outbox under this
// process's owner id and a lease (as jobs are claimed), POSTs each signed body, records every
// attempt and schedules the retry: at once, then 1 s and 6 s after failures, 3 attempts in all
// (spec "Events", D22). Deliveries run concurrently (at most `concurrency`), one at a time per
// webhook so a receiver sees its events in order and a slow one holds one slot, and at most
// `perAccount` of one account's at a time (any process), claimed round-robin across accounts, so
// one account's failing receivers and backlog cannot hold everyone's deliveries back (issue 21).
// A webhook failing again and again is paused longer and longer, then disabled (the store
// counts; STAYS_WEBHOOK_DISABLE_AFTER). The API never waits on any of this. Between deliveries
// it sleeps until the next one is due, or until an event is queued in this process; it also
// looks every `pollMs` for work queued by other processes.
// Its timers are unref'd: it never keeps a process alive by itself.
import { type Clock, systemClock } from '../core/clock.js';
import type { ClaimedDelivery, Store } from '../core/ports/store.js';
import type { WebhookHub } from './hub.js';
import { type Resolver, type SendResult, sendOnce } from './send.js';
import { denyPrivateTargets } from './targets.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './sign.js';

/** Deliveries in flight per process, and of one account at most (all processes together). */
const DELIVERY_SLOTS = 16;
const PER_ACCOUNT_IN_FLIGHT = 4;

/** Attempts in all, and the wait after each failed one before the next (spec: 1 s, then 6 s). */
const MAX_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [1_000, 6_000] as const;

export interface DispatcherOptions {
  store: Store;
  clock: Clock;
  /**
   * The clock a delivery's signature is dated by (default the system's). The signature is
   * transport: a receiver checks its t against its own real clock, so it is never the service's
   * clock, which STAYS_NOW may move; the payload's times stay the service's (issue 36, item 18).
   */
  transportClock?: Clock;
  hub: WebhookHub;
  /** This process's instance id (services.jobs.owner): the owner of the deliveries it claims. */
  owner: string;
  config: { webhookTimeoutMs: number; jobLeaseMs: number; webhookDisableAfter: number } & Parameters<typeof denyPrivateTargets>[0];
  userAgent: string;
  /**
   * In-process CLI mode: start on the first event this process queues (a command that queues
   * none never touches the outbox) and remember those events, so `drain` can wait for them.
   */
  inProcess?: boolean;
  concurrency?: number;
  perAccount?: number;
  /** Longest sleep between looks at the outbox (work queued by other processes). */
  pollMs?: number;
  retryDelaysMs?: readonly number[];
  resolve?: Resolver;
  onError?(e: unknown): void;
}

export interface Dispatcher {
  /** Starts claiming and delivering. */
  start(): void;
  /** Looks at the outbox now (an event was queued). */
  wake(): void;
  /**
   * Waits up to `ms` for the events this process queued to be delivered or to have used their
   * attempts (retries included); whether they all did. In-process mode only; else true at once.
   */
  drain(ms: number): Promise<boolean>;
  /**
   * Stops claiming; attempts in flight get `graceMs` to finish, then are cut off unrecorded: their
   * deliveries stay claimed until the lease expires and another process (or the next start) sends
   * them again. Resolves when nothing is in flight.
   */
  stop(graceMs: number): Promise<void>;
  /** Attempts in flight. */
  readonly active: number;
}

/**
 * Waits for `p`, at most `ms`, on a ref'd timer (the process stays up meanwhile) that is cleared
 * as soon as either ends, so nothing is left to hold the process once the wait is over.
 */
async function upTo(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, ms))))]);
  } finally {
    clearTimeout(timer);
  }
}

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const concurrency = o.concurrency ?? DELIVERY_SLOTS;
  const perAccount = o.perAccount ?? PER_ACCOUNT_IN_FLIGHT;
  const pollMs = o.pollMs ?? 1_000;
  const delays = o.retryDelaysMs ?? RETRY_DELAYS_MS;
  const transportClock = o.transportClock ?? systemClock;
  const timeoutMs = o.config.webhookTimeoutMs;
  // Fixed for the process's life: its configuration and where it listens (docs/decisions.md).
  const denyPrivate = denyPrivateTargets(o.config);
  // Long enough for one attempt (bounded by the timeout) and for recording it, with the job
  // lease as the margin; so no renewal is needed while an attempt is in flight.
  const leaseMs = timeoutMs + o.config.jobLeaseMs;
  const onError = o.onError ?? (() => undefined);
  const inflight = new Map<string, Promise<void>>();
  const mine = new Set<string>();
  const halt = new AbortController();
  let started = false;
  let stopping = false;
  let ticking = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let settled: () => void = () => undefined;
  let changed = new Promise<void>((r) => (settled = r));
  const notify = () => {
    settled();
    changed = new Promise<void>((r) => (settled = r));
  };

  o.hub.onQueued((ids) => {
    if (o.inProcess) {
      for (const id of ids) mine.add(id);
      if (!started) start();
    }
    wake();
  });

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const n = d.attempts + 1;
    const at = o.clock.now();
    let r: SendResult;
    try {
      const secret = o.hub.box().open(d.secretEnc);
      const headers = {
        [SIGNATURE_HEADER]: signatureHeader(d.body, secret, Math.floor(transportClock.now() / 1000)),
        [EVENT_ID_HEADER]: d.id,
        'user-agent': o.userAgent,
      };
      r = await sendOnce(d.url, d.body, { headers, timeoutMs, denyPrivate, signal: halt.signal, resolve: o.resolve });
    } catch (e) {
      // Shutdown cut it off: not an attempt the receiver failed; it stays claimed (see stop).
      if (halt.signal.aborted) return;
      onError(e);
      // The secret cannot be opened (another server key): sending is impossible, so not retried.
      r = { kind: 'refused', preview: `not sent: ${(e as Error).message}`.slice(0, 500) };
    }
    const delivered = r.kind === 'answered' && r.status >= 200 && r.status < 300;
    const retry = !delivered && r.kind !== 'refused' && n < MAX_ATTEMPTS;
    await o.store.recordAttempt({
      deliveryId: d.id,
      owner: o.owner,
      attempt: n,
      statusCode: r.kind === 'answered' ? r.status : null,
      responsePreview: r.preview,
      delivered,
      at,
      retryAt: retry ? o.clock.now() + (delays[n - 1] ?? delays[delays.length - 1]!) : null,
      endedAt: o.clock.now(),
      failure: delivered ? null : r.kind === 'answered' ? `HTTP ${r.status}` : r.preview,
      disableAfter: o.config.webhookDisableAfter,
    });
  }

  function launch(d: ClaimedDelivery) {
    const p = attempt(d)
      .catch(onError)
      .finally(() => {
        inflight.delete(d.id);
        notify();
        wake();
      });
    inflight.set(d.id, p);
  }

  /** Claims what is due and free slots allow, then sleeps until the next delivery is due. */
  async function tick(): Promise<void> {
    ticking = true;
    try {
      do {
        again = false;
        if (timer) clearTimeout(timer);
        timer = null;
        const free = concurrency - inflight.size;
        let claimed = 0;
        if (free > 0) {
          const now = o.clock.now();
          const list = await o.store.claimDeliveries(o.owner, now, now + leaseMs, free, { onePerWebhook: true, perAccount });
          if (stopping) {
            // Claimed just as the stop came: left to the lease, like any cut-off delivery.
            break;
          }
          for (const d of list) launch(d);
          claimed = list.length;
        }
        if (stopping) break;
        const next = await o.store.nextDeliveryAt();
        const now = o.clock.now();
        let wait = pollMs;
        if (next !== null && next > now) wait = Math.min(pollMs, next - now);
        // Due but not claimable (in flight here or elsewhere, one per webhook, or its account's share in flight): a short look again.
        else if (next !== null && claimed < free) wait = Math.min(pollMs, 250);
        if (!stopping && !again) {
          timer = setTimeout(wake, wait);
          timer.unref();
        }
      } while (again && !stopping);
    } catch (e) {
      onError(e);
      if (!stopping) {
        timer = setTimeout(wake, pollMs);
        timer.unref();
      }
    } finally {
      ticking = false;
    }
  }

  function wake() {
    if (!started || stopping) return;
    if (ticking) {
      again = true;
      return;
    }
    void tick();
  }

  function start() {
    if (started || stopping) return;
    started = true;
    wake();
  }

  return {
    start,
    wake,
    get active() {
      return inflight.size;
    },
    async drain(ms) {
      if (!o.inProcess) return true;
      const until = Date.now() + ms;
      // Events fired just before (a job's last one) are queued first.
      await upTo(o.hub.idle(), ms);
      for (;;) {
        const left = await o.store.pendingDeliveries([...mine]);
        mine.clear();
        for (const id of left) mine.add(id);
        if (left.length === 0) return true;
        const rest = until - Date.now();
        if (rest <= 0 || stopping) return false;
        start();
        wake();
        // A ref'd timer: the command's process stays up while its events are being delivered.
        await upTo(changed, Math.min(rest, 250));
      }
    },
    async stop(graceMs) {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (inflight.size > 0 && graceMs > 0) await upTo(Promise.allSettled([...inflight.values()]), graceMs);
      halt.abort(Object.assign(new Error('The webhook dispatcher stopped.'), { name: 'AbortError' }));
      await Promise.allSettled([...inflight.values()]);
      // A tick may be between its claim and its return.
      while (ticking) await upTo(new Promise(() => undefined), 5);
    },
  };
}
