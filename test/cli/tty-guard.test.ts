// On a terminal: a rate-limit pause shows on the spinner, and the cost guard asks before an --all
// walk passes its cap (answering no stops it: exit 5). The pseudo-terminal comes from script(1).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { BIN } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { freshSandbox } from './helpers.js';

/**
 * Runs the CLI on a pseudo-terminal. Each reply's `answer` is typed once its `when` shows on the
 * screen after the previous reply (never on a timer: the test waits for the prompt, however slow
 * the machine). `pending`: the replies whose prompt never showed.
 */
function onTty(args: string[], env: NodeJS.ProcessEnv, reply?: Reply | Reply[]): Promise<{ code: number | null; screen: string; pending: number }> {
  const quoted = `stty cols 120 rows 40; ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`;
  const base = { ...process.env };
  for (const k of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'STAYS_BASE_URL', 'STAYS_API_KEY']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { env: { ...base, TERM: 'xterm-256color', ...env } });
  let screen = '';
  let from = 0;
  const todo = reply === undefined ? [] : Array.isArray(reply) ? [...reply] : [reply];
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    while (todo.length > 0 && todo[0]!.when.test(flat(screen.slice(from)))) {
      from = screen.length;
      child.stdin.write(todo.shift()!.answer);
    }
  });
  if (!reply) child.stdin.end();
  // A reply whose prompt never shows would leave the question waiting: end it, so the test fails with the screen.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise((r) =>
    child.once('close', (code) => {
      clearTimeout(stuck);
      r({ code, screen, pending: todo.length });
    }),
  );
}

interface Reply {
  when: RegExp;
  answer: string;
}

/** The screen as text: no escape sequences, and a question inquirer wrapped at the width on one line. */
// eslint-disable-next-line no-control-regex
const flat = (screen: string) => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s*\r?\n\s*/g, ' ');

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

  it('after a yes, the next question names the cap that yes set and what was charged, not the first cap', async () => {
    const before = ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number } } }).data.credits.balance;
    // Each airbnb page of 5 may cost 10: page 1 passes 5 at once; yes allows it and 5 more (15).
    const args = ['search', 'Faro', '--platforms', 'airbnb', '--limit', '5', '--all', '--max-credits', '5', '-o', 'jsonl', '--base-url', s.url, '--api-key', a.liveKey];
    const {
      code,
      screen: raw,
      pending,
    } = await onTty(args, freshSandbox().env, [
      { when: /This call may cost up to 10 credits, which passes --max-credits 5\. Continue\?/, answer: 'y\r' },
      { when: /next page \(2\)[^?]*Continue\?/, answer: 'y\r' },
      { when: /next page \(3\)[^?]*Continue\?/, answer: 'n\r' },
    ]);
    const screen = flat(raw);
    expect(pending, screen).toBe(0);
    expect(screen).toMatch(
      /next page \(2\) may cost up to 10 credits, after 10 charged for 1 page, which passes 15 credits, the cap since you continued at page 1 \(5 more beyond that page\)\. Continue\?/,
    );
    expect(screen).toMatch(
      /next page \(3\) may cost up to 10 credits, after 20 charged for 2 pages, which passes 25 credits, the cap since you continued at page 2 \(5 more beyond that page\)\. Continue\?/,
    );
    expect(screen).not.toMatch(/next page \(\d\) may cost up to 10 credits, after \d+ charged for \d pages?, which passes --max-credits/);
    expect(code).toBe(5);
    const after = ((await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number } } }).data.credits.balance;
    expect(after).toBe(before - 20);
  });

  it('without --max-credits, a walk asked about at the default cap of 100 says later what it has charged and the cap it runs to', async () => {
    // Four platforms at limit 10: each page may cost 55 (the worst case), so page 2 passes 100.
    const args = ['search', 'Faro', '--all', '-o', 'jsonl', '--base-url', s.url, '--api-key', a.liveKey];
    const {
      code,
      screen: raw,
      pending,
    } = await onTty(args, freshSandbox().env, [
      {
        when: /next page \(2\) may cost up to 55 credits, after \d+ charged for 1 page, which passes the default cap of 100 credits on a terminal \(set --max-credits N\)\. Continue\?/,
        answer: 'y\r',
      },
      { when: /next page \(\d+\)[^?]*continued at page 2[^?]*Continue\?/, answer: 'n\r' },
    ]);
    const screen = flat(raw);
    expect(pending, screen).toBe(0);
    expect(code).toBe(5);
    const [, page, spent, cap] =
      /next page \((\d+)\) may cost up to 55 credits, after (\d+) charged for \d+ pages, which passes (\d+) credits, the cap since you continued at page 2 \(100 more beyond that page\)/
        .exec(screen)!
        .map(Number);
    expect(page).toBeGreaterThan(2);
    expect(spent! + 55).toBeGreaterThan(cap!);
    expect(cap).toBeGreaterThan(100);
    expect(screen).not.toMatch(/next page \((?:[3-9]|\d\d)\)[^?]*default cap/);
  });
});
