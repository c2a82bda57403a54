// The commander program: every command is defined here; each loads its modules when it runs.
import { Command } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { defineAccount } from './account.js';
import { defineAdmin } from './admin.js';
import { defineApi } from './api.js';
import { defineAuth } from './auth.js';
import { defineAvailability } from './availability.js';
import { defineCompare } from './compare.js';
import { defineCompletion } from './completion.js';
import { defineCompset } from './compset.js';
import { defineConfig } from './config.js';
import { defineDoctor } from './doctor.js';
import { defineHelp } from './help.js';
import { defineHistory } from './history.js';
import { defineJobs } from './jobs.js';
import { defineListing } from './listing.js';
import { defineMatch } from './match.js';
import { defineMcp } from './mcp.js';
import { defineListings } from './listings.js';
import { defineMarket } from './market.js';
import { definePrice } from './price.js';
import { defineReviews } from './reviews.js';
import { defineSearch } from './search.js';
import { defineServe } from './serve.js';
import { defineStay } from './stay.js';
import { defineWatch } from './watch.js';
import { defineWebhooks } from './webhooks.js';

/** Each top-level command (and the names it defines) with its definer, in help order. */
const DEFINERS: [readonly string[], (p: Command) => void][] = [
  [['search'], defineSearch],
  [['listing'], defineListing],
  [['stay'], defineStay],
  [['listings'], defineListings],
  [['price'], definePrice],
  [['compare'], defineCompare],
  [['availability'], defineAvailability],
  [['reviews'], defineReviews],
  [['history'], defineHistory],
  [['market'], defineMarket],
  [['compset'], defineCompset],
  [['match'], defineMatch],
  [['account'], defineAccount],
  [['auth', 'whoami'], defineAuth],
  [['jobs'], defineJobs],
  [['webhooks'], defineWebhooks],
  [['watch'], defineWatch],
  [['api'], defineApi],
  [['mcp'], defineMcp],
  [['config'], defineConfig],
  [['serve'], defineServe],
  [['doctor'], defineDoctor],
  [['admin'], defineAdmin],
  [['help'], defineHelp],
  [['completion'], defineCompletion],
];

/**
 * The program. `only`: the command being run (the first argument), whose definition alone is
 * built when it names one: defining all twenty was a share of every call's start. help and
 * completion read the whole tree, and anything else (no command, an unknown one, a flag first)
 * gets every command, for its help and suggestions.
 */
export function buildProgram(only?: string): Command {
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
  for (const [, define] of one ? [one] : DEFINERS) define(program);
  return program;
}
