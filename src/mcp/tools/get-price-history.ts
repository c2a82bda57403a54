// get_price_history: GET /v1/history/price (issue 26).
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { historyPriceParams, type PriceObservation } from '../../core/schemas/history.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, money, plural, tailLines } from '../text.js';
import { type Args, OWN_STORE, type ToolDef } from '../tool.js';

/** Rows shown as lines; the rest are in the structured result. */
const SHOWN = 20;

/** "2027-01-01T06:00:00.000Z" as "2027-01-01 06:00" (UTC): what a reader needs of an instant. */
export const when = (s: string) => s.slice(0, 16).replace('T', ' ');

function rowLine(o: PriceObservation): string {
  const cur = o.currency ?? '';
  const span = o.firstSeen === o.lastSeen ? when(o.firstSeen) : `${when(o.firstSeen)} to ${when(o.lastSeen)}`;
  return `- ${span}: ${money(o.totalPrice, cur)} total, ${money(o.nightlyPrice, cur)}/night (seen ${plural(o.timesSeen, 'time')}, ${o.source})`;
}

function summarizePriceHistory(env: Envelope<PriceObservation[]>, args: Args): string {
  const rows = env.data;
  const who = `${typeof args.platform === 'string' ? `${args.platform} ` : ''}${String(args.listingId ?? '')}`;
  const stay = typeof args.checkIn === 'string' && typeof args.checkOut === 'string' ? `, ${args.checkIn} to ${args.checkOut}` : '';
  const lines: string[] = [];
  if (rows.length === 0) lines.push(`No price of ${who}${stay} was observed in the window; ${creditsText(env.meta)}.`);
  else {
    const totals = rows.map((r) => r.totalPrice).filter((n): n is number => n !== null);
    const cur = rows[0]!.currency ?? '';
    const range = totals.length > 0 ? `, total from ${money(Math.min(...totals), cur)} to ${money(Math.max(...totals), cur)}` : '';
    lines.push(`${plural(rows.length, 'distinct price')} of ${who}${stay} on this page (a row per change)${range}; ${creditsText(env.meta)}.`);
    lines.push(...rows.slice(0, SHOWN).map(rowLine));
    if (rows.length > SHOWN) lines.push(`… and ${rows.length - SHOWN} more in the structured result.`);
  }
  lines.push(...tailLines(env.meta, 'get_price_history'));
  return lines.join('\n');
}

export const getPriceHistory: ToolDef = {
  name: 'get_price_history',
  title: 'Get price history',
  description:
    "How one listing's price for one stay (dates and adults) moved, as this service observed it: a row per distinct price, " +
    'with when it was first and last seen and how often. Live keys read what live calls of this deployment observed (a listing never observed is listing_not_found); ' +
    'sandbox keys read a fixed synthetic history. Free; page with the cursor from meta.pagination.nextCursor.',
  params: historyPriceParams(),
  annotations: OWN_STORE,
  run: (ctx, args) => runOperation<PriceObservation[]>(ctx, { tool: 'get_price_history', call: operations.historyPrice(queryOf(args)), summarize: (env) => summarizePriceHistory(env, args) }),
};
