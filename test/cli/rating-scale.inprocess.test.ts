// A rating filter above a platform's scale (issue 22, item 17): ratings keep each platform's own
// scale (airbnb 5, booking 10), so --min-rating 6 on airbnb matches nothing. The core says so in
// meta.warnings (rating_out_of_scale, per platform: API users get it) and the CLI prints it on
// stderr; a filter within every scale warns nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

let box: Sandbox;
beforeAll(() => {
  box = freshSandbox();
});

type Body = { data: unknown[]; meta: { warnings: { code: string; platform?: string; message: string; docUrl: string }[] } };

describe("rating filters outside a platform's scale", () => {
  it('reviews --min-rating 6 on airbnb: a meta warning, and a line on stderr', async () => {
    const body = json<Body>(await staysIn(['reviews', 'airbnb', '12345678', '--min-rating', '6', '--json'], box.env));
    expect(body.data).toEqual([]);
    const w = body.meta.warnings.filter((x) => x.code === 'rating_out_of_scale');
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ platform: 'airbnb' });
    expect(w[0]!.message).toContain("minRating 6 is above airbnb's rating scale (0 to 5)");
    expect(w[0]!.docUrl).toContain('rating_out_of_scale');

    const table = await staysIn(['reviews', 'airbnb', '12345678', '--min-rating', '6', '-o', 'table'], box.env);
    expect(table.code).toBe(0);
    expect(table.stderr).toMatch(/warning: minRating 6 is above airbnb's rating scale/);
  });

  it('search --min-guest-rating 8 warns for airbnb (5) only, not booking (10)', async () => {
    const r = await staysIn(['search', 'Lisbon', '--platforms', 'airbnb,booking', '--min-guest-rating', '8', '--limit', '3', '--json'], box.env);
    const body = json<Body>(r);
    expect(body.meta.warnings.filter((x) => x.code === 'rating_out_of_scale').map((x) => x.platform)).toEqual(['airbnb']);
    // Booking rows still come: the filter is valid there.
    expect(body.data.length).toBeGreaterThan(0);
    const tsv = await staysIn(['search', 'Lisbon', '--platforms', 'airbnb,booking', '--min-guest-rating', '8', '--limit', '3', '-o', 'tsv'], box.env);
    expect(tsv.stderr).toContain("minGuestRating 8 is above airbnb's rating scale");
    expect(tsv.stderr).not.toContain('above booking');
  });

  it('a filter within every scale warns nothing', async () => {
    const reviews = json<Body>(await staysIn(['reviews', 'airbnb', '12345678', '--min-rating', '4', '--json'], box.env));
    const search = json<Body>(await staysIn(['search', 'Lisbon', '--platforms', 'airbnb,booking', '--min-guest-rating', '4.5', '--limit', '3', '--json'], box.env));
    for (const b of [reviews, search]) expect(b.meta.warnings.map((x) => x.code)).not.toContain('rating_out_of_scale');
  });
});
