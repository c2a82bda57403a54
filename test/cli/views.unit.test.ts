// The printer prints with the view its command names (commands/_lib/output/view.ts, issue 34 item
// 5): never guessed from the data's keys. A row that has another kind's keys prints with the
// columns it was named for; a Kind says where its rows are (availability's days, a comparison's
// offers, a stay part's items); a call site that prints only JSON names no view and a table there
// is a programming error. `stays jobs get|wait` is the one reader of shapes (a job's poll does not
// name the call that started it): jobs/result-view.ts.
import { describe, expect, it } from 'vitest';
import { jobResultView } from '../../commands/jobs/result-view.js';
import { rowLines } from '../../commands/_lib/output/print.js';
import { keysView, kindView, ownKeysView, viewOf } from '../../commands/_lib/output/view.js';
import { watchEventView } from '../../commands/_lib/output/view-watches.js';

const header = (v: ReturnType<typeof kindView>) => rowLines(v, 'csv', true).split('\n')[0];

describe('views named by the command', () => {
  it('a price row that also carries a listing id, reviews and jobs keys prints as the price it was named for', () => {
    const row = { platform: 'airbnb', listingId: '1', platformListingId: '1', reviewId: 'r', jobId: 'j', status: 'x', nightlyPrice: 10, totalPrice: 30, currency: 'USD' };
    const v = viewOf(row, 'price');
    expect(v.kind).toBe('price');
    expect(v.single).toBe(true);
    expect(header(v)).toMatch(/^platform,listing_id,/);
    expect(viewOf([row], 'review').kind).toBe('review');
  });

  it('a Kind says where its rows are: days flattened, offers, a stay part as items with the stay id', () => {
    const days = kindView('day', [{ platform: 'vrbo', listingId: '7', dates: [{ date: '2027-01-01' }, { date: '2027-01-02' }] }]);
    expect(days.rows).toEqual([
      { platform: 'vrbo', listingId: '7', date: '2027-01-01' },
      { platform: 'vrbo', listingId: '7', date: '2027-01-02' },
    ]);
    expect(kindView('offer', { property: 'x', offers: [{ ota: 'a' }] }).rows).toEqual([{ ota: 'a' }]);
    expect(kindView('stay_photo', { id: 's1', photos: [{ url: 'u' }] }).rows).toEqual([{ stay_id: 's1', url: 'u' }]);
    expect(kindView('stay_host', { id: 's1', host: { name: 'h' } }).single).toBe(true);
  });

  it('a builder is used as given; with --fields the projection wins; no view and a table asked for is an error', () => {
    const events = viewOf([{ id: 'wev_1', watchId: 'wat_1', rule: { type: 'price_below' }, occurredAt: '2027-01-01T00:00:00Z' }], watchEventView);
    expect(events.data.map((c) => c.key)).toContain('watch_id');
    expect(viewOf([{ id: 'a', b: { c: 1 } }], 'property', ['id', 'b.c']).data.map((c) => c.key)).toEqual(['id', 'b.c']);
    expect(() => viewOf({ id: 'x' }, null)).toThrow(/names no view/);
  });

  it('keysView prints the keys it is given, in order, snake_case, objects as JSON', () => {
    const v = keysView(['listing', 'decidedAt'])({ decidedAt: null, listing: { platform: 'airbnb' }, extra: 1 });
    expect(rowLines(v, 'csv', true)).toBe('listing,decided_at\n"{""platform"":""airbnb""}",\n');
  });
});

describe('jobs get|wait: the result of the call that started the job', () => {
  it('tells the job calls apart by their results', () => {
    expect(jobResultView([{ platformListingId: '1' }]).kind).toBe('property');
    expect(jobResultView([{ reviewId: 'r' }]).kind).toBe('review');
    expect(jobResultView([{ listingId: '1', dates: [] }]).kind).toBe('day');
    expect(jobResultView({ offers: [] }).kind).toBe('offer');
    expect(jobResultView({ nightlyPrice: 1, totalPrice: 2 }).kind).toBe('price');
    expect(jobResultView([{ id: 's', title: 't', person_capacity: 2, reviews_count: 0 }]).kind).toBe('stay');
    expect(jobResultView({ id: 's', photos: [] }).kind).toBe('stay_photo');
  });

  it('anything else prints by its own keys', () => {
    const v = jobResultView({ someKey: 1, other: 'x' });
    expect(v.kind).toBeNull();
    expect(rowLines(v, 'csv', true)).toBe(rowLines(ownKeysView({ someKey: 1, other: 'x' }), 'csv', true));
    expect(rowLines(v, 'csv', true)).toBe('some_key,other\n1,x\n');
  });
});
