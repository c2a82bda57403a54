// Printing a failure on stderr and choosing its exit code. Human form: the message first, then
// type/code, param, requestId and docUrl; with --json the error envelope as one line, stdout empty.
import { StaysApiError, StaysConnectionError, StaysPaginationError, StaysWaitTimeoutError } from '../../src/client/errors.js';
import { EXIT, exitCodeFor } from './io.js';
import { type Term, chalkAt } from './term.js';

/** A mistake in how the command was called (exit 2), found before any request. */
export class UsageError extends Error {
  constructor(message: string, readonly param: string | null = null) {
    super(message);
    this.name = 'UsageError';
  }
}

interface Printable {
  envelope: { error: Record<string, unknown> };
  exitCode: number;
  details: string[];
}

function describe(e: unknown): Printable {
  if (e instanceof StaysApiError) {
    const envelope = e.toJSON() as unknown as Printable['envelope'];
    const details = [`${e.type}/${e.code}`];
    if (e.jobId) details.push(`job: ${e.jobId}`);
    if (e.param) details.push(`param: ${e.param}`);
    if (e.requestId) details.push(`requestId: ${e.requestId}`);
    if (e.docUrl) details.push(`docs: ${e.docUrl}`);
    return { envelope, exitCode: exitCodeFor(e.type, e.code, { jobFailed: e.jobId !== null }), details };
  }
  if (e instanceof StaysWaitTimeoutError) {
    return { envelope: { error: { type: 'wait_timeout', code: 'wait_timeout', message: e.message, jobId: e.jobId, status: e.lastStatus } }, exitCode: EXIT.waitTimeout, details: [] };
  }
  if (e instanceof UsageError) {
    return { envelope: { error: { type: 'invalid_request', code: 'usage', message: e.message, param: e.param } }, exitCode: EXIT.usage, details: [] };
  }
  // A setting that cannot be used (src/config.ts ConfigError), told apart by name so this module
  // does not load the runtime's configuration code.
  if (e instanceof Error && e.name === 'ConfigError') {
    return { envelope: { error: { type: 'invalid_request', code: 'invalid_setting', message: e.message } }, exitCode: EXIT.usage, details: [] };
  }
  if (e instanceof StaysPaginationError) {
    return { envelope: { error: { type: 'api_error', code: 'pagination_missing', message: e.message, pages: e.pages, cursor: e.lastCursor } }, exitCode: EXIT.internal, details: [] };
  }
  // The cost guard (cost.ts), told apart by name so this module does not load it.
  if (e instanceof Error && e.name === 'CostRefused') {
    return { envelope: { error: { type: 'insufficient_credits', code: 'max_credits_exceeded', message: e.message, param: 'max-credits' } }, exitCode: EXIT.credits, details: [] };
  }
  if (e instanceof StaysConnectionError) {
    return { envelope: { error: { type: 'connection_error', code: 'connection_error', message: e.message } }, exitCode: EXIT.internal, details: [] };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { envelope: { error: { type: 'internal_error', code: 'cli_error', message } }, exitCode: EXIT.internal, details: [] };
}

/** Prints the failure and returns the exit code. */
export async function reportError(e: unknown, term: Term, json: boolean): Promise<number> {
  const p = describe(e);
  if (json) {
    process.stderr.write(`${JSON.stringify(p.envelope)}\n`);
  } else {
    const c = await chalkAt(term.errColor);
    process.stderr.write(`${c.red('error:')} ${String(p.envelope.error.message)}\n`);
    if (p.details.length) process.stderr.write(`${c.dim(`  ${p.details.join('\n  ')}`)}\n`);
  }
  if (process.env.STAYS_DEBUG === '1' && e instanceof Error && p.exitCode === EXIT.internal && e.stack) process.stderr.write(`${e.stack}\n`);
  return p.exitCode;
}
