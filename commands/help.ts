// `stays help [COMMAND…]` and the help topics that are not commands (`stays help exit-codes`,
// `stays help sandbox`, `stays help errors [CODE]`).
import type { Command } from 'commander';
import { io } from './_lib/runtime/io.js';

const TOPICS = ['exit-codes', 'sandbox', 'errors'] as const;

/** The sandbox's triggers, from the table the sandbox itself throws from (src/sources/sandbox/magic.ts). */
async function sandboxHelp(): Promise<string> {
  const { sandboxTriggers } = await import('../src/core/sandbox-triggers.js');
  const triggers = sandboxTriggers();
  const groups: [string, (typeof triggers)[number]['input'], string][] = [
    ['Search locations', 'location', 'any case'],
    ['Listing ids', 'listingId', 'the last path segment: booking us/404 acts as 404'],
    ['Google-mode comparison names and locations', 'name or location', 'any case; a --google-hotel-id acts as a listing id'],
  ];
  const answer = (t: (typeof triggers)[number]) => `${t.status}${t.code ? ` ${t.code}` : ''}`;
  const width = (f: (t: (typeof triggers)[number]) => string) => Math.max(...triggers.map((t) => f(t).length));
  const [wv, wa] = [width((t) => t.value), width(answer)];
  const lines = [
    'The sandbox: stay_test_ keys (and the local key of in-process mode) get generated, deterministic',
    'data for free, never from a platform. These inputs give the errors a live call can give, so',
    'scripts and CI can test their error paths (docs/sandbox.md has the details):',
  ];
  for (const [title, input, note] of groups) {
    const rows = triggers.filter((t) => t.input === input);
    // The operations most rows work on go with the group; a row that differs says so.
    const usual = rows[0]!.operations;
    lines.push('', `${title}, on ${usual} (${note}):`);
    for (const t of rows) lines.push(`  ${t.value.padEnd(wv)}  ${answer(t).padEnd(wa)}  ${t.effect}${t.operations === usual ? '' : ` (only on ${t.operations})`}`);
  }
  lines.push(
    '',
    'Watches (stays watch add, free): a watch of listing 100 (any platform) or of a search of the location',
    'watch raises every one of its rules on every run (docs/sandbox.md), so stays watch run exits 10.',
    '',
    'Any other well-formed listing id has a listing. Sandbox error messages start with "Sandbox trigger:".',
    '',
    'Examples:',
    '  stays listing airbnb 404            # exit 3, listing_not_found',
    '  stays listing airbnb 402            # exit 5, credit_balance_too_low',
    '  stays listing airbnb 429            # exit 6 after two retries, rate_limit_exceeded',
    '  stays search pending --timeout 3s   # exit 8: the wait timed out with the job running',
    '  stays search partial                # rows from three platforms, a partial notice on stderr',
    '  stays search partial --fail-on-partial; echo $?   # 7',
  );
  return `${lines.join('\n')}\n`;
}

export function defineHelp(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .description(`Help for a command, or a topic: ${TOPICS.join(', ')}`)
    .argument('[topic...]', `a command (e.g. search, jobs wait) or a topic: ${TOPICS.join(', ')}`)
    .action(async (topic: string[]) => {
      if (topic[0] === 'exit-codes') {
        const { EXIT_DOC } = await import('./_lib/runtime/io.js');
        io().stdout.write(`Exit codes of stays (the same for every command):\n\n${EXIT_DOC.map(([code, what]) => `  ${String(code).padStart(3)}  ${what}`).join('\n')}\n`);
        return;
      }
      if (topic[0] === 'sandbox') {
        io().stdout.write(await sandboxHelp());
        return;
      }
      if (topic[0] === 'errors') {
        // The same text as the server's /docs/errors pages, from the same module.
        const [{ errorText, errorsListText, suggestCodes }, { ALL_ERROR_CODES, isErrorCode }] = await Promise.all([import('../src/core/error-docs.js'), import('../src/core/errors.js')]);
        const code = topic[1];
        if (code === undefined) io().stdout.write(errorsListText());
        else if (isErrorCode(code)) io().stdout.write(errorText(code));
        else {
          const near = suggestCodes(code, ALL_ERROR_CODES);
          io().stderr.write(`stays help errors: no error code ${JSON.stringify(code)}${near.length ? `; did you mean ${near.join(', ')}?` : ''} (stays help errors lists them)\n`);
          io().exitCode = 2;
        }
        return;
      }
      let cmd: Command = program;
      for (const name of topic) {
        const next = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next) {
          io().stderr.write(`stays help: no command or topic ${JSON.stringify(topic.join(' '))}; topics: ${TOPICS.join(', ')}\n`);
          io().exitCode = 2;
          return;
        }
        cmd = next;
      }
      cmd.outputHelp();
    });
}
