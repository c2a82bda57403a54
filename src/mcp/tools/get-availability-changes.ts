// get_availability_changes: GET /v1/history/availability (issue 26).
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { type AvailabilityHistory, historyAvailabilityParams } from '../../core/schemas/history.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, dateRuns, plural, tailLines } from '../text.js';
import { type Args, OWN_STORE, type ToolDef } from '../tool.js';
import { when } from './get-price-history.js';

const SHOWN = 20;

const state = (available: boolean | null) => (available === null ? 'unseen' : available ? 'available' : 'unavailable');

function changeLine(c: AvailabilityHistory['changes'][number]): string {
  const what =
    c.available.from === null ? `first seen ${state(c.available.to)}` : c.available.from !== c.available.to ? `${state(c.available.from)} → ${state(c.available.to)}` : state(c.available.to);
  const min = c.minNights.from !== null && c.minNights.from !== c.minNights.to ? `, minimum nights ${c.minNights.from} → ${c.minNights.to}` : '';
  return `- ${when(c.observedAt)}: night ${c.date} ${what}${min}`;
}

function summarizeAvailabilityChanges(env: Envelope<AvailabilityHistory>, args: Args): string {
  const { changes, latest } = env.data;
  const who = `${typeof args.platform === 'string' ? `${args.platform} ` : ''}${String(args.listingId ?? '')}`;
  const window = typeof args.startDate === 'string' && typeof args.endDate === 'string' ? `, nights ${args.startDate} to ${args.endDate}` : '';
  const open = latest.filter((d) => d.available).map((d) => d.date);
  const lines = [`${plural(changes.length, 'change')} of ${who}${window} on this page; ${creditsText(env.meta)}.`];
  lines.push(...changes.slice(0, SHOWN).map(changeLine));
  if (changes.length > SHOWN) lines.push(`… and ${changes.length - SHOWN} more in the structured result.`);
  lines.push(
    latest.length === 0
      ? 'Latest: no night of the window was observed.'
      : `Latest: ${open.length} of ${plural(latest.length, 'observed night')} available${open.length > 0 ? ` (${dateRuns(open)})` : ''}.`,
  );
  lines.push(...tailLines(env.meta, 'get_availability_changes'));
  return lines.join('\n');
}

export const getAvailabilityChanges: ToolDef = {
  name: 'get_availability_changes',
  title: 'Get availability changes',
  description:
    "How one listing's calendar changed night by night over a window [startDate, endDate), as this service observed it: each change (available → unavailable is " +
    'a booking or a block; minimum nights changed) with when it was first seen, and each night as last seen. Live keys read what live calls of this deployment observed ' +
    '(a listing never observed is listing_not_found); sandbox keys read a fixed synthetic history. Free; page with the cursor from meta.pagination.nextCursor.',
  params: historyAvailabilityParams(),
  annotations: OWN_STORE,
  run: (ctx, args) =>
    runOperation<AvailabilityHistory>(ctx, {
      tool: 'get_availability_changes',
      call: operations.historyAvailability(queryOf(args)),
      summarize: (env) => summarizeAvailabilityChanges(env, args),
    }),
};
