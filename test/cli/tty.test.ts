// On a terminal: a table with a bold header, a spinner while a job runs, and no colour at all
// with NO_COLOR. The pseudo-terminal comes from `script` (util-linux, Debian's bsdutils, which
// .ci/run installs when it is missing).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { SGR_COLOUR, SPINNER_FRAMES, type Sandbox, freshSandbox } from './helpers.js';

/** Runs the CLI with stdin, stdout and stderr on one pseudo-terminal; returns what it showed. */
function onTty(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; screen: string }> {
  const quoted = `stty cols 160 rows 50; ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`;
  const base = { ...process.env };
  for (const k of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'STAYS_BASE_URL', 'STAYS_API_KEY']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { env: { ...base, TERM: 'xterm-256color', ...env } });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
  child.stdin.end();
  return new Promise((r) => child.once('close', (code) => r({ code, screen })));
}

let box: Sandbox;
let fake: FakeJobs;
beforeAll(async () => {
  box = freshSandbox();
  fake = await startFakeJobs();
});
afterAll(async () => {
  await fake.close();
});

describe('on a TTY (script(1) pseudo-terminal)', () => {
  it('prints a table with a bold header and the footer', async () => {
    const { code, screen } = await onTty(['search', 'Lisbon', '--limit', '2', '--platforms', 'airbnb'], box.env);
    expect(code).toBe(0);
    expect(screen).toMatch(/\x1b\[1mNAME\x1b\[22m +\x1b\[1mPLATFORM\x1b\[22m/);
    expect(screen).toMatch(/\d\.\d\/5/);
    expect(screen).toMatch(/credits charged \(sandbox\)/);
  });

  it('shows a spinner with the job id and elapsed time while a job runs', async () => {
    const { code, screen } = await onTty(['search', 'done', '--base-url', fake.url, '--api-key', 'stay_live_fake'], box.env);
    expect(code).toBe(0);
    expect(screen).toMatch(SPINNER_FRAMES);
    expect(screen).toMatch(/Waiting for job job_done \((pending|running), \d+ s\)/);
    expect(screen).toContain('Fake flat');
  });

  it('NO_COLOR=1 on a TTY: no colour in the table, the footer or the spinner', async () => {
    const table = await onTty(['search', 'Lisbon', '--limit', '1'], { ...box.env, NO_COLOR: '1' });
    expect(table.screen).toMatch(/NAME +PLATFORM/);
    expect(table.screen).not.toMatch(SGR_COLOUR);
    const spin = await onTty(['search', 'done', '--base-url', fake.url, '--api-key', 'stay_live_fake'], { ...box.env, NO_COLOR: '1' });
    expect(spin.screen).toMatch(SPINNER_FRAMES);
    expect(spin.screen).not.toMatch(SGR_COLOUR);
  });

  it('in CI a TTY gets status lines, not a spinner', async () => {
    const { screen } = await onTty(['search', 'done', '--base-url', fake.url, '--api-key', 'stay_live_fake'], { ...box.env, CI: 'true' });
    expect(screen).toMatch(/stays: waiting for job job_done/);
    expect(screen).not.toMatch(SPINNER_FRAMES);
  });
});
