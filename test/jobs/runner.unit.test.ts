// The job runner's waits (issue 35, item 6): a finished wait keeps nothing of the answer it
// waited for, and shutdown still ends every wait at once.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { JobOutcome } from '../../src/core/ports/runtime.js';
import type { Meta } from '../../src/core/schemas/resources.js';
import { JobRunner } from '../../src/jobs/runner.js';

// A full collection on demand, without starting the worker with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const outcome = (data: unknown): JobOutcome => ({ ok: true, data, meta: {} as Meta });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('JobRunner waits', () => {
  it('a wait that ended keeps nothing of the answer: it can be collected', async () => {
    const runner = new JobRunner('inst_test');
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = { rows: Array.from({ length: 100 }, (_, j) => ({ id: `${i}-${j}` })) };
      refs.push(new WeakRef(answer));
      runner.run(`job_${i}`, `hold_${i}`, async () => outcome(answer));
      expect(await runner.wait(`job_${i}`, 5_000)).toMatchObject({ ok: true });
    }
    await tick();
    gc();
    // Before: each wait raced a promise that settles only at shutdown, which kept every answer.
    expect(refs.filter((r) => r.deref() !== undefined).length).toBe(0);
  });

  it('stopWaiting ends the waits under way and every later one at once (null), and unlessStopping passes an outcome through', async () => {
    const runner = new JobRunner('inst_test');
    let finish!: (o: JobOutcome) => void;
    runner.run('job_slow', 'hold_slow', () => new Promise<JobOutcome>((r) => (finish = r)));
    expect(await runner.unlessStopping(Promise.resolve('done'))).toBe('done');
    await expect(runner.unlessStopping(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const waiting = runner.wait('job_slow', 60_000);
    const pending = runner.unlessStopping(new Promise(() => undefined));
    runner.stopWaiting();
    expect(await waiting).toBeNull();
    expect(await pending).toBeNull();
    expect(await runner.unlessStopping(new Promise(() => undefined))).toBeNull();
    finish(outcome(1));
  });
});
