// Tool results. Success: structuredContent is the API's answer as REST sends it ({ data, meta },
// or a job poll), and content is a short summary for agents that read text, then the same answer
// as JSON text (MCP asks a tool with structured output to send it as text too, for clients that
// do not read structuredContent). Errors are tool errors (isError) carrying the REST error
// envelope: type, code, message, param, requestId.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StaysApiError, StaysConnectionError } from '../client/errors.js';
import type { ApiErrorBody } from '../client/types.js';
import { isServiceError } from '../core/errors.js';

const json = (v: unknown) => JSON.stringify(v);

export function okResult(summary: string, body: object): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: json(body) },
    ],
    structuredContent: body as Record<string, unknown>,
  };
}

/** The error object a tool error carries: the API's own, or one in its shape for failures on this side. */
interface ToolErrorBody extends ApiErrorBody {
  param: string | null;
  requestId: string | undefined;
  jobId?: string;
}

function errorBodyOf(e: unknown): ToolErrorBody {
  if (e instanceof StaysApiError) {
    const body = e.toJSON().error;
    return { ...body, param: body.param ?? null, requestId: body.requestId };
  }
  // A path parameter refused before any request (no request, so no requestId).
  if (isServiceError(e)) return { type: e.type, code: e.code, message: e.message, param: e.param, requestId: undefined, retryable: e.retryable };
  if (e instanceof StaysConnectionError) return { type: 'connection_error', code: 'service_unreachable', message: e.message, param: null, requestId: undefined, retryable: true };
  if ((e as Error)?.name === 'AbortError') return { type: 'cancelled', code: 'cancelled', message: 'The tool call was cancelled.', param: null, requestId: undefined, retryable: true };
  return { type: 'internal_error', code: 'internal_error', message: (e as Error)?.message ?? String(e), param: null, requestId: undefined, retryable: false };
}

/** One line an agent can act on: what failed, why, and the ids to quote. */
function errorText(err: ToolErrorBody): string {
  const parts = [`Error ${err.type}/${err.code}: ${err.message}`];
  if (err.param) parts.push(`param: ${err.param}`);
  if (err.jobId) parts.push(`job: ${err.jobId}`);
  if (err.requestId) parts.push(`requestId: ${err.requestId}`);
  if (err.retryable) parts.push('retryable: yes');
  return parts.join(' · ');
}

export function errorResult(e: unknown): CallToolResult {
  const err = errorBodyOf(e);
  // Keys the wire error does not have are left out rather than sent as undefined.
  const error = Object.fromEntries(Object.entries(err).filter(([, v]) => v !== undefined));
  return { isError: true, content: [{ type: 'text', text: errorText(err) }], structuredContent: { error } };
}
