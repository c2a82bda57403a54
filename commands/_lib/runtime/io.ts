// Process-facing helpers shared by commands: printing and the exit-code map (the one place that
// turns an outcome into an exit code; README and `stays help exit-codes` print EXIT_DOC).
import { isatty } from 'node:tty';
import type { ErrorCode, ErrorType } from '../../../src/core/errors.js';

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  credits: 5,
  rateLimited: 6,
  upstream: 7,
  waitTimeout: 8,
  /** `stays watch run` only: a watch's rule held on a run (its events are printed): cron and CI scripts branch on it. */
  watchTriggered: 10,
  /** `stays watch run` only: watches were due and every run failed (none ran): cron tells it from "nothing changed". */
  watchRunsFailed: 11,
  /** 128 + SIGHUP: the terminal went away (`stays webhooks listen` still cleans up). */
  hangup: 129,
  interrupted: 130,
} as const;

const BY_TYPE: Partial<Record<ErrorType, number>> = {
  invalid_request: EXIT.usage,
  not_found: EXIT.notFound,
  authentication_error: EXIT.auth,
  permission_denied: EXIT.auth,
  insufficient_credits: EXIT.credits,
  rate_limited: EXIT.rateLimited,
  upstream_unavailable: EXIT.upstream,
  upstream_timeout: EXIT.upstream,
};

/**
 * The exit code for an error envelope. A failed job maps by its error type like a synchronous
 * error (so a listing_not_found exits 3 whether the sandbox answered at once or a live job failed);
 * a failed job whose type says nothing more specific exits 7, as the upstream work failed.
 */
export function exitCodeFor(type: ErrorType | string, code?: ErrorCode | string, opts: { jobFailed?: boolean } = {}): number {
  // A job canceled (DELETE /v1/jobs/{jobId}) is a job that failed, not a usage error of this call.
  if (code === 'job_canceled') return EXIT.upstream;
  const mapped = BY_TYPE[type as ErrorType];
  if (mapped !== undefined) return mapped;
  return opts.jobFailed ? EXIT.upstream : EXIT.internal;
}

/** The documented table: `stays help exit-codes` and the README print exactly this. */
export const EXIT_DOC: [number, string][] = [
  [EXIT.ok, 'success (an empty result too; --no-wait with a job accepted)'],
  [EXIT.internal, 'unexpected error, internal_error, the service could not be reached, or an --all walk got a page without pagination (stays api --paginate: a page answered 202)'],
  [EXIT.usage, 'usage error (bad flag, missing argument) or invalid_request'],
  [EXIT.notFound, 'not_found (listing, job, route)'],
  [EXIT.auth, 'authentication_error or permission_denied'],
  [EXIT.credits, 'insufficient_credits, refused by --max-credits, or a credit question on a terminal answered no'],
  [EXIT.rateLimited, 'rate_limited after retries'],
  [EXIT.upstream, 'upstream_unavailable, upstream_timeout, a failed or canceled job, or partial results with --fail-on-partial'],
  [EXIT.waitTimeout, 'the wait timed out (--timeout) with the job still running'],
  [EXIT.watchTriggered, 'stays watch run: a watch triggered (its events are printed); 0 when none did'],
  [EXIT.watchRunsFailed, 'stays watch run: watches were due and every run failed or ended (stderr says why)'],
  [EXIT.hangup, 'the terminal closed (SIGHUP) while stays webhooks listen ran; its webhook is deleted'],
  [EXIT.interrupted, 'interrupted (Ctrl-C)'],
];

/**
 * One JSON document as the CLI prints it everywhere: indented for a person on a terminal, one
 * compact line otherwise (pipes, files, `jq`, line-oriented tools).
 */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`;
}

/** Writes one JSON document to stdout (indented only when stdout is a terminal). */
export function printJson(value: unknown): void {
  const { stdout } = io();
  stdout.write(jsonText(value, stdout.isTTY === true));
}

/** An output stream as a command sees it: what it writes to, whether it is a terminal and how wide. */
export type OutStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/**
 * What a command runs against (as gh's IOStreams): its streams, which of them are terminals, its
 * environment and command line, and where its exit code goes. Commands read these through io(),
 * never process.*, so a test runs the CLI in its own process (runCli in commands/cli.ts) with
 * streams it reads back. The default is the real process (processIO); what only a process has
 * (signals, raw-mode terminals, `stays serve`, `stays webhooks listen`) still uses it.
 */
export interface IOStreams {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdin: NodeJS.ReadableStream;
  /** Which of stdin, stdout and stderr are terminals. */
  readonly tty: { readonly stdin: boolean; readonly stdout: boolean; readonly stderr: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** The command line as process.argv has it: [node, stays, ...args]. */
  readonly argv: readonly string[];
  exitCode: number | undefined;
  /** The real process only: ends it now. In-process there is no process of the command's to end. */
  readonly exit?: (code?: number) => void;
}

/** The real process: its streams (opened on first use), isatty, process.env, process.exitCode. */
export function processIO(): IOStreams {
  // isatty, not process.stdin.isTTY: touching process.stdin opens a stream (a few ms of start-up)
  // that a command reading no input never needs.
  let ttys: { stdin: boolean; stdout: boolean; stderr: boolean } | undefined;
  const tty = () => (ttys ??= { stdin: isatty(0), stdout: isatty(1), stderr: isatty(2) });
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    tty: {
      get stdin() {
        return tty().stdin;
      },
      get stdout() {
        return tty().stdout;
      },
      get stderr() {
        return tty().stderr;
      },
    },
    env: process.env,
    argv: process.argv,
    get exitCode() {
      return process.exitCode === undefined ? undefined : Number(process.exitCode);
    },
    set exitCode(code) {
      process.exitCode = code;
    },
    exit: (code) => process.exit(code),
  };
}

let current: IOStreams | undefined;

/** The streams of the command being run (the real process unless runCli was given others). */
export function io(): IOStreams {
  return (current ??= processIO());
}

/** Runs `fn` with `streams` as io(); runs do not overlap (runCli queues them). */
export async function withIO<T>(streams: IOStreams, fn: () => Promise<T>): Promise<T> {
  const before = current;
  current = streams;
  try {
    return await fn();
  } finally {
    current = before;
  }
}

/**
 * `stays … | head -1` must end quietly: the reader is gone, so there is nobody left to tell.
 * For the real process only (main.ts).
 */
export function quietOnClosedPipes(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
}
