// The commander program: every command is defined here, its module loaded only when it is built;
// each loads the rest of its modules when it runs.
import { Command } from 'commander';
import pkg from '../package.json' with { type: 'json' };

type Definer = (p: Command) => void;

/**
 * Each top-level command (and the names it defines) with its definer, in help order. Each definer
 * module is imported when its command is built, never before (issue 36, item 21): a call builds
 * one command, so the others' modules (and what they import) are not even initialized.
 */
const DEFINERS: [readonly string[], () => Promise<Definer>][] = [
  [['search'], async () => (await import('./search.js')).defineSearch],
  [['listing'], async () => (await import('./listing.js')).defineListing],
  [['stay'], async () => (await import('./stay.js')).defineStay],
  [['listings'], async () => (await import('./listings.js')).defineListings],
  [['price'], async () => (await import('./price.js')).definePrice],
  [['compare'], async () => (await import('./compare.js')).defineCompare],
  [['availability'], async () => (await import('./availability.js')).defineAvailability],
  [['reviews'], async () => (await import('./reviews.js')).defineReviews],
  [['history'], async () => (await import('./history.js')).defineHistory],
  [['market'], async () => (await import('./market.js')).defineMarket],
  [['compset'], async () => (await import('./compset.js')).defineCompset],
  [['collect'], async () => (await import('./collect.js')).defineCollect],
  [['match'], async () => (await import('./match.js')).defineMatch],
  [['account'], async () => (await import('./account.js')).defineAccount],
  [['auth', 'whoami'], async () => (await import('./auth.js')).defineAuth],
  [['jobs'], async () => (await import('./jobs.js')).defineJobs],
  [['webhooks'], async () => (await import('./webhooks.js')).defineWebhooks],
  [['watch'], async () => (await import('./watch.js')).defineWatch],
  [['api'], async () => (await import('./api.js')).defineApi],
  [['mcp'], async () => (await import('./mcp.js')).defineMcp],
  [['config'], async () => (await import('./config.js')).defineConfig],
  [['serve'], async () => (await import('./serve.js')).defineServe],
  [['doctor'], async () => (await import('./doctor.js')).defineDoctor],
  [['admin'], async () => (await import('./admin.js')).defineAdmin],
  [['help'], async () => (await import('./help.js')).defineHelp],
  [['completion'], async () => (await import('./completion.js')).defineCompletion],
];

/**
 * The program. `only`: the command being run (the first argument), whose definition alone is
 * built when it names one: defining all twenty was a share of every call's start. help and
 * completion read the whole tree, and anything else (no command, an unknown one, a flag first)
 * gets every command, for its help and suggestions.
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command('stays')
    .description('Accommodation data across booking platforms: the /v1 API service and its CLI')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Without --base-url (or STAYS_BASE_URL, or config base-url) commands run in-process on the local
store, with a local sandbox key created on first use. Exit codes: stays help exit-codes.

Examples:
  stays search Lisbon
  stays compare --name "Hotel Aurora" --location Lisbon --check-in 2027-03-01 --check-out 2027-03-04
  stays search Lisbon --json | jq '.data[] | {name, platform}'
  stays search Lisbon --family s --max-items 20        # airbnb stays (Family S)
  stays stay get https://www.airbnb.com/rooms/12345678
  STAYS_BASE_URL=http://127.0.0.1:8787 STAYS_API_KEY=stay_test_… stays account`,
    );
  // Subcommands exit through main() too, so usage errors get exit code 2 everywhere.
  program.hook('preSubcommand', (_, sub) => void sub.exitOverride());
  const one = only === undefined ? undefined : DEFINERS.find(([names]) => names.includes(only));
  // Loaded together, defined in help order.
  const defines = await Promise.all((one ? [one] : DEFINERS).map(([, load]) => load()));
  for (const define of defines) define(program);
  return program;
}
