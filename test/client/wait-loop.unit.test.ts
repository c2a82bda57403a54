// The one job-wait loop (client/wait.ts) shared by the CLI and the MCP tools, on a fake clock.
import { describe, expect, it } from 'vitest';
import type { JobEnvelope } from '../../src/client/types.js';
import { MAX_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, pollJobUntil } from '../../src/client/wait.js';

const job = (status: JobEnvelope['data']['status']): JobEnvelope => ({ data: { jobId: 'job_1', status }, meta: { requestId: 'req_1' } }) as unknown as JobEnvelope;

/** A clock that moves only when the loop sleeps; `answers` are the polls' replies in turn. */
function harness(answers: { status: JobEnvelope['data']['status']; hint: number | null }[]) {
  let t = 1_000_000;
  const slept: number[] = [];
  const waited: number[] = [];
  let polls = 0;
  return {
    slept,
    waited,
    get polls() {
      return polls;
    },
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
    poll: async () => {
      const a = answers[Math.min(polls++, answers.length - 1)]!;
      return { job: job(a.status), retryAfterMs: a.hint };
    },
    onWait: (_j: JobEnvelope, elapsed: number) => void waited.push(elapsed),
  };
}

describe('pollJobUntil', () => {
  it('follows Retry-After, clamped to the shortest and longest pause, and returns the finished job', async () => {
    const h = harness([
      { status: 'running', hint: 0 },
      { status: 'running', hint: 60_000 },
      { status: 'completed', hint: null },
    ]);
    const end = await pollJobUntil(job('pending'), 2_000, { deadline: h.now() + 120_000, ...h });
    expect(end.data.status).toBe('completed');
    expect(h.slept).toEqual([2_000, MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS]);
    expect(h.waited).toEqual([0, 2_000, 2_000 + MIN_POLL_INTERVAL_MS]);
  });

  it('backs off 1, 2, 4, 8 s without a hint, capped by maxIntervalMs (the MCP tools use 5 s)', async () => {
    const running = Array.from({ length: 6 }, () => ({ status: 'running' as const, hint: null }));
    const cli = harness([...running, { status: 'completed', hint: null }]);
    await pollJobUntil(job('running'), null, { deadline: cli.now() + 600_000, ...cli });
    expect(cli.slept).toEqual([1_000, 2_000, 4_000, 8_000, MAX_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS]);
    const mcp = harness([...running, { status: 'completed', hint: null }]);
    await pollJobUntil(job('running'), null, { deadline: mcp.now() + 600_000, maxIntervalMs: 5_000, ...mcp });
    expect(mcp.slept).toEqual([1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000]);
  });

  it('stops at the deadline with the last job seen, never sleeping past it', async () => {
    const h = harness([{ status: 'running', hint: 4_000 }]);
    const end = await pollJobUntil(job('running'), 4_000, { deadline: h.now() + 10_000, ...h });
    expect(end.data.status).toBe('running');
    expect(h.slept).toEqual([4_000, 4_000, 2_000]);
    expect(h.polls).toBe(3);
  });

  it('does not poll a job that has already ended', async () => {
    const h = harness([{ status: 'running', hint: null }]);
    const end = await pollJobUntil(job('failed'), null, { deadline: h.now() + 10_000, ...h });
    expect(end.data.status).toBe('failed');
    expect(h.polls).toBe(0);
    expect(h.slept).toEqual([]);
  });
});
