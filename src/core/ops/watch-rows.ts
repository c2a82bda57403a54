// A watch and its events as the store keeps them (JSON call, rules and state), read back through
// the schemas (schemas/watches.ts), and as the API shows them.
import type { WatchEventRow, WatchRow } from '../ports/store.js';
import { type WatchCall, type WatchEventView, type WatchRule, type WatchState, type WatchView, checkedRuleSchema, storedCallSchema, watchStateSchema } from '../schemas/watches.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A watch row with its call, rules and state typed: what a run reads. */
export interface Watch extends Omit<WatchRow, 'call' | 'rules' | 'state'> {
  call: WatchCall;
  rules: WatchRule[];
  /** What the last successful run saw (null before the first). */
  state: WatchState | null;
}

const callOf = (row: WatchRow): WatchCall => storedCallSchema().parse(row.call);
const rulesOf = (row: WatchRow): WatchRule[] => row.rules.map((r) => checkedRuleSchema().parse(r));

export function readWatch(row: WatchRow): Watch {
  const call = callOf(row);
  return { ...row, call, rules: rulesOf(row), state: row.state === null || row.state === undefined ? null : watchStateSchema(call.type).parse(row.state) };
}

/** The watch as the API shows it (its state is not shown, so not read). */
export function watchView(w: WatchRow, today: string): WatchView {
  return {
    id: w.id,
    name: w.name,
    call: callOf(w),
    rules: rulesOf(w),
    intervalMinutes: w.intervalMinutes,
    maxCreditsPerDay: w.maxCreditsPerDay,
    status: w.status,
    endedReason: w.endedReason,
    createdAt: iso(w.createdAt),
    nextRunAt: w.status === 'active' ? iso(w.nextRunAt) : null,
    lastRun: w.lastRunAt === null || w.lastOutcome === null ? null : { at: iso(w.lastRunAt), outcome: w.lastOutcome, creditsCharged: w.lastCharged, error: w.lastError },
    creditsToday: w.creditsDay === today ? w.creditsToday : 0,
    runs: w.runs,
    triggers: w.triggers,
  };
}

export const eventView = (e: WatchEventRow): WatchEventView => ({
  id: e.id,
  watchId: e.watchId,
  rule: checkedRuleSchema().parse(e.rule),
  occurredAt: iso(e.occurredAt),
  before: e.before,
  after: e.after,
  changes: e.changes,
});
