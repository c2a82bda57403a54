// GET /v1/matches (issue 27, item 4): the same property on the other platforms. Each candidate is
// scored by method match/1 (../analytics/matches.ts) with its evidence; the account's pins (always
// a match, score 1) and rejections (never) come first. Free: candidates come from what is already
// known, never from a live search (docs/decisions.md "The same place across platforms"):
// - a sandbox key: the sandbox world, which knows its multi-listed properties (the truth's
//   listings around the listing, and every search row of its city on the other platforms);
// - a live key: the listings this deployment observed in the searches that showed the listing,
//   on the other platforms, with the facts their listing reads recorded and the coordinates and
//   bedrooms those reads or the searches recorded (issue 36, item 12). Observations keep no
//   photos: the distance confirms a place; a candidate nothing placed is a match only when pinned.
// POST/DELETE /v1/matches/decisions: pin or reject a pair, or forget the decision.
import { type MatchFacts, DEFAULT_MATCH_THRESHOLD, MATCH_METHOD, type MatchVerdict, disagreements, matchFacts, scoreMatch } from '../analytics/matches.js';
import { requireScope } from '../auth.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { historyFor, isSandbox, observedBy } from '../context.js';
import { ServiceError } from '../errors.js';
import { inferListingRef, listingUrl, parseListingId } from '../listing-ref.js';
import { ENABLED_PLATFORMS, type EnabledPlatform, SINGLE_LISTING_PLATFORMS, isEnabled } from '../platforms.js';
import type { MatchDecisionRow } from '../ports/store.js';
import { MATCH_DECISIONS_MAX, type MatchCandidateView, type MatchDecisionView, type MatchesView, matchDecisionBody, matchDecisionParams, matchesParams } from '../schemas/matches.js';
import { type RawInput, parseParams } from '../validate.js';
import { buildMeta } from '../meta.js';
import { parsePlatform, platformFor, requireEnabled } from './common.js';

interface Candidate {
  facts: MatchFacts;
  url: string | null;
}

const keyOf = (platform: string, id: string) => `${platform}:${id}`;

/** At most this many live candidates are scored (by platform and id). */
const MAX_LIVE_CANDIDATES = 500;

/** The listing's facts and the candidates', from the sandbox world or from this deployment's observations. */
async function candidatesOf(
  services: Services,
  ctx: RequestContext,
  platform: EnabledPlatform,
  id: string,
): Promise<{ subject: Candidate; candidates: Candidate[]; source: 'sandbox' | 'observations' }> {
  if (isSandbox(ctx)) {
    const known = services.sandboxUpstream.matchCandidates;
    if (!known) throw new ServiceError('internal_error', 'The sandbox world offers no match candidates.');
    const r = await known(platform, id);
    const of = (x: (typeof r.candidates)[number]): Candidate => ({ facts: matchFacts(x.property, x.photoHashes), url: x.property.url });
    return { subject: of(r.subject), candidates: r.candidates.map(of), source: 'sandbox' };
  }
  const history = historyFor(services, ctx);
  const subjectRef = { platform, listingId: id };
  if (!(await history.observedListing(subjectRef))) {
    throw new ServiceError(
      'listing_not_found',
      `Nothing of ${platform} listing ${id} was ever observed by ${observedBy(services)}: a live key's matches come from what live calls observed (search the listing's city on each platform first).`,
      { param: 'listingId' },
    );
  }
  // The listings the same searches showed on the other platforms (two index ranges), then their
  // facts as their listing reads recorded them (a batch at a time).
  const others = ENABLED_PLATFORMS.filter((p) => p !== platform);
  const { name: subjectName, listings: shown } = await history.shownWith(subjectRef, { platforms: others, limit: MAX_LIVE_CANDIDATES });
  const facts = new Map((await history.listingFacts([subjectRef, ...shown])).map((f) => [keyOf(f.platform, f.listingId), f]));
  const candidate = (l: { platform: string; listingId: string; name: string | null }): Candidate => {
    const f = facts.get(keyOf(l.platform, l.listingId));
    return {
      facts: {
        platform: l.platform,
        listingId: l.listingId,
        name: f?.name ?? l.name,
        // Where its listing read or the searches that showed it placed it (issue 36, item 12).
        lat: f?.lat ?? null,
        lng: f?.lng ?? null,
        bedrooms: f?.bedrooms ?? null,
        bathrooms: f?.bathrooms ?? null,
        maxOccupancy: f?.maxOccupancy ?? null,
        host: null,
        photoHashes: null,
      },
      url: isEnabled(l.platform as EnabledPlatform) ? listingUrl(l.platform as EnabledPlatform, l.listingId) : null,
    };
  };
  return { subject: candidate({ ...subjectRef, name: subjectName }), candidates: shown.map(candidate), source: 'observations' };
}

function sentence(c: { facts: MatchFacts }, v: MatchVerdict, threshold: number, decision: 'pinned' | 'rejected' | null): string {
  const who = `${c.facts.platform}:${c.facts.listingId}${c.facts.name ? ` ("${c.facts.name}")` : ''}`;
  if (decision === 'pinned') return `${who} is a match: pinned by this account.`;
  if (decision === 'rejected') return `${who} is not a match: rejected by this account (the method scored it ${v.score}).`;
  const agreed = v.signals.filter((s) => s.agrees === true).map((s) => s.detail);
  if (v.match) return `${who} is a match: score ${v.score} (threshold ${threshold}); ${agreed.join('; ')}.`;
  const against = disagreements(v);
  const below = v.score < threshold ? `score ${v.score} is below the threshold ${threshold}` : `score ${v.score} reaches the threshold ${threshold}, but`;
  return `${who} is not a match: ${below}${against.length > 0 ? `; ${against.join('; ')}` : ''}.`;
}

function view(c: Candidate, v: MatchVerdict, threshold: number, decision: 'pinned' | 'rejected' | null): MatchCandidateView {
  return {
    platform: c.facts.platform,
    listingId: c.facts.listingId,
    name: c.facts.name,
    url: c.url,
    score: decision === 'pinned' ? 1 : v.score,
    match: decision === 'pinned' || (decision === null && v.match),
    decision,
    veto: decision === null ? v.veto : null,
    why: sentence(c, v, threshold, decision),
    evidence: decision === 'pinned' ? [{ signal: 'decision', score: 1, weight: 0, agrees: true, detail: 'pinned by this account' }, ...v.signals] : v.signals,
  };
}

/** "platform:listingId", a listing URL or a stays_ id, as compare's listings take them. */
function parseRef(raw: string, param: string): { platform: EnabledPlatform; id: string } {
  const ref = inferListingRef(raw, { param });
  if (ref) return { platform: requireEnabled(ref.platform, SINGLE_LISTING_PLATFORMS, 'matches'), id: ref.id };
  const at = raw.indexOf(':');
  if (at <= 0 || at === raw.length - 1) throw new ServiceError('invalid_parameter', `${param} is a platform:listingId pair or a listing URL (got ${JSON.stringify(raw.slice(0, 80))}).`, { param });
  const platform = requireEnabled(parsePlatform(raw.slice(0, at), param), SINGLE_LISTING_PLATFORMS, 'matches');
  return { platform, id: parseListingId(platform, raw.slice(at + 1), { param }) };
}

export async function findMatches(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<MatchesView>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(matchesParams(), raw);
  const platform = requireEnabled(platformFor(q.platform, q.listingId), SINGLE_LISTING_PLATFORMS, 'matches');
  const id = parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' });
  const off = (q.platforms ?? []).find((p) => !isEnabled(p));
  if (off !== undefined) throw new ServiceError('platform_not_enabled', `${off} is not enabled on this service; use one of ${ENABLED_PLATFORMS.join(', ')}.`, { param: 'platforms' });
  const wanted = new Set<string>((q.platforms ?? ENABLED_PLATFORMS).filter((p) => p !== platform));
  if (wanted.size === 0) throw new ServiceError('invalid_parameter', `platforms names only ${platform}, the listing's own: a match is on another platform.`, { param: 'platforms' });
  const threshold = q.threshold ?? DEFAULT_MATCH_THRESHOLD;

  const { subject, candidates, source } = await candidatesOf(services, ctx, platform, id);
  const decisions = await services.store.matchDecisionsOf(ctx.account.id, ctx.key.env, { platform, listingId: id });
  const decisionOf = new Map<string, MatchDecisionRow['decision']>();
  for (const d of decisions) {
    const other = d.a.platform === platform && d.a.listingId === id ? d.b : d.a;
    decisionOf.set(keyOf(other.platform, other.listingId), d.decision);
  }
  const pool = candidates.filter((c) => wanted.has(c.facts.platform));
  const inPool = new Set(pool.map((c) => keyOf(c.facts.platform, c.facts.listingId)));
  // A pinned listing the candidates do not hold is still a match: named by its id alone.
  for (const [k, decision] of decisionOf) {
    const at = k.indexOf(':');
    const p = k.slice(0, at);
    if (decision !== 'pinned' || !wanted.has(p) || inPool.has(k)) continue;
    const listingId = k.slice(at + 1);
    pool.push({
      facts: { platform: p, listingId, name: null, lat: null, lng: null, bedrooms: null, bathrooms: null, maxOccupancy: null, host: null, photoHashes: null },
      url: isEnabled(p as EnabledPlatform) ? listingUrl(p as EnabledPlatform, listingId) : null,
    });
  }
  const scored = pool
    .map((c) => {
      const decision = decisionOf.get(keyOf(c.facts.platform, c.facts.listingId)) ?? null;
      return view(c, scoreMatch(subject.facts, c.facts, threshold), threshold, decision);
    })
    .sort((a, b) => Number(b.decision === 'pinned') - Number(a.decision === 'pinned') || b.score - a.score || a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId));
  const matches = scored.filter((c) => c.match);
  const bestNonMatch = scored.find((c) => !c.match) ?? null;
  const considered = pool.length;
  const who = `${platform}:${id}${subject.facts.name ? ` ("${subject.facts.name}")` : ''}`;
  const from =
    source === 'sandbox'
      ? 'from the sandbox world'
      : 'from the listings this deployment observed in the same searches, placed where those searches or a listing read recorded them (no photos are kept)';
  let summary = `Method ${MATCH_METHOD} (threshold ${threshold}) scored ${considered} candidate listing${considered === 1 ? '' : 's'} on ${[...wanted].join(', ')} ${from} for ${who}. `;
  if (matches.length > 0) summary += `${matches.length} match${matches.length === 1 ? '' : 'es'}: ${matches.map((m) => m.why).join(' ')}`;
  else summary += `No match. ${bestNonMatch ? `The best candidate: ${bestNonMatch.why}` : 'There was no candidate to score.'}`;
  return {
    data: {
      listing: { platform, listingId: id, name: subject.facts.name },
      method: MATCH_METHOD,
      threshold,
      candidateSource: source,
      candidatesConsidered: considered,
      matches,
      bestNonMatch,
      summary: summary.trim(),
    },
    meta: buildMeta(services, ctx, { platforms: [platform, ...([...wanted] as EnabledPlatform[])], currency: 'USD' }),
  };
}

function pairOf(q: { listing: string; match: string }) {
  const a = parseRef(q.listing, 'listing');
  const b = parseRef(q.match, 'match');
  if (a.platform === b.platform) throw new ServiceError('invalid_parameter', `listing and match are both on ${a.platform}: a match is the same property on another platform.`, { param: 'match' });
  return { a, b };
}

const decisionView = (a: { platform: string; id: string }, b: { platform: string; id: string }, d: { decision: MatchDecisionRow['decision']; decidedAt: number } | null): MatchDecisionView => ({
  listing: { platform: a.platform, listingId: a.id },
  match: { platform: b.platform, listingId: b.id },
  decision: d?.decision ?? null,
  decidedAt: d ? new Date(d.decidedAt).toISOString() : null,
});

export async function decideMatch(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<MatchDecisionView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const q = parseParams(matchDecisionBody(), raw);
  const { a, b } = pairOf(q);
  const row = await services.store.setMatchDecision(
    ctx.account.id,
    ctx.key.env,
    { platform: a.platform, listingId: a.id },
    { platform: b.platform, listingId: b.id },
    q.decision,
    services.clock.now(),
    MATCH_DECISIONS_MAX,
  );
  if (row === 'limit') {
    throw new ServiceError('match_decision_limit_exceeded', `This account keeps ${MATCH_DECISIONS_MAX} match decisions in this key environment; remove one (DELETE /v1/matches/decisions) first.`, {
      param: 'match',
    });
  }
  return { data: decisionView(a, b, row), meta: buildMeta(services, ctx, { platforms: [a.platform, b.platform], currency: 'USD' }) };
}

export async function forgetMatchDecision(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<MatchDecisionView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const q = parseParams(matchDecisionParams(), raw);
  const { a, b } = pairOf(q);
  if (!(await services.store.clearMatchDecision(ctx.account.id, ctx.key.env, { platform: a.platform, listingId: a.id }, { platform: b.platform, listingId: b.id }))) {
    throw new ServiceError('match_decision_not_found', `This account has not pinned or rejected ${a.platform}:${a.id} with ${b.platform}:${b.id}.`, { param: 'match' });
  }
  return { data: decisionView(a, b, null), meta: buildMeta(services, ctx, { platforms: [a.platform, b.platform], currency: 'USD' }) };
}
