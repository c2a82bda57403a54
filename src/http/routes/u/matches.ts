import { decideMatch, findMatches, forgetMatchDecision } from '../../../core/ops/matches.js';
import { MATCH_DECISIONS_MAX, matchDecisionBody, matchDecisionParams, matchDecisionSchema, matchesParams, matchesSchema } from '../../../core/schemas/matches.js';
import { renderOk } from '../../render.js';
import { defineRoute, jsonBody, queryInput } from '../../route.js';

// Beyond the spec (issue 27, item 4; docs/decisions.md "The same place across platforms").
export const matchesGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/matches',
  doc: () => ({
    operationId: 'findMatches',
    summary: 'The same property on other platforms',
    description:
      'Always 0 credits, never 202. The listings on the other platforms that may be the same property as this one, each scored 0..1 by method match/1 ' +
      'with its evidence signal by signal (name similarity, distance allowing for pin jitter of up to 200 m, bedrooms, guests, bathrooms, photo perceptual ' +
      "hashes where available, host name), the account's pins (always a match, score 1) and rejections (never). Below the threshold (default 0.8): " +
      'no match, and why (bestNonMatch, summary). A sandbox key reads the sandbox world, which lists some properties on several platforms with known ' +
      'truth (docs/sandbox.md); a live key reads the listings this deployment observed in the same searches, placed where those searches or a listing ' +
      'read recorded them (no photos are kept). 404 listing_not_found when a live key asks about a listing never observed.',
    tags: ['Matches'],
    query: matchesParams(),
    data: matchesSchema(),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await findMatches(c.get('services'), ctx, queryInput(c))),
});

export const matchDecisionPost = defineRoute({
  method: 'post',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/matches/decisions',
  doc: () => ({
    operationId: 'decideMatch',
    summary: 'Pin or reject a match',
    description:
      'Free. pinned: the pair is always a match for this account (score 1, evidence "pinned by this account"); rejected: never. Per account and key ' +
      'environment; either order names the same pair; a later decision replaces the earlier. 400 invalid_parameter for two listings on one platform. ' +
      `Needs the watches.write scope (read-only OAuth tokens cannot write); an account keeps at most ${MATCH_DECISIONS_MAX} decisions per key environment (403 match_decision_limit_exceeded for a new pair past it).`,
    tags: ['Matches'],
    body: matchDecisionBody(),
    data: matchDecisionSchema(),
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await decideMatch(c.get('services'), ctx, await jsonBody(c))),
});

export const matchDecisionDelete = defineRoute({
  method: 'delete',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/matches/decisions',
  doc: () => ({
    operationId: 'forgetMatchDecision',
    summary: 'Remove a pin or a rejection',
    description: 'Free. The pair is scored by the method again. 404 match_decision_not_found when the account had not decided on it. Needs the watches.write scope.',
    tags: ['Matches'],
    query: matchDecisionParams(),
    data: matchDecisionSchema(),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await forgetMatchDecision(c.get('services'), ctx, queryInput(c))),
});
