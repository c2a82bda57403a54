// Prompts at a terminal (script(1) pseudo-terminal): Ctrl-C at a prompt exits 130 quietly, like
// Ctrl-C anywhere else, and dates are checked as they are typed. Every keystroke is sent once
// what it answers shows on the screen (never on a timer), so a slow machine only runs slower.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, day } from '../helpers/stays.js';
import { freshSandbox } from './helpers.js';

interface Step {
  /** Shown on the screen (after the previous step's keys were sent). */
  when: RegExp;
  keys: string;
}

/** Runs the CLI on a pseudo-terminal, typing each step's keys once its text shows. */
function onTty(args: string[], steps: Step[]): Promise<{ code: number | null; screen: string; pending: number }> {
  const quoted = `stty cols 120 rows 40; ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`;
  const base = { ...process.env };
  for (const k of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'STAYS_BASE_URL', 'STAYS_API_KEY']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { env: { ...base, TERM: 'xterm-256color', ...freshSandbox().env } });
  let screen = '';
  let from = 0;
  const todo = [...steps];
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    while (todo.length > 0 && todo[0]!.when.test(screen.slice(from))) {
      from = screen.length;
      child.stdin.write(todo.shift()!.keys);
    }
  });
  // A step that never shows would leave the prompt waiting: end it so the test fails with the screen.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise((r) =>
    child.once('close', (code) => {
      clearTimeout(stuck);
      r({ code, screen, pending: todo.length });
    }),
  );
}

const CTRL_C = '\x03';
const CTRL_U = '\x15'; // readline: clear the line typed so far
const ENTER = '\r';

describe('prompts on a terminal', () => {
  it("Ctrl-C at a prompt exits 130 without inquirer's message", async () => {
    const { code, screen, pending } = await onTty(['search'], [{ when: /Where\?/, keys: CTRL_C }]);
    expect(pending).toBe(0);
    expect(code).toBe(130);
    expect(screen).not.toMatch(/force closed|SIGINT|error:|interrupted/i);
  });

  it('Ctrl-C at a choice prompt exits 130 too', async () => {
    const { code, screen, pending } = await onTty(['price'], [{ when: /Platform\?/, keys: CTRL_C }]);
    expect(pending).toBe(0);
    expect(code).toBe(130);
    expect(screen).not.toMatch(/force closed|error:|interrupted/i);
  });

  it('a date is checked as it is typed: form, calendar, past, and check-out after check-in', async () => {
    const checkIn = day(30);
    const { code, screen, pending } = await onTty(
      ['price', 'airbnb', '12345678', '-o', 'tsv'],
      [
        { when: /Check-in \(YYYY-MM-DD\)\?/, keys: `2027-3-1${ENTER}` },
        { when: /--check-in is a date in YYYY-MM-DD form/, keys: `${CTRL_U}2027-02-30${ENTER}` },
        { when: /2027-02-30 is not a calendar date/, keys: `${CTRL_U}2020-01-01${ENTER}` },
        { when: /2020-01-01 is in the past/, keys: `${CTRL_U}${checkIn}${ENTER}` },
        { when: /Check-out \(YYYY-MM-DD\)\?/, keys: `${checkIn}${ENTER}` },
        { when: new RegExp(`--check-out must be after --check-in \\(${checkIn}\\)`), keys: `${CTRL_U}${day(33)}${ENTER}` },
      ],
    );
    expect(pending, screen).toBe(0);
    expect(code, screen).toBe(0);
    // The quote for the dates finally typed.
    expect(screen).toMatch(/airbnb\s+12345678\s+\d+(\.\d+)?\s/);
  });

  it('the end date of availability must come after its start date', async () => {
    const start = day(10);
    const { code, screen, pending } = await onTty(
      ['availability', 'vrbo', '4886746', '--start-date', start, '-o', 'tsv'],
      [
        { when: /End date \(YYYY-MM-DD\)\?/, keys: `${day(5)}${ENTER}` },
        { when: new RegExp(`--end-date must be after --start-date \\(${start}\\)`), keys: `${CTRL_U}${day(12)}${ENTER}` },
      ],
    );
    expect(pending, screen).toBe(0);
    expect(code, screen).toBe(0);
    expect(screen).toContain(day(11));
  });
  it('history takes past dates at its prompts (it reads past stays), still checking form and order', async () => {
    const { code, screen, pending } = await onTty(
      ['history', 'price', 'vrbo', '321', '--from', '2020-01-01', '--to', '2020-12-31', '-o', 'tsv'],
      [
        { when: /Check-in \(YYYY-MM-DD\)\?/, keys: `2020-3-1${ENTER}` },
        { when: /--check-in is a date in YYYY-MM-DD form/, keys: `${CTRL_U}2020-03-01${ENTER}` },
        { when: /Check-out \(YYYY-MM-DD\)\?/, keys: `2020-02-01${ENTER}` },
        { when: /--check-out must be after --check-in \(2020-03-01\)/, keys: `${CTRL_U}2020-03-04${ENTER}` },
      ],
    );
    expect(pending, screen).toBe(0);
    // The sandbox history of that past stay: its sightings lie in the window asked for.
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/2020-0[12]-\d\dT00:00:00\.000Z\t/);
    expect(screen).not.toMatch(/is in the past/);
  });
});
