// On a terminal: a rate-limit pause shows on the spinner, and the cost guard asks before an --all
// walk passes its cap (answering no stops it: exit 5). The pseudo-terminal comes from script(1).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { BIN } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { freshSandbox } from './helpers.js';

/**
 * Runs the CLI on a pseudo-terminal. `answer` is typed once `when` shows on the screen (never on
 * a timer: the test waits for the prompt, however slow the machine).
 */
function onTty(args: string[], env: NodeJS.ProcessEnv, reply?: { when: RegExp; answer: string }): Promise<{ code: number | null; screen: string }> {
  const quoted = `stty cols 120 rows 40; ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`;
  const base = { ...process.env };
  for (const k of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'STAYS_BASE_URL', 'STAYS_API_KEY']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { env: { ...base, TERM: 'xterm-256color', ...env } });
  let screen = '';
  let replied = false;
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    if (reply && !replied && reply.when.test(screen)) {
      replied = true;
      child.stdin.write(reply.answer);
    }
  });
  if (!reply) child.stdin.end();
  return new Promise((r) => child.once('close', (code) => r({ code, screen })));
}

let s: Stays;
let a: TestAccount;
let fake: FakeJobs;
beforeAll(async () => {
  [s, fake] = await Promise.all([startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100', STAYS_SIM_FAIL: '' }), startFakeJobs()]);
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await Promise.all([s.stop(), fake.close()]);
});

describe('on a terminal', () => {
  it('the spinner says the command is rate limited and when it retries', async () => {
    const { code, screen } = await onTty(['search', 'busy-once', '--base-url', fake.url, '--api-key', 'stay_live_fake'], freshSandbox().env);
    expect(code).toBe(0);
    expect(screen).toMatch(/rate limited, retrying in 1 s/);
    expect(screen).toContain('Fake flat');
  });

  it('the cost guard asks before an --all walk passes --max-credits; no stops it with exit 5, nothing more charged', async () => {
    const before = ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number } } }).data.credits.balance;
    const args = ['search', 'Faro', '--platforms', 'airbnb', '--limit', '5', '--all', '--max-credits', '15', '--base-url', s.url, '--api-key', a.liveKey];
    const { code, screen } = await onTty(args, freshSandbox().env, { when: /Continue\?/, answer: 'n\r' });
    expect(screen).toMatch(/next page \(2\) may cost up to 10 credits, after 10 charged for 1 page, which passes --max-credits 15\. Continue\?/);
    expect(code).toBe(5);
    const after = ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number } } }).data.credits.balance;
    expect(after).toBe(before - 10);
  });
});
