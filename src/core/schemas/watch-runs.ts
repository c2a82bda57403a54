// POST /v1/watches/run (issue 34, item 5): the due watches of the caller's account and key
// environment, each run once now, and what each run did. Family U style; made on first use.
import { z } from 'zod';
import { once } from './once.js';
import { watchEventSchema, watchSchema } from './watches.js';

/** The body: nothing to give (an empty object, or none); any field is refused, so a typo never passes for an option. */
export const watchRunBody = once(() => z.object({}).strict().describe('No fields: the watches run are the due ones of the key’s account and environment.'));

export const watchRunSchema = once(() =>
  z
    .object({
      watchId: z.string().describe('wat_…'),
      name: watchSchema().shape.name,
      call: watchSchema().shape.call,
      outcome: z
        .enum(['ok', 'failed', 'skipped', 'pending', 'ended'])
        .describe(
          'ok: the call answered and the rules were read; failed: nothing charged; skipped: maxCreditsPerDay reached (free); pending: the call became a job, billed when it ends, its rules read on the next run; ended: the call can no longer be made.',
        ),
      creditsCharged: z.number().int().min(0).describe('What this run charged (the same call made by hand).'),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
      events: z.array(watchEventSchema()).describe('The rules that held on this run (also GET /v1/watches/{id}/events and watch.triggered webhooks).'),
      missedRuns: z
        .number()
        .int()
        .min(0)
        .describe(
          'Runs of this watch that were due since its last one and not made, because nothing ran the due watches then (no stays serve, no stays watch run): they are not made up; this run is the one of the latest interval.',
        ),
    })
    .describe('One run of a due watch.'),
);

export type WatchRunView = z.infer<ReturnType<typeof watchRunSchema>>;
