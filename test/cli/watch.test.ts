// `stays watch run` as cron runs it (issue 26, item 5): the built CLI as a child process, stdout a
// pipe: a sandbox watch of listing 100 triggers on its first run (exit 10, one JSON line per
// event), and the next run finds nothing due (exit 0, nothing printed); the same against a
// `stays serve` child with --base-url (POST /v1/watches/run). And README's "Watches" block, run
// verbatim through bash. The in-process tests are watch.inprocess.test.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStays, tempDir } from '../helpers/stays.js';
import { bash, freshSandbox, json, pathWithStays, stays } from './helpers.js';

describe('stays watch run, a child process', () => {
  it('exit 10 with the events as JSON lines when a rule held; exit 0 and nothing printed when nothing is due', async () => {
    const box = freshSandbox();
    const add = await stays(['watch', 'add', 'price', 'booking', 'pt/100', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--below', '150', '--drop', '5', '--json'], box.env);
    expect(add.code, add.stderr).toBe(0);
    const id = json<{ data: { id: string } }>(add).data.id;
    const run = await stays(['watch', 'run'], box.env);
    expect(run.code, run.stderr).toBe(10);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { watchId: string; rule: { type: string; amount?: number }; after: { nightlyPrice: number } });
    expect(events.map((e) => [e.watchId, e.rule.type])).toEqual([
      [id, 'price_below'],
      [id, 'price_drop'],
    ]);
    expect(events[0]!.after.nightlyPrice).toBeLessThan(150);
    const again = await stays(['watch', 'run'], box.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
  });
});

describe('stays watch run against a server, both child processes', () => {
  it('the server runs the due watches (POST /v1/watches/run): exit 10 with the JSON lines, then exit 0 and nothing', async () => {
    const server = await startStays();
    try {
      const a = await server.account();
      const env = { ...freshSandbox().env, STAYS_BASE_URL: server.url, STAYS_API_KEY: a.sandboxKey };
      const add = await stays(['watch', 'add', 'search', 'watch', '--new-listings', '--name', 'remote', '--json'], env);
      expect(add.code, add.stderr).toBe(0);
      const id = json<{ data: { id: string } }>(add).data.id;
      const run = await stays(['watch', 'run'], env);
      expect(run.code, run.stderr).toBe(10);
      const events = run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { watchId: string; name: string; rule: { type: string }; call: { type: string } });
      expect(events.map((e) => [e.watchId, e.name, e.rule.type, e.call.type])).toEqual([[id, 'remote', 'new_listings', 'search']]);
      const again = await stays(['watch', 'run'], env);
      expect([again.code, again.stdout, again.stderr]).toEqual([0, '', '']);
    } finally {
      await server.stop();
    }
  });
});

describe("README's Watches block, verbatim", () => {
  it('every line runs on a fresh machine and exits 0 (the run line tests its own exit 10)', async () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const start = readme.indexOf('### Watches\n');
    const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
    const lines = block.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(lines.filter((l) => l.startsWith('stays watch ')).length).toBeGreaterThanOrEqual(6);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
    }
  }, 120_000);
});

describe('stays watch run when every due run failed (issue 36, item 13), a child process', () => {
  it('exit 11 and each failure on stderr; one run that worked beside a failed one: exit 0 (10 when it triggered)', async () => {
    const box = freshSandbox();
    // Sandbox listing 404 answers listing_not_found: its runs fail, free.
    const add = await stays(['watch', 'add', 'price', 'airbnb', '404', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--below', '150', '--json'], box.env);
    expect(add.code, add.stderr).toBe(0);
    const id = json<{ data: { id: string } }>(add).data.id;
    const run = await stays(['watch', 'run'], box.env);
    expect(run.code, run.stderr).toBe(11);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`watch ${id}: its run failed`);
    expect(run.stderr).toContain('listing_not_found');
    // A day on, it is due again beside one that works: not every run failed.
    const ok = await stays(['watch', 'add', 'price', 'airbnb', '12345678', '--check-in', '2027-03-01', '--check-out', '2027-03-04', '--drop', '10', '--json'], box.env);
    expect(ok.code, ok.stderr).toBe(0);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const mixed = await stays(['watch', 'run'], { ...box.env, STAYS_NOW: tomorrow });
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stderr).toContain(`watch ${id}: its run failed`);
    const codes = await stays(['help', 'exit-codes'], box.env);
    expect(codes.stdout).toMatch(/^\s+11 {2}stays watch run: watches were due and every run failed/m);
  }, 60_000);
});

describe('stays watch run says when due runs were skipped (issue 36, item 3), a child process', () => {
  it('a daily watch run again three days on: one run, and stderr says two due runs were skipped and why', async () => {
    const box = freshSandbox();
    const at = (iso: string, args: string[]) => stays(['watch', ...args], { ...box.env, STAYS_NOW: iso });
    const add = await at('2027-01-01T06:00:00Z', ['add', 'search', 'Lisbon', '--new-listings', '--every', '1d', '--json']);
    expect(add.code, add.stderr).toBe(0);
    const id = json<{ data: { id: string } }>(add).data.id;
    expect((await at('2027-01-01T06:00:01Z', ['run'])).stderr).toBe('');
    // A tick a little early the next day is within the slack: it runs, nothing said.
    const early = await at('2027-01-02T05:59:59.990Z', ['run', '--json']);
    expect([early.code, early.stderr]).toEqual([0, '']);
    expect(json<{ meta: { runs: { watchId: string; missedRuns: number }[] } }>(early).meta.runs).toEqual([expect.objectContaining({ watchId: id, missedRuns: 0 })]);
    const late = await at('2027-01-05T06:00:00Z', ['run', '--json']);
    expect(late.code, late.stderr).toBe(0);
    expect(json<{ meta: { runs: { missedRuns: number }[] } }>(late).meta.runs.map((r) => r.missedRuns)).toEqual([2]);
    expect(late.stderr).toContain(`watch ${id}: 2 due runs were skipped: nothing ran the due watches then`);
  }, 60_000);
});

describe('stays watch add errors name the flags typed (issue 36, item 15), a child process', () => {
  it('a rule refused names --drop, --below or the rule flag, in the message and as the param; --json keeps the API envelope', async () => {
    const box = freshSandbox();
    const STAY = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
    const cases: [string[], RegExp, string][] = [
      [['add', 'price', 'airbnb', '1', ...STAY, '--below', '100', '--drop', '150'], /error: --drop must be at most 100/, '--drop'],
      [['add', 'price', 'airbnb', '1', ...STAY, '--below=-3'], /error: --below must be greater than 0/, '--below'],
      [
        ['add', 'calendar', 'booking', 'us/x', '--start-date', '2027-03-01', '--end-date', '2027-03-09', '--min-nights-changed'],
        /error: --min-nights-changed cannot trigger on a booking calendar/,
        '--min-nights-changed',
      ],
      [['add', 'price', 'airbnb', '1', '--check-in', '2027-03-04', '--check-out', '2027-03-01', '--drop', '10'], /error: --check-out must be after --check-in/, '--check-out'],
    ];
    for (const [args, message, flag] of cases) {
      const r = await stays(['watch', ...args], box.env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).toContain(`param: ${flag}`);
      expect(r.stderr, args.join(' ')).not.toMatch(/rules\[\d\]|percent|call\.params/);
    }
    const j = await stays(['watch', 'add', 'price', 'airbnb', '1', ...STAY, '--drop', '150', '--json'], box.env);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: 'invalid_parameter', param: 'rules[0].percent' } });
  }, 60_000);
});
