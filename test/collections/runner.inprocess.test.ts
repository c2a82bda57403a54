// What `stays serve` does with a collection on its own (src/jobs/collections.ts, issue 38, item 3):
// the runner on its tick, the clock moved by the test. The pass's discovery runs at its start and
// plans the tracking spread over the day, so only the items due by now are made (no midnight herd);
// a budget lowered mid-pass stops the day's spending at it and defers the rest to the next UTC day,
// where the next pass supersedes them, uncharged. The ledger is the items' charges throughout.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { databaseFile } from '../../src/config.js';
import { startCollectionRunner } from '../../src/jobs/collections.js';
import { type TestApp, startApp } from '../helpers/app.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2027, 0, 4);
const BOX = '-40.0,40.0,-39.975,40.025';

type Item = { pass: number; item: string; due_at: number; done_at: number | null; outcome: string | null; charged: number; claimed_by: string | null };

let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Polls until `ok` holds (the runner ticks every 20 ms); fails after a minute. */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let waited = 0; !ok(); waited += 20) {
    if (waited > 60_000) throw new Error(`still not: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the collection runner of stays serve, on its own tick', () => {
  it('makes only what is due; a budget lowered mid-pass defers the rest to the next day, where the next pass supersedes it', async () => {
    const clock = manualClock(T0 + 30_000);
    app = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock, deliver: false });
    const acct = await app.account({ plan: 'pro', credits: 1_000_000, rpm: 1_000_000 });
    const call = async (method: string, path: string, body?: object) => {
      const r = await app!.req(path, { method, key: acct.liveKey, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
      const j = (await r.json()) as { data: Record<string, unknown> };
      expect(r.status, JSON.stringify(j)).toBeLessThan(300);
      return j.data;
    };
    const balance = async () => ((await call('GET', '/v1/account')) as { credits: { balance: number } }).credits.balance;
    const made = (await call('POST', '/v1/collections', { name: 'served', bbox: BOX, platforms: 'vrbo', horizonNights: 30, maxCreditsPerDay: 100_000 })) as { id: string };
    const db = new Database(databaseFile(app.dataDir), { readonly: true, fileMustExist: true });
    const items = () => db.prepare('SELECT pass, item, due_at, done_at, outcome, charged, claimed_by FROM collection_items WHERE collection_id = ? ORDER BY pass, due_at, item').all(made.id) as Item[];
    const runner = startCollectionRunner(app.runtime, { tickMs: 20, onError: (e) => expect.fail(String(e)) });
    // The clock is moved only between items: one moved past a running item's lease would be a
    // process stalled that long (the item is then claimed again; tested in the store suite).
    const idle = () => items().every((x) => x.claimed_by === null);
    try {
      // The pass's start: its discovery, then the tracking planned over the rest of the day.
      await until('the discovery ran', () => items().some((x) => x.item === 'discover' && x.done_at !== null) && items().length > 1 && idle());
      const planned = items().filter((x) => x.item.startsWith('track:'));
      expect(planned.length).toBe(155);
      for (const x of planned) expect(x.due_at >= T0 && x.due_at < T0 + DAY_MS).toBe(true);
      expect(Math.max(...planned.map((x) => x.due_at)) - Math.min(...planned.map((x) => x.due_at))).toBeGreaterThan(22 * HOUR_MS);

      // Noon: what was due by then is made, nothing due later.
      clock.set(T0 + 12 * HOUR_MS);
      const dueByNoon = planned.filter((x) => x.due_at <= clock.now()).length;
      await until('the morning items are done', () => items().filter((x) => x.item.startsWith('track:') && x.done_at !== null).length === dueByNoon && idle());
      expect(items().filter((x) => x.done_at !== null && x.due_at > clock.now())).toEqual([]);
      expect(dueByNoon).toBeGreaterThan(60);
      expect(dueByNoon).toBeLessThan(95);

      // The budget lowered to what was spent and ten more listings: the evening stops there.
      const spent = await app.runtime.store.collectionBudgetUsed(made.id, '2027-01-04');
      const perListing = planned.length === 0 ? 0 : items().find((x) => x.item.startsWith('track:') && x.done_at !== null)!.charged;
      await call('PATCH', `/v1/collections/${made.id}`, { maxCreditsPerDay: spent + 10 * perListing });
      clock.set(T0 + 23 * HOUR_MS + 59 * 60_000);
      await until('every item due today is done or deferred', () => items().every((x) => x.pass !== 0 || x.done_at !== null || x.due_at >= T0 + DAY_MS) && idle());
      // Four items run at once, each a calendar then a quote, so the last call the budget took may
      // have been a calendar without its quote (partial); either way never past the budget.
      const budget = spent + 10 * perListing;
      const used = await app.runtime.store.collectionBudgetUsed(made.id, '2027-01-04');
      expect(used).toBeLessThanOrEqual(budget);
      expect(used).toBeGreaterThan(budget - perListing);
      const evening = items().filter((x) => x.pass === 0 && x.item.startsWith('track:') && x.due_at > T0 + 12 * HOUR_MS);
      const deferred = evening.filter((x) => x.done_at === null);
      expect(evening.length - deferred.length).toBeGreaterThanOrEqual(10);
      expect(evening.length - deferred.length).toBeLessThanOrEqual(14);
      for (const x of evening.filter((y) => y.done_at !== null)) expect(x.outcome).toMatch(/^(done|partial: quote: the day's budget is spent)$/);
      for (const x of deferred) expect([x.due_at, x.charged]).toEqual([T0 + DAY_MS, 0]);
      expect(evening.filter((x) => x.done_at !== null).reduce((n, x) => n + x.charged, 0)).toBe(used - spent);

      // The next day: a new pass; the deferred items of the last one end superseded, uncharged.
      clock.set(T0 + DAY_MS + 30_000);
      await until('pass 0 has ended', () => items().every((x) => x.pass !== 0 || x.done_at !== null));
      for (const x of items().filter((y) => y.pass === 0 && deferred.some((d) => d.item === y.item))) {
        expect(x.outcome).toMatch(/^superseded/);
        expect(x.charged).toBe(0);
      }
      await until("pass 1's discovery ran", () => items().some((x) => x.pass === 1 && x.item === 'discover' && x.done_at !== null));
    } finally {
      await runner.stop();
    }
    // Billed as by hand: the balance fell by what the items were charged, to the credit.
    const charged = items().reduce((n, x) => n + x.charged, 0);
    expect(1_000_000 - (await balance())).toBe(charged);
    db.close();
  }, 120_000);
});
