// `stays api PATH`: a raw authenticated request, like `gh api`. Prints the response body as the
// service sent it (-i adds the status line and headers); no waiting on jobs, no reformatting.
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/options.js';

// `--input FILE` and the shared `--no-input` share one key: a string, false, or unset.
interface ApiOpts extends Omit<GlobalOpts, 'input'> {
  method?: string;
  field: string[];
  rawField: string[];
  header: string[];
  input?: string | boolean;
  include?: boolean;
}

const collect = (v: string, acc: string[]) => [...acc, v];

export function defineApi(program: Command): void {
  const cmd = program
    .command('api')
    .description('Make an authenticated request to the API and print the response body')
    .argument('<path>', 'API path, e.g. /v1/account, v1/search or search (the /v1 prefix is added)')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with a body)')
    .option('-f, --raw-field <key=value>', 'string parameter: query for GET, JSON body field otherwise (repeatable)', collect, [])
    .option('-F, --field <key=value>', 'typed parameter: true, false, null and numbers become JSON values (repeatable)', collect, [])
    .option('-H, --header <name:value>', 'extra request header (repeatable)', collect, [])
    .option('--input <file>', 'request body from a file, or - for stdin (parameters then go to the query)')
    .option('-i, --include', 'print the HTTP status line and response headers before the body');
  withGlobals(cmd, { wait: false })
    .addHelpText('after', `
Examples:
  stays api /v1/account
  stays api search -f location=Lisbon -f limit=2 -i
  stays api /v1/search -X POST -F limit=2 -f location=Porto
  echo '{"location":"Porto"}' | stays api /v1/search --input -`)
    .action(async (path: string, opts: ApiOpts) => {
      const [{ execute }, { buildRequest, printResponse }] = await Promise.all([import('./_lib/run.js'), import('./_lib/raw.js')]);
      await execute({ ...opts, input: opts.input === false ? false : undefined }, async (ctx) => {
        const call = await buildRequest(path, opts);
        const res = await ctx.client.raw(call);
        await printResponse(res, ctx, opts.include === true);
      });
    });
}
