// The cost guard's Family S worst cases (D26), from the same call descriptors the commands send:
// rows × 1 per search or preset page (× 2 with details), batch entries × 1, a lookup 1.
import { describe, expect, it } from 'vitest';
import { worstCase } from '../../commands/_lib/cost/guard.js';
import { operations } from '../../src/client/operations.js';

describe('cost guard, Family S', () => {
  it('worst cases per call', () => {
    expect(worstCase(operations.stay('12345'))).toBe(1);
    expect(worstCase(operations.stay('https://www.airbnb.com/rooms/12345'))).toBe(1);
    expect(worstCase(operations.stay('12345', 'reviews'))).toBe(1);
    expect(worstCase(operations.stayBatch([{ id: '1' }, { url: 'https://www.airbnb.com/rooms/2' }, { id: '3' }]))).toBe(3);
    expect(worstCase(operations.staySearch({ location: 'Lisbon' }))).toBe(50);
    expect(worstCase(operations.staySearch({ location: 'Lisbon', maxItems: 245 }))).toBe(245);
    expect(worstCase(operations.staySearch({ location: 'Lisbon', maxItems: 900 }))).toBe(250);
    expect(worstCase(operations.staySearchWithDetails({ location: 'Lisbon', maxItems: 30 }))).toBe(60);
    expect(worstCase(operations.stayListings('luxury', { location: 'Lisbon', maxItems: 200 }))).toBe(50);
    expect(worstCase(operations.webhookCreate({ url: 'https://example.com', events: 'job.failed' }))).toBeNull();
  });
});
