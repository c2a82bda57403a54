// Which bundle bin/stays runs. A remote call needs the commands, the client and commander, not the
// service (the app, its schemas, the store, the sources): those are three quarters of dist/cli.cjs,
// and reading and deserialising them was most of what a remote call cost beyond a bare node start
// (docs/benchmarks.md). So bin/stays runs dist/cli-remote.cjs, the same program built without the
// service, when the command is one that only talks to the API and its settings say remote.
// Built on its own as dist/mode.cjs (this file and the settings reader): bin/stays asks it before
// loading either bundle.
import { readProfile } from '../config/profiles.js';

/** Commands that, given a base URL, only send requests to it (every other one gets the full bundle). */
const REMOTE_COMMANDS = new Set(['search', 'price', 'compare', 'availability', 'reviews', 'listing', 'listings', 'account', 'jobs', 'stay', 'api']);

/**
 * Whether the command will run in remote mode, from the same settings its context reads: the last
 * --base-url, else STAYS_BASE_URL, else the profile's base-url (a flag or variable set to '' means
 * in-process, as it does there). Any doubt answers false: the full bundle runs everything.
 */
export function runsRemote(args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (!REMOTE_COMMANDS.has(args[0] ?? '')) return false;
  let baseUrl: string | undefined;
  let profile: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--base-url' || a === '--profile') {
      const v = args[i + 1];
      if (v === undefined) return false;
      i++;
      if (a === '--base-url') baseUrl = v;
      else profile = v;
    } else if (a.startsWith('--base-url=')) baseUrl = a.slice('--base-url='.length);
    else if (a.startsWith('--profile=')) profile = a.slice('--profile='.length);
  }
  baseUrl ??= env.STAYS_BASE_URL;
  if (baseUrl === undefined) {
    try {
      baseUrl = readProfile(profile ?? env.STAYS_PROFILE ?? 'default', env)['base-url'];
    } catch {
      return false;
    }
  }
  return typeof baseUrl === 'string' && baseUrl !== '';
}
