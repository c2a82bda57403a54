// The CLI as a function: runCli(args, streams) runs one command line against the given streams
// (commands/_lib/runtime/io.ts) and resolves to its exit code. bin/stays runs it on the real
// process (main.ts); the in-process test tier runs it with streams it reads back
// (test/cli/helpers.ts staysIn), as gh's tests run a command with its IOStreams and factory.
import type { Command, Option } from 'commander';
import { EXIT, type IOStreams, io, processIO, withIO } from './_lib/runtime/io.js';
import { setProgram } from './_lib/runtime/program-ref.js';

// Runs given streams do not overlap: io() is one per process (a test worker runs its tests one
// after another anyway; this keeps two runs started together from sharing streams).
let queue: Promise<unknown> = Promise.resolve();

export function runCli(args: readonly string[], streams: IOStreams = processIO()): Promise<number> {
  const run = queue.then(() => withIO(streams, () => runArgs(args)));
  queue = run.catch(() => {});
  return run;
}

const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];

async function runArgs(args: readonly string[]): Promise<number> {
  const streams = io();
  const [{ buildProgram }, { billable }] = await Promise.all([import('./program.js'), import('./_lib/flags/options.js')]);
  // What withCost's preAction records for the command being run; a run before it may have set it.
  billable.flags = [];
  billable.dryRun = false;
  // The command's definition alone (help and completion read every command, so they get all).
  const program = await buildProgram(args[0] === 'help' || args[0] === 'completion' ? undefined : args[0]);
  setProgram(program);
  if (streams.exit === undefined) followStreams(program, streams);
  if (args.some((a) => a === '--json' || a.startsWith('--json=') || a === '--jq')) {
    // Usage errors in the envelope shape too, so `--json` callers parse every failure alike.
    // Settings are copied to subcommands when they are created, so apply to the whole tree.
    const outputError = (message: string, write: (s: string) => void) =>
      write(`${JSON.stringify({ error: { type: 'invalid_request', code: 'usage', message: message.replace(/^error: /, '').trim() } })}\n`);
    for (const c of all(program)) c.configureOutput({ outputError }).showHelpAfterError(false);
  }
  try {
    await program.parseAsync(['node', 'stays', ...args]);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number };
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
      streams.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? EXIT.ok : EXIT.usage;
      return streams.exitCode;
    }
    const full = (globalThis as { __staysFullBundle?: () => void }).__staysFullBundle;
    if ((e as Error).name === 'NeedsFullBundle' && full !== undefined) {
      // Run by bin/stays from the remote bundle, this command needs the service: nothing was sent
      // or printed yet, so the full bundle runs it from the start.
      full();
      return streams.exitCode ?? EXIT.ok;
    }
    if ((e as Error).name === 'StoreUnavailableError') {
      streams.stderr.write(`stays: ${(e as Error).message}\n`);
      streams.exitCode = EXIT.internal;
    } else if ((e as Error).name === 'ConfigError') {
      streams.stderr.write(`stays: ${(e as Error).message}\n`);
      streams.exitCode = EXIT.usage;
    } else {
      streams.stderr.write(`stays: unexpected error: ${(e as Error).message}\n`);
      streams.exitCode = EXIT.internal;
    }
  }
  return streams.exitCode ?? EXIT.ok;
}

/**
 * Streams other than the process's: commander writes help and usage errors to them (at their
 * width, without colour, as it would to a pipe or a terminal of that size) and reads option
 * variables (--api-key's STAYS_API_KEY…) from their environment instead of process.env.
 */
function followStreams(program: Command, streams: IOStreams): void {
  for (const c of all(program)) {
    c.configureOutput({
      writeOut: (s) => void streams.stdout.write(s),
      writeErr: (s) => void streams.stderr.write(s),
      getOutHelpWidth: () => (streams.tty.stdout ? streams.stdout.columns : undefined) as number,
      getErrHelpWidth: () => (streams.tty.stderr ? streams.stderr.columns : undefined) as number,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
    // Commander's own _parseOptionsEnv, reading the run's environment (commander 14).
    const cmd = c as Command & { _parseOptionsEnv(): void; options: readonly Option[]; emit(event: string, ...args: unknown[]): boolean };
    cmd._parseOptionsEnv = function (this: typeof cmd) {
      const env = streams.env;
      for (const option of this.options) {
        if (!option.envVar || !(option.envVar in env)) continue;
        const key = option.attributeName();
        const source = this.getOptionValueSource(key);
        if (this.getOptionValue(key) === undefined || (source !== undefined && ['default', 'config', 'env'].includes(source))) {
          if (option.required || option.optional) this.emit(`optionEnv:${option.name()}`, env[option.envVar]);
          else this.emit(`optionEnv:${option.name()}`);
        }
      }
    };
  }
}
