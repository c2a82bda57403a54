// Polling helpers for async jobs (D18).
import { expect } from 'vitest';
import type { Api as Stays } from './stays.js';

export interface JobBody {
  data: { jobId: string; status: string; pollUrl?: string; estimatedSeconds?: number; result?: unknown; error?: { type: string; code: string; message: string; retryable: boolean } };
  meta: {
    requestId: string;
    creditsCharged: number;
    platforms: string[];
    cached?: boolean;
    partial?: boolean;
    platformResults?: { platform: string; status: string; creditsCharged: number; cached: boolean }[];
    warnings?: { code: string }[];
  };
}

/** Polls GET /v1/jobs/{id} until completed or failed, checking the in-progress shape on the way. */
export async function pollJob(s: Stays, key: string, jobId: string, timeoutMs = 20_000): Promise<JobBody> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await s.req(`/v1/jobs/${jobId}`, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as JobBody;
    expect(body.data.jobId).toBe(jobId);
    expect(res.headers.get('x-request-id')).toBe(body.meta.requestId);
    if (body.data.status === 'completed' || body.data.status === 'failed') return body;
    expect(['pending', 'running']).toContain(body.data.status);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(body.meta.creditsCharged).toBe(0);
    if (Date.now() > until) throw new Error(`job ${jobId} still ${body.data.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A call that may answer 202: returns the final { data, meta } (or the failed job body) and the HTTP status seen first. */
export async function callLive(s: Stays, key: string, path: string, init: RequestInit = {}): Promise<{ first: number; body: JobBody | { data: unknown; meta: JobBody['meta'] }; job: JobBody | null }> {
  const res = await s.req(path, { ...init, key });
  const body = (await res.json()) as JobBody;
  if (res.status !== 202) return { first: res.status, body, job: null };
  const job = await pollJob(s, key, body.data.jobId);
  return { first: 202, body: job, job };
}
