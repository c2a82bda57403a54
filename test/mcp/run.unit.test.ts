// How a tool waits on a live job, against a scripted transport: Prefer: wait first, then polls
// until the job ends or the bound passes; a failed job is a tool error with its job id.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { Transport, TransportRequest } from '../../src/client/transport.js';
import { runOperation } from '../../src/mcp/run.js';
import type { ToolContext } from '../../src/mcp/tool.js';

const JOB = 'job_01M84TE32KDJ1F1BH73HNDP4KN';
const REQ = 'req_01M84TE32KDJ1F1BH73HNDP4KN';
const meta = {
  requestId: REQ,
  environment: 'live',
  sandbox: false,
  platforms: ['airbnb'],
  cached: false,
  partial: false,
  creditsCharged: 7,
  currency: 'USD',
  pagination: null,
  platformResults: [],
  warnings: [],
};

/** Answers the call with a 202, then each poll with the next of `polls` (the last one repeats). */
function scripted(polls: object[]) {
  const seen: TransportRequest[] = [];
  let n = 0;
  const json = (status: number, body: object, headers: Record<string, string> = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const transport: Transport = {
    kind: 'custom',
    base: 'scripted:',
    async send(req) {
      seen.push(req);
      if (!req.path.startsWith('/v1/jobs/'))
        return json(202, { data: { jobId: JOB, status: 'pending', pollUrl: `/v1/jobs/${JOB}` }, meta: { requestId: REQ, creditsCharged: 0 } }, { 'retry-after': '0' });
      const body = polls[Math.min(n++, polls.length - 1)]!;
      return json(200, body, { 'retry-after': '0' });
    },
    close: async () => {},
  };
  return { seen, client: createClient({ transport, apiKey: 'stay_live_x' }) };
}

const running = { data: { jobId: JOB, status: 'running', pollUrl: `/v1/jobs/${JOB}` }, meta: { requestId: REQ, creditsCharged: 0 } };
const completed = { data: { jobId: JOB, status: 'completed', result: [{ id: 'x' }] }, meta };
const failed = {
  data: { jobId: JOB, status: 'failed', error: { type: 'upstream_unavailable', code: 'all_actors_failed', message: 'Every source failed.', retryable: true } },
  meta: { requestId: REQ, creditsCharged: 0 },
};

const spec = { tool: 'search_stays', call: { method: 'GET' as const, path: '/v1/search', query: { location: 'Lisbon' } }, summarize: () => 'summary' };

describe('runOperation on a live job', () => {
  it('asks the service to wait (Prefer: wait, at most 30 s), then polls until the job completes', async () => {
    const { seen, client } = scripted([running, running, completed]);
    const progress: string[] = [];
    const ctx: ToolContext = { client, waitMs: 60_000, progress: async (m) => void progress.push(m) };
    const r = await runOperation(ctx, spec);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ data: [{ id: 'x' }], meta });
    expect(r.content?.[0]).toEqual({ type: 'text', text: 'summary' });
    expect(seen[0]!.headers.prefer).toBe('wait=30');
    expect(seen.slice(1).map((q) => q.path)).toEqual([`/v1/jobs/${JOB}`, `/v1/jobs/${JOB}`, `/v1/jobs/${JOB}`]);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('past the bound, answers the job itself for get_job', async () => {
    const { seen, client } = scripted([running]);
    const r = await runOperation({ client, waitMs: 500 }, spec);
    expect(r.isError).toBeFalsy();
    expect(seen[0]!.headers.prefer).toBeUndefined();
    expect(r.structuredContent).toMatchObject({ data: { jobId: JOB, status: 'running' } });
    expect((r.content![0] as { text: string }).text).toContain(`became job ${JOB}`);
  });

  it('a failed job is a tool error carrying its error and job id', async () => {
    const { client } = scripted([failed]);
    const r = await runOperation({ client, waitMs: 5_000 }, spec);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({
      error: { type: 'upstream_unavailable', code: 'all_actors_failed', message: 'Every source failed.', retryable: true, param: null, requestId: REQ, jobId: JOB },
    });
  });
});
