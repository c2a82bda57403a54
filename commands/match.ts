// `stays match LISTING` (issue 27, item 4): the same property on the other platforms (GET
// /v1/matches), each candidate with its score and why; `stays match pin|reject|unpin LISTING MATCH`
// keeps the account's decisions (POST/DELETE /v1/matches/decisions). Free. The actions are in
// match-run.ts.
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';

type Opts = GlobalOpts & Record<string, unknown>;

const REF = 'platform:listingId (airbnb:62959578), a listing URL, or a stays_ id';

export function defineMatch(program: Command): void {
  const match = program
    .command('match')
    .description('The same property on other platforms: candidates with score and evidence (free); pin, reject, unpin')
    .addHelpText(
      'after',
      `
Examples:
  stays match airbnb:62959578
  stays match pin airbnb:62959578 vrbo:90629595783
  stays compare --listing airbnb:62959578 --matched --check-in 2027-03-01 --check-out 2027-03-04`,
    );
  // The read is the default subcommand (stays match LISTING is stays match find LISTING), so the
  // flags after pin, reject and unpin are theirs.
  const find = match
    .command('find', { isDefault: true })
    .description('The listings on the other platforms that are the same property, each with score and why (free)')
    .argument('[listing]', REF)
    .option('--platforms <list>', "the platforms to look on (default: every one but the listing's own)")
    .option('--threshold <n>', 'the score a candidate needs to be a match, 0-1 (default 0.8)')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it');
  withGlobals(find, { wait: false })
    .addHelpText(
      'after',
      `
Free. Method match/1 scores each candidate on the other platforms 0..1 from name similarity, the
distance (no penalty within 200 m: airbnb moves pins), bedrooms, guests, bathrooms, photo
perceptual hashes and the host name; a match needs the threshold and no veto. Each row says why it
is or is not a match; the summary (stderr) says the method and how many candidates were scored.
A sandbox key reads the sandbox world, where some properties are listed on several platforms
(docs/sandbox.md); a live key reads the listings this deployment observed in the same searches.

Examples:
  stays match airbnb:62959578
  stays match airbnb:62959578 --platforms vrbo --json
  stays match pin airbnb:62959578 vrbo:90629595783
  stays match reject airbnb:62959578 vrbo:90629595781
  stays match unpin airbnb:62959578 vrbo:90629595783`,
    )
    .action(async (listing: string | undefined, opts: Opts) => {
      const [{ execute }, { runMatches }] = await Promise.all([import('./_lib/runtime/run.js'), import('./match-run.js')]);
      await execute(opts, (ctx) => runMatches(ctx, listing, opts));
    });

  const decisions: [string, string, 'pinned' | 'rejected' | null][] = [
    ['pin', 'Pin a match: the pair is always a match for this account (score 1)', 'pinned'],
    ['reject', 'Reject a match: the pair is never a match for this account', 'rejected'],
    ['unpin', 'Remove a pin or a rejection: the method scores the pair again', null],
  ];
  for (const [name, description, decision] of decisions) {
    withGlobals(match.command(name).description(description).argument('[listing]', REF).argument('[match]', `the listing on another platform: ${REF}`), { wait: false })
      .addHelpText(
        'after',
        `
Examples:
  stays match ${name} airbnb:62959578 vrbo:90629595783`,
      )
      .action(async (listing: string | undefined, other: string | undefined, opts: Opts) => {
        const [{ execute }, { runDecision }] = await Promise.all([import('./_lib/runtime/run.js'), import('./match-run.js')]);
        await execute(opts, (ctx) => runDecision(ctx, decision, listing, other));
      });
  }
}
