// --dry-run on the billable commands: what the command would send and what it may cost at worst,
// on stdout, and nothing sent (in-process: no call into the service either; the only write is the
// local sandbox account a first in-process run provisions, which costs nothing). The worst case is
// the cost guard's (cost.ts, the service's billing formulas); exit 0 whatever the guard would do.
import type { ApiCall } from '../../../src/client/http.js';
import { buildPath } from '../../../src/client/http.js';
import type { Ctx } from '../runtime/context.js';
import { capOf, worstCase } from './guard.js';
import { UsageError } from '../runtime/errors.js';
import { jsonText, io } from '../runtime/io.js';

export interface DryRunRequest {
  method: ApiCall['method'];
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
}

/** The --dry-run document (--json, -o json/jsonl, --jq): a stable shape. */
export interface DryRunPlan {
  dryRun: true;
  /** remote (a base URL is set) or in-process (the local store). */
  mode: 'remote' | 'in-process';
  /** The service root; null in-process. */
  target: string | null;
  /** The key's environment: a sandbox key is charged nothing. */
  keyEnv: 'live' | 'sandbox';
  requests: DryRunRequest[];
  /** What this key may be charged at worst for the call (each page of an --all walk): 0 on a sandbox key. */
  worstCaseCredits: number;
  /** The same on a live key, by the service's billing formulas. */
  liveWorstCaseCredits: number;
  /** --all: worstCaseCredits is per page, and the walk resends the request with `next` until the last page or the cap. */
  perPage: boolean;
  next: { query: { cursor: string } } | { body: { nextPageToken: string } } | null;
  /** What guards the cost: --max-credits N, or the default cap on a terminal; null when nothing does. */
  cap: { credits: number; source: 'max-credits' | 'terminal' } | null;
  /** Whether the cost guard would stop before the first request (exit 5, or a question on a terminal). */
  overCap: boolean;
}

function requestOf(call: ApiCall): DryRunRequest {
  const r: DryRunRequest = { method: call.method, path: call.path };
  if (call.query) {
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(call.query)) {
      if (v === undefined || v === null || v === '') continue;
      query[k] = Array.isArray(v) ? v.map(String) : String(v);
    }
    if (Object.keys(query).length) r.query = query;
  }
  if (call.body !== undefined) r.body = call.body;
  return r;
}

export function dryRunPlan(ctx: Ctx, call: ApiCall, o: { all: boolean }): DryRunPlan {
  const live = worstCase(call) ?? 0;
  const cap = capOf(ctx, call, o);
  const post = call.method === 'POST';
  return {
    dryRun: true,
    mode: ctx.inProcess ? 'in-process' : 'remote',
    target: ctx.inProcess ? null : ctx.base,
    keyEnv: ctx.keyEnv,
    requests: [requestOf(call)],
    worstCaseCredits: ctx.keyEnv === 'sandbox' ? 0 : live,
    liveWorstCaseCredits: live,
    perPage: o.all,
    next: o.all ? (post ? { body: { nextPageToken: '<meta.next_page_token of the previous page>' } } : { query: { cursor: '<meta.pagination.nextCursor of the previous page>' } }) : null,
    cap,
    overCap: cap !== null && live > cap.credits,
  };
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

function planText(p: DryRunPlan): string {
  const [r] = p.requests;
  const lines = [`Dry run: nothing sent, nothing charged.`];
  lines.push(`Would send: ${r!.method} ${buildPath(r!.path, r!.query)}${p.mode === 'remote' ? ` to ${p.target}` : ' in-process (the local store)'}`);
  if (r!.body !== undefined) lines.push(`  body: ${JSON.stringify(r!.body)}`);
  const unit = p.perPage ? ' per page' : '';
  lines.push(
    p.keyEnv === 'sandbox' ? `Worst case: 0 credits${unit}: a sandbox key is free (${credits(p.liveWorstCaseCredits)}${unit} on a live key).` : `Worst case: ${credits(p.worstCaseCredits)}${unit}.`,
  );
  if (p.perPage) {
    const how = 'body' in p.next! ? 'the same body with nextPageToken from each page' : 'the same query with cursor from each page';
    lines.push(
      `--all: every page is another request (${how}), each up to ${credits(p.liveWorstCaseCredits)}${p.keyEnv === 'sandbox' ? ' on a live key' : ''}, until the last page${p.cap ? ` or the cap` : ''}.`,
    );
  }
  if (p.cap) {
    const name = p.cap.source === 'max-credits' ? `--max-credits ${p.cap.credits}` : `the default cap of ${credits(p.cap.credits)} on a terminal`;
    const stop = p.perPage ? 'the walk stops before the page that would pass it' : 'a call over it is refused';
    lines.push(
      `Cap: ${name} (${stop})${p.overCap ? `; this ${p.perPage ? 'first page' : 'call'} passes it and would be ${p.cap.source === 'max-credits' ? 'refused (exit 5)' : 'asked about'}` : ''}.`,
    );
  } else if (p.keyEnv === 'live') {
    lines.push(`Cap: none (set --max-credits N to refuse a call${p.perPage ? ' or stop a walk' : ''} that may cost more).`);
  }
  return `${lines.join('\n')}\n`;
}

/** Prints the plan: JSON with --json, -o json/jsonl or --jq (run on the plan), else text. */
export async function printDryRun(ctx: Ctx, call: ApiCall, o: { all: boolean }): Promise<void> {
  // What the run itself would refuse before any request, the dry run refuses too (run.ts walkPages).
  if (o.all && !ctx.wait) throw new UsageError('--all needs to wait for each page; drop --no-wait.', 'all');
  const plan = dryRunPlan(ctx, call, o);
  if (ctx.jq !== null) {
    const { printSelected } = await import('../output/select.js');
    await printSelected(plan as unknown as { data: unknown }, { fields: null, jq: ctx.jq }, ctx.term);
    return;
  }
  if (ctx.fields !== null || ctx.format === 'json' || ctx.format === 'jsonl') {
    io().stdout.write(jsonText(plan, ctx.term.outTTY && ctx.format !== 'jsonl'));
    return;
  }
  io().stdout.write(planText(plan));
}
