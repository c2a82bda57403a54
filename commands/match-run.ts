// How `stays match …` runs (match.ts defines the commands): the matches read through the client,
// shown as one row per candidate (the matches, then the best non-match) with the summary on stderr;
// JSON and --jq get the whole answer. Pins and rejections print the decision.
import { operations } from '../src/client/operations.js';
import type { MatchCandidateView, MatchDecisionView, MatchesView } from '../src/core/schemas/matches.js';
import { pick } from './_lib/flags/options.js';
import type { Ctx } from './_lib/runtime/context.js';
import { io } from './_lib/runtime/io.js';
import { runCall, show } from './_lib/runtime/run.js';
import { keysView } from './_lib/output/view.js';
import type { View } from './_lib/output/view-types.js';

/** A candidate's columns, in this order (the table, tsv and csv): platform, listing_id, name, score, match, decision, why. */
const CANDIDATE_KEYS = ['platform', 'listingId', 'name', 'score', 'match', 'decision', 'why'] as const;
/** A pin's, rejection's or unpin's columns: the API's decision (MatchDecisionView), objects as JSON. */
const DECISION_KEYS = ['listing', 'match', 'decision', 'decidedAt'] as const satisfies readonly (keyof MatchDecisionView)[];

/**
 * platform:listingId as query parameters; a URL or a stays_ id goes as listingId alone (the service
 * reads its platform). An unknown platform (foo:4242) goes as the platform, so the service's
 * refusal names it (PLATFORM must be one of …).
 */
export function refQuery(ref: string): { platform?: string; listingId: string } {
  const pair = /^([A-Za-z]+):(?!\/\/)(.+)$/.exec(ref);
  if (pair) return { platform: pair[1]!.toLowerCase(), listingId: pair[2]! };
  return { listingId: ref };
}

/** GET /v1/matches for a listing ref, as the command's flags narrow it. */
export async function fetchMatches(ctx: Ctx, listing: string, opts: Record<string, unknown>): Promise<{ data: MatchesView; meta: unknown }> {
  const call = operations.matches({ ...pick(opts, ['platforms', 'threshold', 'country']), ...refQuery(listing) });
  return (await ctx.client.run(call)) as { data: MatchesView; meta: unknown };
}

async function listingArg(ctx: Ctx, given: string | undefined, name: string, usage: string): Promise<string> {
  const { ask } = await import('./_lib/runtime/prompt.js');
  return ask(ctx.term, given, { name, message: `${name}?`, usage });
}

/** The candidates a matches answer lists: the matches, then the best non-match. */
function candidatesOf(d: MatchesView): MatchCandidateView[] {
  return [...d.matches, ...(d.bestNonMatch ? [d.bestNonMatch] : [])];
}

const cell = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * The candidates as rows (csv, tsv and jsonl print the same rows; jsonl each candidate whole). In a
 * table each is platform:listingId, never cut (README: ids are printed whole, to be copied; issue
 * 36, item 17); the name and why give way first, and why, then the decision, go when the terminal
 * is too narrow for everything.
 */
function candidatesView(data: unknown): View {
  const base = keysView(CANDIDATE_KEYS)(candidatesOf(data as MatchesView));
  const col = (header: string, key: string, o: Partial<View['table'][number]> = {}) => ({ header, text: (r: Record<string, unknown>) => cell(r[key]), ...o });
  return {
    ...base,
    table: [
      // platform:listingId whole, as `stays match pin|reject` and `compare --listings` take it.
      { header: 'LISTING', text: (r: Record<string, unknown>) => `${String(r.platform)}:${String(r.listingId)}`, id: true },
      col('SCORE', 'score', { align: 'right' }),
      col('MATCH', 'match'),
      col('DECISION', 'decision', { drop: 1 }),
      col('NAME', 'name', { min: 12 }),
      col('WHY', 'why', { min: 16, drop: 2 }),
    ],
  };
}

export async function runMatches(ctx: Ctx, given: string | undefined, opts: Record<string, unknown>): Promise<void> {
  const listing = await listingArg(ctx, given, 'LISTING', 'stays match PLATFORM:LISTING_ID');
  const envelope = await fetchMatches(ctx, listing, opts);
  // -o json and --jq: the whole answer; -o jsonl and --json FIELDS: the candidates (show's rows).
  if (ctx.jq !== null || (ctx.format === 'json' && ctx.fields === null)) return show(ctx, envelope, null);
  await show(ctx, envelope, candidatesView, { rows: true });
  if (ctx.format === 'table' && ctx.fields === null) io().stderr.write(`${envelope.data.summary}\n`);
}

export async function runDecision(ctx: Ctx, decision: 'pinned' | 'rejected' | null, a: string | undefined, b: string | undefined): Promise<void> {
  const verb = decision === 'pinned' ? 'pin' : decision === 'rejected' ? 'reject' : 'unpin';
  const usage = `stays match ${verb} PLATFORM:LISTING_ID PLATFORM:LISTING_ID`;
  const listing = await listingArg(ctx, a, 'LISTING', usage);
  const match = await listingArg(ctx, b, 'MATCH', usage);
  await runCall(ctx, decision === null ? operations.matchForget({ listing, match }) : operations.matchDecide({ listing, match, decision }), keysView(DECISION_KEYS));
}

/**
 * `stays compare --listing REF --matched`: REF and its matches (pinned first, then by score; at
 * most 5, compare's direct mode takes 6 listings) as compare's --listings. No match: a not_found
 * error saying why (the summary).
 */
export async function matchedListings(ctx: Ctx, opts: Record<string, unknown>): Promise<string> {
  const { UsageError } = await import('./_lib/runtime/errors.js');
  if (opts.matched !== true) throw new UsageError('--listing goes with --matched (compare it with its matches); for chosen listings use --listings.', 'listing');
  if (typeof opts.listing !== 'string') throw new UsageError('--matched needs --listing platform:listingId.', 'listing');
  if (opts.listings !== undefined) throw new UsageError('--matched makes the listings: drop --listings.', 'listings');
  const { data } = await fetchMatches(ctx, opts.listing, {});
  if (data.matches.length === 0) {
    const { StaysApiError } = await import('../src/client/errors.js');
    throw new StaysApiError({ type: 'not_found', code: 'listing_not_found', message: `No listing of the same property to compare with. ${data.summary}`, param: 'listing', creditsCharged: 0 }, 404);
  }
  const ref = (p: { platform: string; listingId: string }) => `${p.platform}:${p.listingId}`;
  return [ref(data.listing), ...data.matches.slice(0, 5).map(ref)].join(',');
}
