// Process-facing helpers shared by commands: printing and the exit-code map (one place).
import type { ErrorCode, ErrorType } from '../../src/core/errors.js';

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

export function exitCodeFor(type: ErrorType | string, _code?: ErrorCode | string): number {
  return BY_TYPE[type as ErrorType] ?? EXIT.internal;
}

/** Writes one JSON document to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

// `stays … | head -1` must end quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
});
