// `stays help [COMMAND…]` and the help topics that are not commands (`stays help exit-codes`).
import type { Command } from 'commander';

export function defineHelp(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('Help for a command, or a topic: exit-codes')
    .argument('[topic...]', 'a command (e.g. search, jobs wait) or exit-codes')
    .action(async (topic: string[]) => {
      if (topic[0] === 'exit-codes') {
        const { EXIT_DOC } = await import('./_lib/io.js');
        process.stdout.write(`Exit codes of stays (the same for every command):\n\n${EXIT_DOC.map(([code, what]) => `  ${String(code).padStart(3)}  ${what}`).join('\n')}\n`);
        return;
      }
      let cmd: Command = program;
      for (const name of topic) {
        const next = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next) {
          process.stderr.write(`stays help: no command or topic ${JSON.stringify(topic.join(' '))}; try stays help exit-codes\n`);
          process.exitCode = 2;
          return;
        }
        cmd = next;
      }
      cmd.outputHelp();
    });
}
