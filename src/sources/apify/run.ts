// One actor run over the official apify-client, loaded on first use (never on the CLI's cold
// path): a synchronous run-sync-get-dataset-items call when the run's timeout fits under the
// platform's 300 s cut-off, else an async run polled to its end (aborted at our deadline).
// Platform answers map to our codes (research §3): 408 / TIMED-OUT / our deadline → actor_timeout;
// a failed run with a block signal → actor_blocked, else all_actors_failed; 402 and 429 (refusals
// to start) → upstream_unavailable (retryable); a bad token or an unknown actor → all_actors_failed
// naming the setting. The token never appears in a message.
import { ServiceError } from '../../core/errors.js';
import { type ActorSpec, SYNC_MAX_SECS } from './actors.js';

export interface ClientOptions {
  token: string;
  /** The API root without /v2 (apify-client appends it): https://api.apify.com, or a fake's. */
  baseUrl: string;
  /** apify-client's retries of 429, 5xx and network errors (its default, 8, can take minutes). */
  maxRetries: number;
}

export interface RunResult {
  items: unknown[];
  runId: string | null;
  /** usageTotalUsd of an async run; null for a sync call (the platform does not say). */
  costUsd: number | null;
  /** The run's terminal status message (async runs only). */
  statusMessage: string | null;
}

/** What runActor needs of apify-client: created lazily, so importing this module loads nothing. */
type Client = import('apify-client').ApifyClient;
const clients = new Map<string, Promise<Client>>();

export function clientFor(o: ClientOptions): Promise<Client> {
  const key = `${o.baseUrl}\n${o.maxRetries}\n${o.token}`;
  let c = clients.get(key);
  if (!c) {
    c = import('apify-client').then((m) => {
      const ApifyClient = m.ApifyClient ?? (m as unknown as { default: { ApifyClient: typeof m.ApifyClient } }).default.ApifyClient;
      return new ApifyClient({ token: o.token, baseUrl: o.baseUrl, maxRetries: o.maxRetries, minDelayBetweenRetriesMillis: 500, timeoutSecs: 360 });
    });
    clients.set(key, c);
  }
  return c;
}

const BLOCK = /\b0 succeeded, [1-9]\d* failed\b|blocked|captcha|\b403\b|\b429\b|too many requests|challenge|access denied|proxy/i;

interface ApiErrorLike {
  statusCode?: number;
  type?: string;
  message?: string;
  code?: string;
}

/** A platform error → our code; `actor` names the actor in the message. */
function mapError(e: unknown, actor: string): ServiceError {
  if (e instanceof ServiceError) return e;
  const err = (e ?? {}) as ApiErrorLike;
  const status = err.statusCode;
  const text = String(err.message ?? e).slice(0, 300);
  if (status === 408 || err.type === 'run-timeout-exceeded' || err.code === 'ECONNABORTED' || /timeout of \d+ms exceeded|ETIMEDOUT/i.test(text)) {
    return new ServiceError('actor_timeout', `Actor ${actor} did not finish in time: ${text}`, { cause: e });
  }
  if (status === 429 || status === 402) {
    return new ServiceError('upstream_unavailable', `The scraping platform refused to start ${actor} for now (${status} ${err.type ?? ''}): ${text} Retry later.`, { cause: e });
  }
  if (status === 401) {
    return new ServiceError('all_actors_failed', `The scraping platform refused the token (STAYS_APIFY_TOKEN): ${err.type ?? 'invalid-token'}. Check it with: stays doctor`, { cause: e });
  }
  if (status === 404 && err.type === 'actor-not-found') {
    return new ServiceError('all_actors_failed', `Actor ${actor} was not found on the scraping platform; fix STAYS_ACTORS (stays doctor lists what serves each need).`, { cause: e });
  }
  if (status === 400 && err.type === 'run-failed') {
    if (/status: TIM(?:ED|ING)-OUT/.test(text)) return new ServiceError('actor_timeout', `Actor ${actor} timed out: ${text}`, { cause: e });
    return new ServiceError('all_actors_failed', `Actor ${actor} failed: ${text}`, { cause: e });
  }
  return new ServiceError('all_actors_failed', `Actor ${actor} failed (${status ?? 'network'} ${err.type ?? ''}): ${text}`.replace(/\s+/g, ' '), { cause: e });
}

/** The failure of a run that ended without succeeding, by its status and message. */
function endedError(actor: string, status: string, message: string | null): ServiceError {
  const why = message ? `: ${message}` : '';
  if (status === 'TIMED-OUT' || status === 'TIMING-OUT') return new ServiceError('actor_timeout', `Actor ${actor} timed out${why}`);
  if (message && BLOCK.test(message)) return new ServiceError('actor_blocked', `Actor ${actor} was blocked (${status})${why}`);
  return new ServiceError('all_actors_failed', `Actor ${actor} ended ${status}${why}`);
}

/** Whether an empty dataset's run says the crawl was blocked (async runs carry the message). */
export function blockedMessage(message: string | null): boolean {
  return message !== null && BLOCK.test(message);
}

function runParams(spec: ActorSpec) {
  const p: Record<string, string | number> = { timeout: spec.timeoutSecs };
  if (spec.memoryMbytes !== undefined) p.memory = spec.memoryMbytes;
  if (spec.build !== undefined) p.build = spec.build;
  if (spec.maxTotalChargeUsd !== undefined) p.maxTotalChargeUsd = spec.maxTotalChargeUsd;
  return p;
}

/** Runs the actor on the input and returns its dataset items, or throws a ServiceError. */
export async function runActor(o: ClientOptions, spec: ActorSpec, input: Record<string, unknown>): Promise<RunResult> {
  const client = await clientFor(o);
  const mode = spec.mode ?? (spec.timeoutSecs <= SYNC_MAX_SECS ? 'sync' : 'async');
  try {
    return mode === 'sync' ? await runSync(client, spec, input) : await runAsync(client, spec, input);
  } catch (e) {
    throw mapError(e, spec.id);
  }
}

async function runSync(client: Client, spec: ActorSpec, input: Record<string, unknown>): Promise<RunResult> {
  // apify-client has no method for this endpoint; its HTTP client gives the same auth, retries
  // (429/5xx) and body compression as every other call.
  const http = (client as unknown as { httpClient: { call(c: Record<string, unknown>): Promise<{ data: unknown }> } }).httpClient;
  const response = await http.call({
    url: `${client.baseUrl}/actors/${encodeURIComponent(spec.id.replace('/', '~'))}/run-sync-get-dataset-items`,
    method: 'POST',
    data: input,
    params: { ...runParams(spec), format: 'json', clean: 1 },
    // The run is cut off by its own timeout; the HTTP call waits a little longer, and is not
    // retried on a timeout (a retry would start a second paid run).
    timeout: (spec.timeoutSecs + 15) * 1000,
    doNotRetryTimeouts: true,
  });
  const items = Array.isArray(response.data) ? response.data : [];
  return { items, runId: null, costUsd: null, statusMessage: null };
}

async function runAsync(client: Client, spec: ActorSpec, input: Record<string, unknown>): Promise<RunResult> {
  const actor = client.actor(spec.id.replace('/', '~'));
  const started = await actor.start(input, {
    timeout: spec.timeoutSecs,
    ...(spec.memoryMbytes ? { memory: spec.memoryMbytes } : {}),
    ...(spec.build ? { build: spec.build } : {}),
    ...(spec.maxTotalChargeUsd !== undefined ? { maxTotalChargeUsd: spec.maxTotalChargeUsd } : {}),
  });
  const run = (await client.run(started.id).waitForFinish({ waitSecs: spec.timeoutSecs })) ?? started;
  if (run.status === 'READY' || run.status === 'RUNNING' || run.status === 'TIMING-OUT' || run.status === 'ABORTING') {
    // Our deadline: stop the run so it stops billing, and say so.
    await client
      .run(run.id)
      .abort()
      .catch(() => undefined);
    throw new ServiceError('actor_timeout', `Actor ${spec.id} was still ${run.status} after ${spec.timeoutSecs} s (run ${run.id}); it was aborted.`);
  }
  const message = run.statusMessage ?? null;
  if (run.status !== 'SUCCEEDED') throw endedError(spec.id, run.status, message);
  const list = await client.dataset(run.defaultDatasetId).listItems({ clean: true });
  return { items: list.items, runId: run.id, costUsd: typeof run.usageTotalUsd === 'number' ? run.usageTotalUsd : null, statusMessage: message };
}
