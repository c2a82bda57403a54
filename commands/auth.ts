// `stays auth status` and `stays whoami`: which service, profile, key and account a command would
// use, with the plan and credits (GET /v1/account, free) and where the config file lives.
import { type Command, Option } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';

const EXAMPLES = `
Examples:
  stays auth status
  stays whoami --profile prod
  stays auth status --json | jq .account.credits.available`;

async function run(opts: GlobalOpts): Promise<void> {
  const [{ execute }, { authStatus }] = await Promise.all([import('./_lib/runtime/run.js'), import('./auth-status.js')]);
  await execute(opts, (ctx) => authStatus(ctx, opts));
}

const DESCRIPTION = 'Mode (in-process data dir or base URL), profile, key, account, plan, credits and config file (free)';

export function defineAuth(program: Command): void {
  const auth = program.command('auth').description('The key and account in use');
  withGlobals(auth.command('status').description(DESCRIPTION), { wait: false })
    .addHelpText(
      'after',
      `
Exits 4 when no key is set for a server, or the key is refused; the status is printed first.
${EXAMPLES}`,
    )
    .action(run);
  auth
    .command('login')
    .description('Store an API key in a profile, after checking it (free): from a hidden prompt, or stdin with --with-token')
    .option('--with-token', 'read the key from standard input (CI, scripts)')
    .addOption(new Option('--base-url <url>', "the server to log in to; kept in the profile (else the profile's, else in-process)").env('STAYS_BASE_URL'))
    .option('--data-dir <dir>', 'data directory for in-process mode')
    .addOption(
      new Option('--profile <name>', 'the profile to store the key in; created if new')
        .env('STAYS_PROFILE')
        .argParser((v: string) => v || 'default')
        .default('default'),
    )
    .option('--no-input', 'never prompt (then --with-token is needed)')
    .addHelpText(
      'after',
      `
The key is checked with GET /v1/account on the server (or on the local store in-process) and stored
only if accepted; it is never printed. Exits 4 when the key is refused, 2 when there is no key
(no terminal to prompt on and no --with-token).

Examples:
  stays auth login --base-url http://127.0.0.1:8787 --profile prod
  printenv STAYS_PROD_KEY | stays auth login --with-token --profile prod
  stays auth logout --profile prod`,
    )
    .action(async (o: { withToken?: boolean; baseUrl?: string; dataDir?: string; profile: string; input?: boolean }) => {
      const { login } = await import('./auth-login.js');
      await login(o);
    });
  auth
    .command('logout')
    .description('Remove the stored API key of a profile (its other settings stay)')
    .addOption(
      new Option('--profile <name>', 'config profile')
        .env('STAYS_PROFILE')
        .argParser((v: string) => v || 'default')
        .default('default'),
    )
    .action(async (o: { profile: string }) => {
      const { logout } = await import('./auth-login.js');
      await logout(o);
    });
  withGlobals(program.command('whoami').description('Same as stays auth status: the key, account and mode in use (free)'), { wait: false }).addHelpText('after', EXAMPLES).action(run);
}
