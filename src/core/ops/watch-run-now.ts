// POST /v1/watches/run (issue 34, item 5): `stays watch run` through the API like every command,
// in-process and against a server alike. The due watches of the caller's account and key
// environment are claimed and run once each (runDueWatches, as `stays serve` does on its tick)
// until none is due: a claim moves a watch's next run to its next nominal time, so a second call
// runs nothing. A key can run its own due watches sooner than the
// server's next tick (30 s), never more often than their intervals.
import { requireScope } from '../auth.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import type { WatchView } from '../schemas/watches.js';
import type { WatchRunView } from '../schemas/watch-runs.js';
import { type RawInput, preview } from '../validate.js';
import { buildMeta } from '../meta.js';
import { type WatchRunReport, runDueWatches } from './watch-runs.js';

export async function runWatchesNow(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<WatchRunView[]>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const given = Object.keys(raw);
  if (given.length > 0) {
    throw new ServiceError(
      'invalid_parameter',
      `POST /v1/watches/run takes no fields (got ${given.map(preview).join(', ')}): it runs the due watches of the key's account and environment, each once.`,
      { param: given[0]! },
    );
  }
  const reports: WatchRunReport[] = await runDueWatches(services, { accountId: ctx.account.id, env: ctx.key.env });
  // Each watch as it was claimed (one deleted meanwhile is gone from the store).
  const data: WatchRunView[] = reports.map((r) => ({
    watchId: r.watchId,
    name: r.name,
    call: r.call as WatchView['call'],
    outcome: r.outcome,
    creditsCharged: r.creditsCharged,
    error: r.error,
    events: r.events,
    missedRuns: r.missedRuns,
  }));
  const meta = buildMeta(services, ctx, { platforms: [], currency: 'USD' });
  // What this call charged: the runs it made, each billed as the same call made by hand.
  return { data, meta: { ...meta, creditsCharged: reports.reduce((n, r) => n + r.creditsCharged, 0) } };
}
