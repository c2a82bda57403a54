// Flags every data command shares, and helpers for the API's parameter flags (kebab-case on the
// command line, camelCase on the wire). Values pass through as typed: the service validates them,
// so the CLI and the API refuse the same inputs with the same messages.
import { type Command, Option } from 'commander';
import { FORMATS } from '../output/print.js';
import { UsageError } from '../runtime/errors.js';

export interface GlobalOpts {
  baseUrl?: string;
  apiKey?: string;
  dataDir?: string;
  profile?: string;
  output?: string;
  /** true for bare --json (the whole envelope); a comma list of fields to print only those. */
  json?: boolean | string;
  jq?: string;
  failOnPartial?: boolean;
  maxCredits?: string;
  dryRun?: boolean;
  color?: boolean;
  debug?: boolean;
  wait?: boolean;
  cancelOnInterrupt?: boolean;
  timeout?: string;
  input?: boolean;
  all?: boolean;
}

export function withGlobals(cmd: Command, o: { wait?: boolean } = {}): Command {
  cmd
    .addOption(new Option('--base-url <url>', 'service root for remote mode (else in-process on the local store)').env('STAYS_BASE_URL'))
    .addOption(new Option('--api-key <key>', 'API key (else config, else a local sandbox key in-process)').env('STAYS_API_KEY'))
    .option('--data-dir <dir>', 'data directory for in-process mode (default: STAYS_DATA_DIR or the user data dir)')
    .addOption(new Option('--profile <name>', 'config profile').env('STAYS_PROFILE'))
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a TTY, else tsv)').choices(FORMATS))
    .option('--json [fields]', 'the API envelope as returned (--output json); with FIELDS, a comma list, only those fields of each row')
    .option('--jq <expr>', 'filter the JSON output with a jq expression, like gh --jq')
    .option('--fail-on-partial', 'exit 7 after printing when results are partial: a platform failed, or batch entries could not be resolved (also STAYS_FAIL_ON_PARTIAL=1)')
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb, or when not a TTY)')
    .option('--debug', 'log each request to stderr, key redacted (also STAYS_DEBUG=1)')
    .option('--timeout <duration>', 'bound for waiting on a job, e.g. 90s, 5m (default 5m)')
    .option('--no-input', 'never prompt for a missing argument');
  if (o.wait !== false) {
    cmd
      .option('--no-wait', 'print the 202 job instead of waiting for it')
      .option('--cancel-on-interrupt', "Ctrl-C while waiting for a server's job cancels it (nothing charged) instead of leaving it running");
  }
  return cmd;
}

/**
 * The billable command being run, recorded by withCost just before its action (a process runs
 * one command): its own long flags, so the cost guard suggests only flags it has, and --dry-run.
 */
export const billable: { flags: string[]; dryRun: boolean } = { flags: [], dryRun: false };

/** Billable commands: a cap on what one call (or an --all walk) may cost, and --dry-run. */
export function withCost(cmd: Command): Command {
  return cmd
    .option('--max-credits <n>', 'refuse (exit 5) when the worst-case cost of the call, or of an --all walk so far, would pass N credits (live keys)')
    .option('--dry-run', 'print the worst-case cost and the request it would send, send nothing, exit 0')
    .hook('preAction', (_cmd, action) => {
      billable.flags = action.options.flatMap((o) => (o.long ? [o.long] : []));
      billable.dryRun = action.opts().dryRun === true;
    });
}

export function withDates(cmd: Command, required = false): Command {
  const suffix = required ? ' (required)' : '';
  return cmd.option('--check-in <date>', `YYYY-MM-DD${suffix}`).option('--check-out <date>', `YYYY-MM-DD, after --check-in${suffix}`);
}

export function withParty(cmd: Command): Command {
  return cmd
    .option('--adults <n>', 'adults (default 2)')
    .option('--children <n>', 'children (default 0); needs --child-ages')
    .option('--child-ages <list>', 'one age (0-17) per child, comma-separated')
    .option('--currency <code>', 'ISO-4217 currency (default USD)');
}

/** Seconds from "90", "90s", "1500ms", "5m" or "1h". */
export function parseDuration(v: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
  if (!m) throw new UsageError(`--timeout must be a duration like 90s, 5m or 1500ms (got ${JSON.stringify(v)}).`, 'timeout');
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return unit === 'ms' ? n / 1000 : unit === 'm' ? n * 60 : unit === 'h' ? n * 3600 : n;
}

/** API query from camelCase option values: commander's keys are already camelCase. */
export function pick(opts: Record<string, unknown>, keys: readonly string[]): Record<string, string | undefined> {
  const q: Record<string, string | undefined> = {};
  for (const k of keys) if (typeof opts[k] === 'string' || typeof opts[k] === 'boolean') q[k] = String(opts[k]);
  return q;
}

export const PARTY_KEYS = ['adults', 'children', 'childAges', 'currency'] as const;
export const DATE_KEYS = ['checkIn', 'checkOut'] as const;
export const PLATFORMS = ['airbnb', 'booking', 'vrbo', 'google'] as const;
