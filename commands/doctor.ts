// `stays doctor`: checks the upstream configuration (STAYS_UPSTREAM, the scraping platform's token
// and the actors of STAYS_ACTORS) without starting a paid run, and prints what will serve each
// platform and need. Exit 0 when every primary source is ready, 4 when the token is refused, 7
// when an actor is missing or would reject our input, 2 for an unusable setting.
import type { Command } from 'commander';

export function defineDoctor(program: Command): void {
  program
    .command('doctor')
    .description('Check the live data sources: the platform token and each configured actor (no paid run)')
    .option('--json', 'print one JSON object')
    .addHelpText('after', `
Reads the same settings as stays serve: STAYS_UPSTREAM (none, simulated, apify), STAYS_APIFY_TOKEN,
STAYS_APIFY_BASE_URL and STAYS_ACTORS (platform → need → actor ids, primary first), or the
profile's upstream, apify-token, apify-base-url and actors (stays config set …).
Only reads the platform's API (the token's user, each actor and its build's input schema).

Examples:
  STAYS_UPSTREAM=apify STAYS_APIFY_TOKEN=apify_api_… stays doctor
  stays doctor --json | jq '.rows[] | select(.status != "ok")'`)
    .action(async (o: { json?: boolean }) => {
      const [{ ConfigError, loadConfig }, { doctor, doctorText }, { EXIT, jsonText }, { readProfile, runtimeSettings }] = await Promise.all([
        import('../src/config.js'),
        import('../src/sources/apify/doctor.js'),
        import('./_lib/io.js'),
        import('./_lib/config.js'),
      ]);
      try {
        // The settings of the CLI's profile (stays config set upstream apify …) under the environment's.
        const profile = readProfile(process.env.STAYS_PROFILE || 'default');
        const report = await doctor(loadConfig(runtimeSettings(profile) as Parameters<typeof loadConfig>[0]));
        process.stdout.write(o.json ? jsonText(report, process.stdout.isTTY === true) : doctorText(report));
        if (report.token && !report.token.ok) process.exitCode = EXIT.auth;
        else if (!report.ok) process.exitCode = EXIT.upstream;
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        process.stderr.write(`stays doctor: ${e.message}\n`);
        process.exitCode = EXIT.usage;
      }
    });
}
