// The `stays` CLI entry, bundled to dist/cli.cjs and run by bin/stays (which answers
// `stays --version` itself and keeps the bundle's compiled code between runs). It builds the
// program; each command loads its heavy modules (client, runtime, conf, ora, prompts) only
// when it runs.
import type { Command } from 'commander';
import { EXIT } from './_lib/runtime/io.js';
import { setProgram } from './_lib/runtime/program-ref.js';

export async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  const { buildProgram } = await import('./program.js');
  // The command's definition alone (help and completion read every command, so they get all).
  const program = buildProgram(args[0] === 'help' || args[0] === 'completion' ? undefined : args[0]);
  setProgram(program);
  if (args.some((a) => a === '--json' || a.startsWith('--json=') || a === '--jq')) {
    // Usage errors in the envelope shape too, so `--json` callers parse every failure alike.
    // Settings are copied to subcommands when they are created, so apply to the whole tree.
    const outputError = (message: string, write: (s: string) => void) =>
      write(`${JSON.stringify({ error: { type: 'invalid_request', code: 'usage', message: message.replace(/^error: /, '').trim() } })}\n`);
    const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
    for (const c of all(program)) c.configureOutput({ outputError }).showHelpAfterError(false);
  }
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number };
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
      process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? EXIT.ok : EXIT.usage;
      return;
    }
    const full = (globalThis as { __staysFullBundle?: () => void }).__staysFullBundle;
    if ((e as Error).name === 'NeedsFullBundle' && full !== undefined) {
      // Run by bin/stays from the remote bundle, this command needs the service: nothing was sent
      // or printed yet, so the full bundle runs it from the start.
      full();
      return;
    }
    if ((e as Error).name === 'StoreUnavailableError') {
      process.stderr.write(`stays: ${(e as Error).message}\n`);
      process.exitCode = EXIT.internal;
      return;
    }
    if ((e as Error).name === 'ConfigError') {
      process.stderr.write(`stays: ${(e as Error).message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stderr.write(`stays: unexpected error: ${(e as Error).message}\n`);
    process.exitCode = EXIT.internal;
  }
}

void main(process.argv);
