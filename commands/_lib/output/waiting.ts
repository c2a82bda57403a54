// Telling the user a job is running: an ora spinner with the job id and elapsed time when stderr
// is a TTY and we are not in CI; otherwise a plain status line on stderr about every 10 seconds
// (logs of CI runs and pipes stay readable and free of escape codes).
import type { RetryEvent, WaitEvent } from '../../../src/client/types.js';
import type { Term } from '../runtime/term.js';
import { io } from '../runtime/io.js';

const STATUS_EVERY_MS = 10_000;

export interface WaitUi {
  onWait(e: WaitEvent): void;
  /** A pause before a retry: shown on the spinner, or as one status line. */
  onRetry(e: RetryEvent): void;
  /** The job being waited on, if any (for the Ctrl-C message). */
  jobId(): string | null;
  stop(): void;
}

type Spinner = import('ora').Ora;

export function createWaitUi(term: Term): WaitUi {
  // A pseudo-terminal with no size (columns 0) would make the spinner's redraw maths run away.
  // The command's streams, kept: the timers below write after createWaitUi has returned.
  const streams = io();
  const spin = term.errTTY && !term.ci && (streams.stderr.columns ?? 0) > 0;
  let job: { id: string; status: string; since: number } | null = null;
  let spinner: Spinner | null = null;
  let loading = false;
  let timer: NodeJS.Timeout | null = null;
  /** While the client sits out a retry: what it waits for and until when. */
  let retry: { why: string; until: number } | null = null;

  const secs = () => Math.round((Date.now() - (job?.since ?? Date.now())) / 1000);
  const retryText = () => (retry ? `${retry.why}, retrying in ${Math.max(0, Math.ceil((retry.until - Date.now()) / 1000))} s` : '');
  const text = () => {
    if (retry && retry.until > Date.now()) return job ? `Job ${job.id} (${job.status}): ${retryText()}` : retryText();
    retry = null;
    return job ? `Waiting for job ${job.id} (${job.status}, ${secs()} s)` : 'Retrying…';
  };

  function start(): void {
    if (spin) {
      loading = true;
      // ora is only loaded when there is a job to wait for (or a retry to sit out).
      void import('ora').then(({ default: ora }) => {
        if (!loading || (!job && !retry)) return;
        spinner = ora({ text: text(), stream: streams.stderr, color: term.errColor ? 'cyan' : false, discardStdin: false, isEnabled: true }).start();
        timer = setInterval(() => spinner && (spinner.text = text()), 1000).unref();
      });
    } else {
      streams.stderr.write(`stays: waiting for job ${job?.id} (${job?.status})\n`);
      timer = setInterval(() => streams.stderr.write(`stays: job ${job?.id} still ${job?.status} after ${secs()} s\n`), STATUS_EVERY_MS).unref();
    }
  }

  const WHY: Record<RetryEvent['reason'], string> = {
    rate_limited: 'rate limited',
    server_error: 'the service answered an error',
    connection_failed: 'could not connect',
    in_progress: 'the same request is still running',
  };

  return {
    onRetry(e) {
      retry = { why: WHY[e.reason], until: Date.now() + e.waitMs };
      if (spin) {
        if (spinner) spinner.text = text();
        else if (!loading) start();
      } else {
        streams.stderr.write(`stays: ${retryText()}${e.status ? ` (HTTP ${e.status})` : ''}\n`);
      }
    },
    onWait(e) {
      const first = job === null && !loading && !spinner;
      job = { id: e.jobId, status: e.status, since: job?.since ?? Date.now() - e.elapsedMs };
      if (first) start();
      else if (spin && spinner) spinner.text = text();
    },
    jobId: () => job?.id ?? null,
    stop() {
      loading = false;
      if (timer) clearInterval(timer);
      timer = null;
      spinner?.stop();
      spinner = null;
      job = null;
      retry = null;
    },
  };
}
