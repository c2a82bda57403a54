// `stays config get|set|list|unset`: the CLI's settings, per profile (--profile or STAYS_PROFILE).
import { type Command, Option } from 'commander';
import { io } from './_lib/runtime/io.js';

const profileOption = () =>
  new Option('--profile <name>', 'config profile')
    .env('STAYS_PROFILE')
    .argParser((v: string) => v || 'default')
    .default('default');

export function defineConfig(program: Command): void {
  const config = program
    .command('config')
    .description('Settings: base-url, api-key, data-dir, output, timeout, upstream… (per profile)')
    .addHelpText(
      'after',
      `
Keys:
  base-url        service root for remote mode, e.g. http://127.0.0.1:8787
  api-key         API key (stay_test_… or stay_live_…)
  data-dir        data directory for in-process mode
  output          default output: table, tsv, json, jsonl or csv
  timeout         default wait bound for jobs, e.g. 300s or 5m
  upstream        in-process live data: none, simulated or apify
  apify-token     the scraping platform's API token (shown redacted)
  apify-base-url  the platform's API root
  actors          platform → need → actor ids: JSON, or a JSON file's path

Precedence: flag, then environment (STAYS_BASE_URL, STAYS_API_KEY, STAYS_DATA_DIR, STAYS_UPSTREAM,
STAYS_APIFY_TOKEN, STAYS_APIFY_BASE_URL, STAYS_ACTORS), then config.
The file lives in the user config dir (or STAYS_CONFIG_DIR).`,
    );

  config
    .command('get')
    .description('Print one setting (nothing if unset)')
    .argument('<key>', 'setting name')
    .addOption(profileOption())
    .action(async (key: string, o: { profile: string }) => {
      const { checkKey, checkProfile, guard, readProfile } = await import('./config/checks.js');
      await guard(() => {
        const value = readProfile(checkProfile(o.profile))[checkKey(key)];
        if (value !== undefined) io().stdout.write(`${value}\n`);
      });
    });

  config
    .command('set')
    .description('Change one setting')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .addOption(profileOption())
    .action(async (key: string, value: string, o: { profile: string }) => {
      const { checkKey, checkValue, guard, openConfig } = await import('./config/checks.js');
      await guard(async () => {
        const k = checkKey(key);
        (await openConfig()).set(o.profile, k, checkValue(k, value));
      });
    });

  config
    .command('unset')
    .description('Remove one setting')
    .argument('<key>', 'setting name')
    .addOption(profileOption())
    .action(async (key: string, o: { profile: string }) => {
      const { checkKey, checkProfile, guard, openConfig } = await import('./config/checks.js');
      await guard(async () => (await openConfig()).unset(checkProfile(o.profile), checkKey(key)));
    });

  config
    .command('profiles')
    .description('List the profiles, the active one marked *, with their base URL and key (redacted)')
    .addOption(
      new Option('--profile <name>', 'the active profile')
        .env('STAYS_PROFILE')
        .argParser((v: string) => v || 'default')
        .default('default'),
    )
    .option('--json', 'print one JSON array')
    .addHelpText(
      'after',
      `
Columns: the active marker (*), NAME, where commands go (the base URL, or in-process) and the KEY
prefix (none when the profile stores no key). Exits 2 after the list when the active profile
(--profile or STAYS_PROFILE) does not exist.

Examples:
  stays config profiles
  stays config profiles --json | jq -r '.[] | select(.active) | .name'`,
    )
    .action(async (o: { profile: string; json?: boolean }) => {
      const { listProfiles } = await import('./config/checks.js');
      listProfiles(o.profile, o.json === true);
    });

  config
    .command('list')
    .description('Print every setting of the profile, key=value (the API key redacted)')
    .addOption(profileOption())
    .option('--json', 'print one JSON object')
    .action(async (o: { profile: string; json?: boolean }) => {
      const { guard, listProfile } = await import('./config/checks.js');
      await guard(() => listProfile(o.profile, o.json === true));
    });
}
