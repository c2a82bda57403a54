// `stays collect run` as cron runs it without a server (issue 38, items 3-5 and 7): the built CLI as
// a child process on a local SQLite store, a live key on the simulated upstream. A pass discovers
// the box's listings past the caps (against the simulated world's truth), then fetches each one's
// calendar and a sampled quote, every call billed as by hand: the items' charges, the answer's
// meta and the ledger agree to the credit. A second run the same day makes nothing. A collection
// whose daily budget covers part of the pass pays its discovery first and tracks a stated sample
// within what is left, never more than its budget.
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { metropolisTruth } from '../../src/sources/sandbox/metropolis.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { tempDir } from '../helpers/stays.js';
import { freshSandbox, json, stays, staysIn } from './helpers.js';

type Item = { collectionId: string; pass: number; item: string; outcome: string; creditsCharged: number; reason: string | null; found: number | null };
type Run = { data: Item[]; meta: { creditsCharged: number } };
type Progress = { listingsDiscovered: number; listingsTracked: number; creditsSpentToday: number; pass: number; passItems: { total: number; done: number }; lastCompletePass: string | null };

const BOX = [-40.0, 40.0, -39.95, 40.05];
const plain = (t: string) => t.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');
const inBox = (p: { lat: number; lng: number }) => p.lng >= BOX[0]! && p.lng < BOX[2]! && p.lat >= BOX[1]! && p.lat < BOX[3]!;

async function liveMachine(credits: number) {
  const box = freshSandbox();
  const env = { ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' };
  const acct = json<{ id: string }>(await stays(['admin', 'account', 'create', '--plan', 'pro', '--credits', String(credits), '--json'], env));
  const key = json<{ key: string }>(await stays(['admin', 'key', 'create', '--account', acct.id, '--env', 'live', '--json'], env)).key;
  const balance = async () => json<{ data: { credits: { balance: number } } }>(await stays(['account', '--json'], { ...env, STAYS_API_KEY: key })).data.credits.balance;
  return { env: { ...env, STAYS_API_KEY: key }, balance };
}

describe('stays collect run, a child process on the local store', () => {
  it('a whole pass: discovery finds every listing of the box, each is tracked, billed exactly; the second run makes nothing', async () => {
    const m = await liveMachine(500_000);
    const made = await stays(['collect', 'create', 'q', `--bbox=${BOX.join(',')}`, '--platforms', 'vrbo', '--horizon', '30', '--max-credits-per-day', '400000', '--json'], m.env);
    expect(made.code, made.stderr).toBe(0);
    // A listing outside the box, observed by hand: the account's, never the collection's.
    const outside = metropolisTruth('vrbo').find((t) => !inBox(t))!;
    const byHand = await stays(['availability', 'vrbo', outside.id, '--start-date', '2027-06-01', '--end-date', '2027-06-08', '--json'], m.env, { timeoutMs: 60_000 });
    expect(byHand.code, byHand.stderr).toBe(0);
    const before = await m.balance();
    const t0 = Date.now();
    const run = await stays(['collect', 'run', '-o', 'json'], m.env, { timeoutMs: 240_000 });
    const t1 = Date.now();
    expect(run.code, run.stderr).toBe(0);
    const r = json<Run>(run);
    const truth = metropolisTruth('vrbo').filter(inBox);
    const discovery = r.data.find((x) => x.item === 'discover')!;
    expect(discovery, JSON.stringify(discovery)).toMatchObject({ pass: 0, outcome: 'done', found: truth.length });
    const tracked = r.data.filter((x) => x.item.startsWith('track:'));
    expect(tracked.map((x) => x.item.split(':')[2]).sort()).toEqual(truth.map((t) => t.id).sort());
    expect(new Set(tracked.map((x) => x.outcome))).toEqual(new Set(['done']));
    // Billed as the same calls by hand: the items' charges, the answer's meta and the balance agree.
    const sum = r.data.reduce((n, x) => n + x.creditsCharged, 0);
    expect(sum).toBeGreaterThan(0);
    expect(r.meta.creditsCharged).toBe(sum);
    expect(before - (await m.balance())).toBe(sum);
    const show = json<{ data: { progress: Progress } }>(await stays(['collect', 'show', 'q', '--json'], m.env)).data.progress;
    expect(show).toMatchObject({ listingsDiscovered: truth.length, listingsTracked: truth.length, creditsSpentToday: sum, pass: 0, passItems: { total: truth.length + 1, done: truth.length + 1 } });
    expect(show.lastCompletePass).not.toBeNull();

    // The market over the collection: its whole population, the coverage stated, every tracked
    // night (each listing's 30 nights from today, UTC) in its calendar figure.
    const from = new Date().toISOString().slice(0, 10);
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
    const mkt = await stays(['market', '--collection', 'q', '--from', from, '--to', to, '--json'], m.env);
    expect(mkt.code, mkt.stderr).toBe(0);
    const market = json<{
      data: { scope: { collection: string }; coverage: Record<string, unknown>; overall: { occupancy: { calendarUnavailableRate: { value: number; listings: number } } }; summary: string };
    }>(mkt).data;
    expect(market.coverage).toMatchObject({ population: truth.length, tracked: truth.length, observed: truth.length, share: 1, sampled: false });
    expect(market.summary).toContain(`Occupancy over ${truth.length} of ${truth.length} listings found, 100.0 %.`);
    // Every tracked night of every listing is in the calendar figure's sample, and the figure is the
    // world's truth for them: the simulated world moves (bookings are made as time passes), so the
    // truth when the pass began and when it ended bound what its calendars showed.
    const rate = market.overall.occupancy.calendarUnavailableRate;
    expect(rate).toMatchObject({ sampleSize: truth.length * 30, listings: truth.length });
    const truthAt = (at: number) => {
      const world = createSandboxWorld({ clock: manualClock(at) });
      let unavailable = 0;
      for (const t of truth) unavailable += world.availability('vrbo', t.id, from, to).dates.filter((d) => !d.available).length;
      return unavailable / (truth.length * 30);
    };
    const [low, high] = [truthAt(t0), truthAt(t1)].sort((x, y) => x - y);
    expect(rate.value).toBeGreaterThanOrEqual(low! - 0.00005);
    expect(rate.value).toBeLessThanOrEqual(high! + 0.00005);

    // The collection's export (issue 38, item 8): Parquet holding the observations of its listings
    // only, every tracked listing's nights among them, and the same rows as its JSON lines.
    const out = join(tempDir('stays-collect-export-'), 'q.parquet');
    const exp = await stays(['history', 'export', '--since', from, '--collection', 'q', '-o', 'parquet', '--out', out], m.env);
    expect(exp.code, exp.stderr).toBe(0);
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(out) })) as { platform: string; listing_id: string; kind: string }[];
    const ids = new Set(truth.map((t) => t.id));
    expect(rows.filter((x) => x.platform !== 'vrbo' || !ids.has(x.listing_id))).toEqual([]);
    expect(new Set(rows.filter((x) => x.kind === 'day').map((x) => x.listing_id))).toEqual(ids);
    const jsonl = await stays(['history', 'export', '--since', from, '--collection', 'q'], m.env);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    expect(jsonl.stdout.trim().split('\n')).toHaveLength(rows.length);
    // Without --collection the export has the listing observed by hand too.
    const all = await stays(['history', 'export', '--since', from], m.env);
    expect(all.stdout).toContain(`"listingId":"${outside.id}"`);
    expect(jsonl.stdout).not.toContain(`"listingId":"${outside.id}"`);

    // Piped, status prints a JSON line and ends with the pass, which has ended.
    const status = await stays(['collect', 'status', 'q'], m.env);
    expect(status.code, status.stderr).toBe(0);
    const lines = status.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ name: 'q', phase: 'idle', pass: 0, done: truth.length + 1, total: truth.length + 1, listingsTracked: truth.length, creditsSpentToday: sum });

    const again = await stays(['collect', 'run', '-o', 'json'], m.env);
    expect(again.code, again.stderr).toBe(0);
    expect(json<Run>(again)).toMatchObject({ data: [], meta: { creditsCharged: 0 } });
    expect(before - (await m.balance())).toBe(sum);
  }, 300_000);

  it('a budget that covers part of a pass: the discovery first, then a stated sample within what it leaves; at most the budget spent, the ledger exact', async () => {
    const m = await liveMachine(500_000);
    const BUDGET = 600;
    expect((await stays(['collect', 'create', 'small', `--bbox=${BOX.join(',')}`, '--platforms', 'vrbo', '--horizon', '30', '--max-credits-per-day', String(BUDGET)], m.env)).code).toBe(0);
    const before = await m.balance();
    // The people's view: one line per collection, pass, work and outcome.
    const run = await staysIn(['collect', 'run'], m.env, { tty: true, columns: 100 });
    expect(run.code, run.stderr).toBe(0);
    const out = plain(run.stdout);
    expect(out).toMatch(/COLLECTION\s+PASS\s+WORK\s+OUTCOME\s+ITEMS\s+CREDITS/);
    const line = (work: string) => out.match(new RegExp(`\\s0\\s+${work}\\s+(\\w+)\\s+(\\d+)\\s+(\\d+)`))!.slice(1);
    const [discovered, , discoveryCredits] = line('discovery');
    const [trackedOutcome, trackedItems, trackedCredits] = line('tracking');
    expect(discovered).toBe('done');
    // Tracking was sized within what the discovery left: every planned item made, none deferred.
    expect(trackedOutcome).toBe('done');
    expect(out).not.toContain('deferred');
    const sum = Number(discoveryCredits) + Number(trackedCredits);
    const tracked = Number(trackedItems);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThanOrEqual(BUDGET);
    expect(before - (await m.balance())).toBe(sum);
    expect(tracked).toBeGreaterThan(0);
    const again = await stays(['collect', 'run', '-o', 'json'], m.env);
    expect(json<Run>(again)).toMatchObject({ data: [], meta: { creditsCharged: 0 } });
    // On a terminal, status draws the pass as a bar, whole now.
    const bar = await staysIn(['collect', 'status', 'small', '--once'], m.env, { tty: true, columns: 120 });
    expect(bar.code, bar.stderr).toBe(0);
    expect(plain(bar.stdout)).toMatch(new RegExp(`small · pass 0 · idle \\[#+\\] ${tracked + 1}/${tracked + 1} items · ETA - · ${sum} credits today\n$`));
    const shown = json<{ data: { progress: Progress & { coverage: number }; estimate: { sampled: boolean; tracked: number; totalCreditsPerDay: number } } }>(
      await stays(['collect', 'show', 'small', '--json'], m.env),
    ).data;
    expect(shown.progress.creditsSpentToday).toBe(sum);
    expect(shown.progress).toMatchObject({ listingsTracked: tracked });
    expect(shown.progress.listingsDiscovered).toBeGreaterThan(tracked);
    expect(shown.progress.coverage).toBeLessThan(1);
    // The estimate now rests on the discovery that ran: the same sample, what it cost.
    expect(shown.estimate).toMatchObject({ sampled: true, tracked, totalCreditsPerDay: sum });
  }, 300_000);

  it('bad input is a typed error, nothing charged: an unknown collection, a field the run does not take', async () => {
    const m = await liveMachine(1000);
    const unknown = await stays(['collect', 'run', 'nope', '--json'], m.env);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('collection_not_found');
    const exported = await stays(['history', 'export', '--since', '2026-01-01', '--collection', 'nope'], m.env);
    expect(exported.code).toBe(3);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toContain('collection_not_found');
    expect(exported.stderr).toContain('--collection');
    expect(await m.balance()).toBe(1000);
  });
});
