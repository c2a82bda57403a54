// find_matches: GET /v1/matches (issue 27, item 4): the same property on other platforms.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { type MatchesView, matchesParams } from '../../core/schemas/matches.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, tailLines } from '../text.js';
import { OWN_STORE, type ToolDef } from '../tool.js';

/** Matches shown as lines; the rest are in the structured result. */
const SHOWN = 10;

function summarizeMatches(env: Envelope<MatchesView>): string {
  const d = env.data;
  const from = d.candidateSource === 'sandbox' ? 'the sandbox world' : 'the listings this deployment observed in the same searches, placed where those searches recorded them (no photos are kept)';
  const who = `${d.listing.platform}:${d.listing.listingId}${d.listing.name ? ` ("${d.listing.name}")` : ''}`;
  const lines = [`Method ${d.method} (threshold ${d.threshold}) scored ${d.candidatesConsidered} candidate listings from ${from} for ${who}.`];
  if (d.matches.length === 0) lines.push('No match was found on the other platforms.');
  else lines.push(`Matches (${d.matches.length}):`, ...d.matches.slice(0, SHOWN).map((m) => `- ${m.why}`));
  if (d.matches.length > SHOWN) lines.push(`… and ${d.matches.length - SHOWN} more in the structured result.`);
  if (d.bestNonMatch) lines.push(`Best non-match: ${d.bestNonMatch.why}`);
  lines.push(`Free: ${creditsText(env.meta)}.`);
  lines.push(...tailLines(env.meta, 'find_matches'));
  return lines.join('\n');
}

export const findMatches: ToolDef = {
  name: 'find_matches',
  title: 'Find the same property on other platforms',
  description:
    'Whether a listing (airbnb, vrbo, booking or google) is also listed on the other platforms: each candidate scored 0..1 by method match/1 from name ' +
    'similarity, distance (no penalty within 200 m, as airbnb moves map pins), bedrooms, guests, bathrooms, photo perceptual hashes and the host name, ' +
    "with why it is or is not a match; the account's pinned pairs are always matches, rejected ones never. Sandbox keys read the sandbox world " +
    '(some of its properties are listed on several platforms); live keys read the listings this deployment observed in the same searches. Read-only, free.',
  params: matchesParams(),
  annotations: OWN_STORE,
  run: (ctx, args) => runOperation<MatchesView>(ctx, { tool: 'find_matches', call: operations.matches(queryOf(args)), summarize: summarizeMatches }),
};
