// The `stays` CLI entry, bundled to dist/cli.cjs and run by bin/stays (which answers
// `stays --version` itself and keeps the bundle's compiled code between runs). It runs the
// command line on the real process (commands/cli.ts runCli); each command loads its heavy modules
// (client, runtime, conf, ora, prompts) only when it runs.
import { runCli } from './cli.js';
import { quietOnClosedPipes } from './_lib/runtime/io.js';

quietOnClosedPipes();
// runCli leaves the exit code in process.exitCode (the process's streams), as the commands did.
void runCli(process.argv.slice(2));
