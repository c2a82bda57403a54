// get_market_metrics: GET /v1/market (issue 27, items 2 and 5). Read-only and free: market figures
// computed from what this deployment observed, each stated with its method and sample size.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { type Figure, type MarketView, marketParams } from '../../core/schemas/market.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, money, plural, tailLines } from '../text.js';
import { type Args, OWN_STORE, type ToolDef } from '../tool.js';

const pct = (n: number) => `${(n * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;

/** "ADR: 120.5 EUR (method booked-last-price/1, from 42 booked nights)", or that there was no sample. */
function figureLine(label: string, f: Figure, show: (n: number) => string): string {
  const how = `method ${f.method}`;
  if (f.value === null) return `- ${label}: no figure (${how}; its sample is empty: 0 ${f.sampleUnit}).`;
  return `- ${label}: ${show(f.value)} (${how}, from ${plural(f.sampleSize, f.sampleUnit.replace(/s$/, ''), f.sampleUnit)}).`;
}

function scopeText(d: MarketView): string {
  if (d.scope.compSet !== null) return `comp set ${d.scope.compSet}`;
  if (d.scope.bbox !== null) return `the box ${d.scope.bbox.join(',')}`;
  return d.scope.location ?? 'the scope';
}

function summarizeMarket(env: Envelope<MarketView>): string {
  const d = env.data;
  const m = d.overall;
  const cur = d.currency;
  const w = d.observationWindow;
  const filters = [d.scope.platforms.length > 0 ? d.scope.platforms.join(', ') : null, d.scope.bedrooms === null ? null : plural(d.scope.bedrooms, 'bedroom')].filter(Boolean).join('; ');
  const p = m.pricePercentiles;
  const lines = [
    `Market metrics for ${scopeText(d)}${filters ? ` (${filters})` : ''}, nights ${d.nights.from} to ${d.nights.to} (${plural(d.nights.count, 'night')}); ${creditsText(env.meta)}.`,
    `Computed from ${plural(w.observations, 'observation')} of ${plural(w.listings, 'listing')} this deployment made between ${w.firstObserved.slice(0, 16).replace('T', ' ')} and ${w.lastObserved.slice(0, 16).replace('T', ' ')} UTC. Each figure names its method and sample size; a figure without a sample is given as none, never as zero.`,
    figureLine('Active listings', m.activeListings, String),
    figureLine('Occupancy, calendar-unavailable rate (booked, blocked and unbookable nights together)', m.occupancy.calendarUnavailableRate, pct),
    figureLine('Occupancy, inferred booked rate', m.occupancy.inferredBookedRate, pct),
    m.occupancy.inferredBookedRateInterval.low === null || m.occupancy.inferredBookedRateInterval.high === null
      ? '- Its interval: none (no sample).'
      : `- Its interval by the inference's calibrated confidences: ${pct(m.occupancy.inferredBookedRateInterval.low)} to ${pct(m.occupancy.inferredBookedRateInterval.high)} (method ${m.occupancy.inferredBookedRateInterval.method}).`,
    figureLine('ADR', m.adr, (n) => money(n, cur)),
    figureLine('RevPAR', m.revpar, (n) => money(n, cur)),
    figureLine('Booking window (median lead time)', m.bookingWindowDays, (n) => plural(n, 'day')),
    figureLine('Length of stay (mean)', m.lengthOfStayNights, (n) => plural(n, 'night')),
    p.p50 === null
      ? `- Nightly price percentiles: none (method ${p.method}; no prices observed for these nights).`
      : `- Nightly price percentiles: p25 ${money(p.p25, cur)}, median ${money(p.p50, cur)}, p75 ${money(p.p75, cur)}, p90 ${money(p.p90, cur)} (method ${p.method}, from ${plural(p.sampleSize, 'price')}).`,
  ];
  if (d.byPlatform.length > 1) lines.push(`By platform (${d.byPlatform.map((b) => b.platform).join(', ')}) and by bedroom count: in the structured result, each figure with its own sample size.`);
  lines.push(...tailLines(env.meta, 'get_market_metrics'));
  return lines.join('\n');
}

export const getMarketMetrics: ToolDef = {
  name: 'get_market_metrics',
  title: 'Get market metrics',
  description:
    'Short-term-rental market figures for a searched location, a bounding box or a saved comp set over a window of nights, computed from what this ' +
    'service observed: active listings, ADR, occupancy as two labelled figures (the calendar-unavailable rate and the inferred booked rate), RevPAR, ' +
    'booking window, length of stay and nightly price percentiles, overall, by platform and by bedroom count. Every figure carries its method and sample ' +
    'size, and the answer its observation window; say them when you quote a figure. Nothing observed for the scope is the typed error no_observations, ' +
    'never zeros. Sandbox keys read a fixed synthetic market. Free.',
  params: marketParams(),
  annotations: OWN_STORE,
  run: (ctx, args: Args) => runOperation<MarketView>(ctx, { tool: 'get_market_metrics', call: operations.market(queryOf(args) as never), summarize: (env) => summarizeMarket(env) }),
};
