// `stays completion bash|zsh|fish`: a completion script generated from the commander program
// tree (commands, subcommands, flags, which flags take a value) and from the constants the API
// validates with (platforms, sorts, property types, amenities, output formats, --json fields), so
// a new command or flag is completed without touching this file. The scripts hold the tree as
// data: pressing Tab runs no Node. The tree is read in _lib/completion-spec.ts, the scripts are
// written in _lib/completion-scripts.ts, both loaded only by this command.
import { Argument, type Command } from 'commander';
import { INSTALL, SHELLS, type Shell } from './completion/shells.js';
import { io } from './_lib/runtime/io.js';

export function defineCompletion(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script: bash, zsh or fish')
    .addArgument(new Argument('<shell>', SHELLS.join(', ')).choices(SHELLS))
    .addHelpText('after', `\nInstall:\n${SHELLS.map((s) => `  ${s.padEnd(5)} ${INSTALL[s]}`).join('\n')}`)
    .action(async (shell: Shell, _opts: unknown, cmd: Command) => {
      let root = cmd;
      while (root.parent) root = root.parent;
      const [{ specOf }, { EMIT }] = await Promise.all([import('./completion/spec.js'), import('./completion/scripts.js')]);
      io().stdout.write(EMIT[shell](await specOf(root)));
    });
}
