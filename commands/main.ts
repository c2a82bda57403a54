// The `stays` CLI entry: commander program; each command loads its heavy modules on demand.
import { Command } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { defineAdmin } from './admin.js';
import { defineServe } from './serve.js';

export function buildProgram(): Command {
  const program = new Command('stays')
    .description('Accommodation data across booking platforms: the /v1 API service and its CLI')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  defineServe(program);
  defineAdmin(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number };
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
      process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
      return;
    }
    process.stderr.write(`stays: unexpected error: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}

await main(process.argv);
