// `stays webhooks listen` as its help shows it (issue 22, items 8 and 18), in-process on a fresh
// machine: the piped jq example, run verbatim, prints each event with its job id (the field is
// data.job_id; the example once read .data.jobId and printed "job": null), fed by
// `stays webhooks trigger job.succeeded`; and no registration outlives a listen: Ctrl-C deletes
// it, a reader that went away (| head -1) no longer leaves it behind, and one left by a listen that
// was killed (SIGKILL) is deleted by the next listen on this machine.
import { untilOutput } from '../helpers/until.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../commands/program.js';
import { tempDir } from '../helpers/stays.js';
import { freshSandbox, json, pathWithStays, stays } from './helpers.js';

/** The example's waits: a listener's first lines can take a while on a busy box. */
const until = (text: () => string, re: RegExp, ms = 20_000) => untilOutput(text, re, ms);

/** The listen example that pipes into jq, from the help text itself. */
async function listenExample(): Promise<string> {
  const listen = (await buildProgram()).commands.find((c) => c.name() === 'webhooks')!.commands.find((c: Command) => c.name() === 'listen')!;
  let text = '';
  listen.configureOutput({ writeOut: (s) => void (text += s) });
  listen.outputHelp();
  const line = text.split('\n').find((l) => /^\s+stays webhooks listen .*\| jq /.test(l));
  if (!line) throw new Error(`no piped listen example in:\n${text}`);
  return line.trim();
}

interface Bg {
  child: ChildProcess;
  out(): string;
  err(): string;
  exit: Promise<number | null>;
}

/** A shell line in the background, in its own process group (so a Ctrl-C reaches the whole pipeline). */
function background(line: string, env: NodeJS.ProcessEnv, cwd: string): Bg {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_PROFILE', 'STAYS_DEBUG', 'NO_COLOR', 'FORCE_COLOR', 'CI', 'STAYS_DATA_DIR', 'STAYS_CONFIG_DIR']) delete base[k];
  const child = spawn('bash', ['-o', 'pipefail', '-c', line], { env: { ...base, ...env }, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return { child, out: () => out, err: () => err, exit: new Promise((r) => child.once('close', (code) => r(code))) };
}

/** A shell line on a pseudo-terminal (script(1)): stdout and stderr are one screen, stdin is the keyboard. */
function onTerminal(line: string, env: NodeJS.ProcessEnv, cwd: string): Bg {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_PROFILE', 'STAYS_DEBUG', 'NO_COLOR', 'FORCE_COLOR', 'CI', 'STAYS_DATA_DIR', 'STAYS_CONFIG_DIR']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', line, '/dev/null'], { env: { ...base, SHELL: '/bin/bash', TERM: 'dumb', ...env }, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout!.on('data', (d: Buffer) => (screen += d.toString()));
  return { child, out: () => screen, err: () => screen, exit: new Promise((r) => child.once('close', (code) => r(code))) };
}

function machine() {
  const box = freshSandbox();
  const env = { ...box.env, PATH: pathWithStays() };
  // `stays` clears nothing itself: the helpers' env for direct runs.
  const cli = (...args: string[]) => stays(args, box.env);
  return { env, cli, work: tempDir('stays-work-') };
}

const activeHooks = async (cli: (...a: string[]) => ReturnType<typeof stays>) => json<{ data: { id: string; description: string }[] }>(await cli('webhooks', 'list', '--active', '--json'));

describe('stays webhooks listen, as its help shows it', () => {
  it('the piped jq example prints each event of a triggered job with its job id; Ctrl-C deletes the webhook', async () => {
    const { env, cli, work } = machine();
    const line = await listenExample();
    expect(line).toContain('.data.job_id');
    // On a terminal, as a person runs it (jq buffers its output when it is not a terminal).
    const l = onTerminal(line, env, work);
    const hook = (await until(l.out, /\(webhook (wh_[0-9A-Z]{26})\)/))[1]!;
    const trig = await cli('webhooks', 'trigger', 'job.succeeded', '--json');
    expect(trig.code, trig.stderr).toBe(0);
    const jobId = json<{ data: { job_id: string; webhooks: number } }>(trig).data.job_id;
    expect(json<{ data: { webhooks: number } }>(trig).data.webhooks).toBe(1);
    // jq's lines (it colours them on a terminal), once all three are there.
    // eslint-disable-next-line no-control-regex
    const printed = () =>
      l
        .out()
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split(/\r?\n/)
        .filter((x) => /^\{.*\}$/.test(x));
    await until(() => String(printed().length), /^[3-9]/);
    expect(printed().map((x) => JSON.parse(x))).toEqual([
      { event: 'job.queued', job: jobId },
      { event: 'job.running', job: jobId },
      { event: 'job.succeeded', job: jobId },
    ]);
    // Ctrl-C on the terminal reaches the whole pipeline.
    l.child.stdin!.write('\x03');
    await until(l.out, new RegExp(`deleted webhook ${hook}`));
    await l.exit;
    expect((await activeHooks(cli)).data).toEqual([]);
  }, 60_000);

  it('a reader that goes away (| head -1) does not leave the webhook behind', async () => {
    const { env, cli, work } = machine();
    const l = background('stays webhooks listen --json | head -1', env, work);
    const hook = (await until(l.err, /\(webhook (wh_[0-9A-Z]{26})\)/))[1]!;
    // Two events: head exits after the first line, and listen's next write finds no reader.
    expect((await cli('webhooks', 'trigger', 'stay.cached')).code).toBe(0);
    expect((await cli('webhooks', 'trigger', 'stay.cached')).code).toBe(0);
    expect(await l.exit).toBe(0);
    expect(JSON.parse(l.out()).event).toBe('stay.cached');
    expect(l.err()).toContain(`deleted webhook ${hook}`);
    expect((await activeHooks(cli)).data).toEqual([]);
  }, 60_000);

  it('a webhook left by a killed listen is deleted by the next listen on this machine', async () => {
    const { env, cli, work } = machine();
    const first = background('exec stays webhooks listen --json', env, work);
    const stale = (await until(first.err, /\(webhook (wh_[0-9A-Z]{26})\)/))[1]!;
    first.child.kill('SIGKILL');
    await first.exit;
    expect((await activeHooks(cli)).data.map((w) => w.id)).toEqual([stale]);
    const second = background('exec stays webhooks listen --json', env, work);
    const fresh = (await until(second.err, /\(webhook (wh_[0-9A-Z]{26})\)/))[1]!;
    expect(second.err()).toContain(`deleted webhook ${stale}, left by a stays webhooks listen that is no longer running`);
    expect((await activeHooks(cli)).data.map((w) => w.id)).toEqual([fresh]);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    expect((await activeHooks(cli)).data).toEqual([]);
  }, 60_000);
});
