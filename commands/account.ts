// `stays account`: plan, credits and rate limit of the key in use (GET /v1/account).
import type { Command } from 'commander';
import { columnsHelp } from './_lib/output/columns.js';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';

export function defineAccount(program: Command): void {
  const cmd = program.command('account').description('Plan, credit balance and rate limit of the key in use (free)');
  withGlobals(cmd, { wait: false })
    .addHelpText('after', `\nExamples:\n  stays account\n  stays account --json | jq .data.credits.available\n${columnsHelp('account')}`)
    .action(async (opts: GlobalOpts) => {
      const [{ execute, runCall }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js')]);
      await execute(opts, (ctx) => runCall(ctx, operations.account(), 'account'));
    });
}
