// find_matches (issue 27, item 5) over /mcp with a sandbox key: read-only and free; the structured
// result is REST's GET /v1/matches; the text says the method, how many candidates were scored, and
// why each match is one and why the best non-match is not, in words an agent can repeat.
import { describe, expect, it } from 'vitest';
import { sandboxTruth } from '../../src/sources/sandbox/truth.js';
import { textOf } from './helpers.js';
import { sandboxMcpApp } from './sandbox-app.js';

const ANCHOR = '62959578';

describe('find_matches over /mcp', () => {
  const app = sandboxMcpApp();

  it('is read-only; answers as REST; its text says the method, the candidates scored and why', async () => {
    const { tools } = await app.client.listTools();
    expect(tools.find((t) => t.name === 'find_matches')?.annotations).toMatchObject({ readOnlyHint: true });
    const r = await app.client.callTool({ name: 'find_matches', arguments: { platform: 'airbnb', listingId: ANCHOR } });
    expect(r.isError, textOf(r)).toBeFalsy();
    const body = r.structuredContent as unknown as {
      data: { candidatesConsidered: number; matches: { platform: string; listingId: string; why: string }[]; bestNonMatch: { why: string } };
      meta: { creditsCharged: number };
    };
    const rest = (await (await app.s.req(`/v1/matches?platform=airbnb&listingId=${ANCHOR}`, { key: app.acct.sandboxKey })).json()) as { data: unknown };
    expect(body.data).toEqual(rest.data);
    expect(body.meta.creditsCharged).toBe(0);
    expect(body.data.matches.map((m) => `${m.platform}:${m.listingId}`).sort()).toEqual(
      sandboxTruth
        .twins('airbnb', ANCHOR)
        .map((t) => `${t.platform}:${t.id}`)
        .sort(),
    );
    const lines = textOf(r).split('\n');
    expect(lines[0]).toBe(
      `Method match/1 (threshold 0.8) scored ${body.data.candidatesConsidered} candidate listings from the sandbox world for airbnb:${ANCHOR} ("Spacious 2BR apartment near Chiado").`,
    );
    for (const m of body.data.matches) expect(lines).toContain(`- ${m.why}`);
    expect(lines).toContain(`Best non-match: ${body.data.bestNonMatch.why}`);
    expect(textOf(r)).toContain('Free: no credits charged (sandbox key).');
  });

  it('bad input is the typed error, free', async () => {
    const r = await app.client.callTool({ name: 'find_matches', arguments: { platform: 'airbnb', listingId: ANCHOR, threshold: 3 } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'invalid_request', param: 'threshold', creditsCharged: 0 });
  });
});
