// get_reviews: GET /v1/reviews.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { ReviewsParams } from '../../core/schemas/params.js';
import type { Review } from '../../core/schemas/resources.js';
import { queryOf, runOperation } from '../run.js';
import { clip, creditsText, plural, rating, tailLines } from '../text.js';
import type { ToolDef } from '../tool.js';

const SHOWN = 5;

export function summarizeReviews(env: Envelope<Review[]>): string {
  const rows = env.data;
  const first = rows[0];
  const about = first ? ` of ${first.platform} ${first.listingId}` : '';
  const avg = rows.length > 0 ? rows.reduce((s, r) => s + r.rating, 0) / rows.length : null;
  const lines = [`${plural(rows.length, 'review')}${about}${avg !== null && first ? `, average ${rating(avg, first.ratingScale)} on this page` : ''}; ${creditsText(env.meta)}.`];
  lines.push(
    ...rows
      .slice(0, SHOWN)
      .map(
        (r) =>
          `- ${rating(r.rating, r.ratingScale)} ${r.author ?? 'anonymous'}, ${r.date}${r.language ? ` (${r.language})` : ''}: ${clip([r.title, r.text].filter(Boolean).join(': ') || '(no text)', 160)}`,
      ),
  );
  if (rows.length > SHOWN) lines.push(`… and ${rows.length - SHOWN} more in the structured result.`);
  lines.push(...tailLines(env.meta, 'get_reviews', true));
  return lines.join('\n');
}

export const getReviews: ToolDef = {
  name: 'get_reviews',
  title: 'Get reviews',
  description:
    'Normalized, paginated reviews of one listing on one platform (vrbo, booking or airbnb): rating on the native scale, text, author, date, language. ' +
    'Page with the cursor from meta.pagination.nextCursor. Live keys pay per review (airbnb 5, booking 1, vrbo 1; minimum 5, none for zero reviews); sandbox keys are free.',
  params: ReviewsParams,
  run: (ctx, args) => runOperation<Review[]>(ctx, { tool: 'get_reviews', call: operations.reviews(queryOf(args)), summarize: summarizeReviews }),
};
