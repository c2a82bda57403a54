// GET /v1/matches and the account's pins and rejections (issue 27, item 4): the same property on
// other platforms, each candidate with its score and evidence by method match/1. Free. Each schema
// is made on its first use.
import { z } from 'zod';
import { MATCH_SIGNALS } from '../analytics/matches.js';
import { ALL_PLATFORMS } from '../platforms.js';
import { country, list, lowerEnum, num, str } from './fields.js';
import { once } from './once.js';

export const matchesParams = once(() =>
  z.object({
    platform: lowerEnum(ALL_PLATFORMS).optional().describe('vrbo, booking, airbnb or google; may be derived from a stays_<platform>_<id> listingId or a listing URL.'),
    listingId: str().describe('Platform-native id, a stays_<platform>_<id> id or a listing URL: the listing whose property is looked for elsewhere.'),
    country: country().optional().describe('ISO-3166 alpha-2; a bare booking slug needs it.'),
    platforms: list(lowerEnum(ALL_PLATFORMS)).optional().describe("The platforms to look on (default: every enabled one but the listing's own)."),
    threshold: num(z.number().min(0).max(1))
      .optional()
      .describe('The score a candidate needs to be a match, 0 to 1. Default 0.8 (method match/1: precision 1.0 on the sandbox labelled pairs, docs/analytics.md).'),
  }),
);

const ref = () => ({
  platform: z.string(),
  listingId: z.string(),
});

const matchEvidenceSchema = once(() =>
  z.object({
    signal: z.enum([...MATCH_SIGNALS, 'decision']).describe('decision: the account pinned the pair (first, when it did).'),
    score: z.number().nullable().describe('0..1; null when the signal is not available for this pair (it then neither helps nor hurts).'),
    weight: z.number(),
    agrees: z.boolean().nullable().describe('true: says same property; false: says another; null: not available.'),
    detail: z.string().describe('What was compared, in words.'),
  }),
);

export const matchCandidateSchema = once(() =>
  z.object({
    ...ref(),
    name: z.string().nullable(),
    url: z.string().nullable(),
    score: z.number().describe('0..1 by the method; 1 for a pair this account pinned.'),
    match: z.boolean().describe('At or above the threshold with no veto, or pinned by this account.'),
    decision: z.enum(['pinned', 'rejected']).nullable().describe("This account's decision on the pair, or null."),
    veto: z.string().nullable().describe('What rules the pair out whatever the score (more than 1 km apart, bedrooms two apart, photos of another unit, the place not confirmed), or null.'),
    why: z.string().describe('Why it is or is not a match, in words an agent can repeat.'),
    evidence: z.array(matchEvidenceSchema()),
  }),
);

export const matchesSchema = once(() =>
  z.object({
    listing: z.object({ ...ref(), name: z.string().nullable() }),
    method: z.literal('match/1'),
    threshold: z.number(),
    candidateSource: z.enum(['sandbox', 'observations']).describe('sandbox: the sandbox world (sandbox keys); observations: the listings this deployment observed (live keys).'),
    candidatesConsidered: z.number().int().describe('How many listings on the other platforms were scored.'),
    matches: z.array(matchCandidateSchema()).describe('The matches, best first: pinned pairs first (score 1), then by score.'),
    bestNonMatch: matchCandidateSchema().nullable().describe('The best-scoring candidate that is not a match (with why), or null.'),
    summary: z.string().describe('The answer in one paragraph: the method, how many candidates, the matches and why, or why none.'),
  }),
);

export type MatchesView = z.infer<ReturnType<typeof matchesSchema>>;
export type MatchCandidateView = z.infer<ReturnType<typeof matchCandidateSchema>>;

/** The match decisions (pins and rejections) an account keeps per key environment (issue 35, item 3). */
export const MATCH_DECISIONS_MAX = 5000;

export const matchDecisionBody = once(() =>
  z.object({
    listing: str().describe('platform:listingId (or a listing URL / stays_ id): one listing of the pair.'),
    match: str().describe('platform:listingId (or a listing URL / stays_ id) on another platform: the other.'),
    decision: z.enum(['pinned', 'rejected']).describe('pinned: always a match for this account (score 1); rejected: never.'),
  }),
);

export const matchDecisionParams = once(() =>
  z.object({
    listing: str().describe('platform:listingId (or a listing URL / stays_ id): one listing of the pair.'),
    match: str().describe('platform:listingId on another platform: the other.'),
  }),
);

export const matchDecisionSchema = once(() =>
  z.object({
    listing: z.object(ref()),
    match: z.object(ref()),
    decision: z.enum(['pinned', 'rejected']).nullable().describe('null: the decision was removed.'),
    decidedAt: z.string().nullable().describe('ISO 8601, UTC.'),
  }),
);

export type MatchDecisionView = z.infer<ReturnType<typeof matchDecisionSchema>>;
