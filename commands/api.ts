// `stays api PATH`: a raw authenticated request, like `gh api`. Prints the response body as the
// service sent it (-i adds the status line and headers); no waiting on jobs, no reformatting.
// -o json (the default) or jsonl (one data row a line); --json FIELDS and --jq select as in the
// other commands; --timeout bounds the request.
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';

interface ApiOpts extends Omit<GlobalOpts, 'input'> {
  method?: string;
  field: string[];
  rawField: string[];
  header: string[];
  include?: boolean;
  paginate?: boolean;
  dryRun?: boolean;
  slurp?: boolean;
}

const collect = (v: string, acc: string[]) => [...acc, v];

export function defineApi(program: Command): void {
  // `--input FILE` (the body) and the shared `--no-input` (never wait for typing) are one key to
  // commander, so whichever came last would undo the other: each is read from its own event.
  const given: { file?: string; noInput: boolean } = { noInput: false };
  const cmd = program
    .command('api')
    .description('Make an authenticated request to the API and print the response body')
    .argument('<path>', 'API path, e.g. /v1/account, v1/search or search (the /v1 prefix is added)')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with a body)')
    .option('-f, --raw-field <key=value>', 'string parameter: query for GET, JSON body field otherwise (repeatable)', collect, [])
    .option('-F, --field <key=value>', 'typed parameter: true, false, null and numbers become JSON values (repeatable)', collect, [])
    .option('-H, --header <name:value>', 'extra request header (repeatable)', collect, [])
    .option('--input <file>', 'request body from a file, or - for stdin (parameters then go to the query)')
    .option('-i, --include', 'print the HTTP status line and response headers before the body')
    .option('--paginate', 'request every page in turn (meta.pagination.nextCursor, or next_page_token in Family S), printing each as it comes')
    .option('--slurp', "with --paginate: print one JSON array of every page's body at the end")
    .option('--dry-run', "print the request and its worst-case cost (the service's billing formulas) and send nothing; with --paginate, each further page is another such request");
  withGlobals(cmd, { wait: false });
  // The shared flags' words are about jobs and prompts; here they bound the one request and stdin.
  for (const o of cmd.options) {
    if (o.long === '--timeout') o.description = 'bound for the request, e.g. 30s, 5m (default 5m); past it, exit 8';
    if (o.long === '--no-input') o.description = 'never wait for typed input: refuse --input - from a terminal';
    if (o.long === '--output') {
      o.description = 'json (the body as sent; the default) or jsonl (one data row a line)';
      // Any other format gets raw.ts's explanation instead of commander's list of choices.
      o.argChoices = undefined;
      o.parseArg = undefined;
    }
  }
  cmd
    .addHelpText(
      'after',
      `
Examples:
  stays api /v1/account
  stays api search -f location=Lisbon -f limit=2 -i
  stays api /v1/search -X POST -F limit=2 -f location=Porto
  stays api search -f location=Lisbon -f limit=2 -o jsonl
  echo '{"location":"Porto"}' | stays api /v1/search --input -
  stays api search -f location=Porto -f limit=40 --paginate -o jsonl
  stays api search -f location=Porto -f limit=40 --dry-run
  stays api /v1/search -X POST -f location=Lisbon -F maxItems=50 --paginate --slurp --jq 'map(.data | length)'

--paginate follows each page's next-page token (Family U meta.pagination.nextCursor, sent back
as cursor; Family S meta.next_page_token, sent back as nextPageToken, in the body for a POST) and
prints every page as it comes: each body on its own line (indented on a terminal), or with
-o jsonl each row; --jq and --json FIELDS apply to each page. --slurp prints one array of the
bodies instead, which --jq then filters. It does not wait for jobs: a page answered 202 stops
the walk (exit 1) with how to go on.`,
    )
    .action(async (path: string, opts: ApiOpts) => {
      const [{ execute }, { buildRequest, checkPaginate, printPages, printResponse, rawFormat, sendRaw }] = await Promise.all([import('./_lib/runtime/run.js'), import('./api/raw.js')]);
      // -o is checked by rawFormat inside (its refusal is then reported like any other error).
      const output = opts.output === 'json' || opts.output === 'jsonl' ? opts.output : undefined;
      await execute({ ...opts, output, input: given.noInput ? false : undefined }, async (ctx) => {
        const format = rawFormat(opts.output);
        const paging = { paginate: opts.paginate === true, slurp: opts.slurp === true, include: opts.include === true, format };
        checkPaginate({ ...paging, fields: ctx.fields !== null });
        const call = await buildRequest(path, { ...opts, input: given.file }, { term: ctx.term, noInput: given.noInput });
        if (opts.dryRun === true) return (await import('./_lib/cost/dry-run.js')).printDryRun(ctx, call, { all: false });
        if (paging.paginate) return printPages(ctx, call, paging);
        const res = await sendRaw(ctx, call);
        await printResponse(res, ctx, { include: paging.include, format });
      });
    });
  cmd.on('option:input', (file: string) => (given.file = file));
  cmd.on('option:no-input', () => (given.noInput = true));
}
