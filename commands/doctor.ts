// `stays doctor`: against a server (a base URL), checks the server, the key, the clock and what
// the server reports of its upstream (_lib/doctor-remote.ts). Else checks the local upstream
// configuration (STAYS_UPSTREAM, the scraping platform's token and the actors of STAYS_ACTORS)
// without starting a paid run, and prints what will serve each platform and need. The exit codes
// are in the help text.
import { type Command, Option } from 'commander';
import { io } from './_lib/runtime/io.js';

interface DoctorOpts {
  json?: boolean;
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
}

export function defineDoctor(program: Command): void {
  program
    .command('doctor')
    .description('Check where live data comes from: a server (reachable, version, key, clock, its upstream), or the local platform token and actors (no paid run)')
    .option('--json', 'print one JSON object')
    .addOption(new Option('--profile <name>', 'config profile').env('STAYS_PROFILE'))
    .addOption(new Option('--base-url <url>', "check this server (else the profile's base-url; none: the local upstream settings)").env('STAYS_BASE_URL'))
    .addOption(new Option('--api-key <key>', "the key to check against the server (else the profile's)").env('STAYS_API_KEY'))
    .addHelpText(
      'after',
      `
With a base URL (--base-url, STAYS_BASE_URL or the profile's base-url), checks the server: that it
answers (GET /v1/health, free) and its version, that it accepts the key and for which environment
(GET /v1/account, free), the clock skew from its Date header (over 60 s is a warning), and what
serves each platform there. Exit 0 when all is well, 1 when the server cannot be reached, 4 when
the key is missing or refused, 7 when the server has no upstream (STAYS_UPSTREAM=none).

Without one, checks the settings in-process commands use, as stays serve reads them:
STAYS_UPSTREAM (none, simulated, apify), STAYS_APIFY_TOKEN, STAYS_APIFY_BASE_URL and STAYS_ACTORS
(platform → need → actor ids, primary first), or the profile's upstream, apify-token,
apify-base-url and actors (stays config set …). Only reads the platform's API (the token's user,
each actor and its build's input schema). Exit 0 when every primary source is ready, 4 when the
platform token is missing or refused (the table still lists what would serve each need), 7 when
an actor is missing or would reject our input, or the upstream is none.
Either way, 2 for an unusable setting or an unknown --profile.

Examples:
  STAYS_UPSTREAM=apify STAYS_APIFY_TOKEN=apify_api_… stays doctor
  stays doctor --json | jq '.rows[] | select(.status != "ok")'
  stays doctor --profile prod`,
    )
    .action(async (o: DoctorOpts) => {
      const [{ ConfigError, loadConfig }, { EXIT, jsonText }, { readProfile, runtimeSettings, unknownProfile }] = await Promise.all([
        import('../src/config.js'),
        import('./_lib/runtime/io.js'),
        import('./_lib/config/profiles.js'),
      ]);
      const profileName = o.profile || 'default';
      try {
        const unknown = unknownProfile(profileName);
        if (unknown !== null) throw new ConfigError(unknown);
        const profile = readProfile(profileName);
        if (o.baseUrl || profile['base-url']) {
          const [{ createContext }, { remoteDoctor, remoteDoctorText }, { reportError }, { makeTerm }] = await Promise.all([
            import('./_lib/runtime/context.js'),
            import('./doctor/remote.js'),
            import('./_lib/runtime/errors.js'),
            import('./_lib/runtime/term.js'),
          ]);
          let ctx: Awaited<ReturnType<typeof createContext>> | undefined;
          try {
            ctx = await createContext({ baseUrl: o.baseUrl || undefined, apiKey: o.apiKey || undefined, profile: profileName, output: 'json', input: false, color: false });
            const report = await remoteDoctor(ctx, { apiKey: o.apiKey || undefined });
            io().stdout.write(o.json ? jsonText(report, io().stdout.isTTY === true) : remoteDoctorText(report));
            if (!report.server.reachable) io().exitCode = EXIT.internal;
            else if (!report.key.ok) io().exitCode = EXIT.auth;
            else if (!report.ok) io().exitCode = EXIT.upstream;
          } catch (e) {
            io().exitCode = await reportError(e, ctx?.term ?? makeTerm({}), o.json === true);
          } finally {
            await ctx?.close();
          }
          return;
        }
        const [{ doctor, doctorText }, { storeLabel }] = await Promise.all([import('../src/sources/apify/doctor.js'), import('./_lib/config/local-key.js')]);
        // The settings of the CLI's profile (stays config set upstream apify …) under the environment's.
        const overrides = { ...runtimeSettings(profile), ...(profile['data-dir'] && !io().env.STAYS_DATA_DIR ? { dataDir: profile['data-dir'] } : {}) };
        const config = loadConfig(overrides as Parameters<typeof loadConfig>[0], io().env);
        const report = { mode: 'in-process' as const, store: await storeLabel(config), ...(await doctor(config)) };
        io().stdout.write(o.json ? jsonText(report, io().stdout.isTTY === true) : `mode: in-process on ${report.store}\n${doctorText(report)}`);
        if (report.token && !report.token.ok) io().exitCode = EXIT.auth;
        else if (!report.ok) io().exitCode = EXIT.upstream;
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        io().stderr.write(`stays doctor: ${e.message}\n`);
        io().exitCode = EXIT.usage;
      }
    });
}
