// `stays auth status` and `stays whoami`: which service, profile, key and account a command would
// use, with the plan and credits (GET /v1/account, free) and where the config file lives.
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/options.js';

const EXAMPLES = `
Examples:
  stays auth status
  stays whoami --profile prod
  stays auth status --json | jq .account.credits.available`;

async function run(opts: GlobalOpts): Promise<void> {
  const [{ execute }, { authStatus }] = await Promise.all([import('./_lib/run.js'), import('./auth-status.js')]);
  await execute(opts, (ctx) => authStatus(ctx, opts));
}

const DESCRIPTION = 'Mode (in-process data dir or base URL), profile, key, account, plan, credits and config file (free)';

export function defineAuth(program: Command): void {
  const auth = program.command('auth').description('The key and account in use');
  withGlobals(auth.command('status').description(DESCRIPTION), { wait: false })
    .addHelpText('after', `
Exits 4 when no key is set for a server, or the key is refused; the status is printed first.
${EXAMPLES}`)
    .action(run);
  withGlobals(program.command('whoami').description('Same as stays auth status: the key, account and mode in use (free)'), { wait: false })
    .addHelpText('after', EXAMPLES)
    .action(run);
}
