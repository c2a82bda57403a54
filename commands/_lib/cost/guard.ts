// The cost guard (--max-credits): the worst case a live call may cost, worked out from its
// parameters by the core (src/core/worst-case.ts: the service's billing formulas and page limits), before any request.
// A single call over the cap, or an --all walk whose next page would take it past the cap, is
// refused with exit 5 when nobody can be asked, and asked about on a terminal. Without
// --max-credits, a terminal still asks before a live --all walk or a batch passes 100 credits.
// Sandbox keys are free and never guarded. A refusal suggests how to narrow the call with the
// command's own flags only; after a "yes" the next question names the cap that yes set.
// --dry-run (dry-run.ts) reports the same worst case without sending anything.
import type { ApiCall } from '../../../src/client/http.js';
import { REVIEWS_LIMIT, SEARCH_LIMIT } from '../../../src/core/limits.js';
import { valueInt, valueList, worstCaseOf } from '../../../src/core/worst-case.js';
import type { Ctx } from '../runtime/context.js';
import { EXIT, io } from '../runtime/io.js';

/** The default cap on a terminal, for --all walks and batches, when --max-credits is not given. */
const DEFAULT_TTY_CAP = 100;

const list = valueList;
const int = valueInt;

/** The worst case of one call (credits), or null when it is free or not a billable route: the core's (src/core/worst-case.ts). */
export const worstCase = (call: ApiCall): number | null => worstCaseOf(call);

/**
 * What a call's worst case grows with, as API parameter names (the ones worstCase reads), for the
 * refusal's hints. A parameter the command takes as a flag is suggested by that flag only when the
 * command has it; `ids` and `entries` are what the command takes as arguments or in a file.
 */
function costDrivers(call: ApiCall): string[] {
  const q = call.query ?? {};
  const b = (call.body ?? {}) as Record<string, unknown>;
  const path = call.path.replace(/^\/v1/, '');
  if (call.method === 'POST') {
    if (path === '/stays/batch') return Array.isArray(b.entries) && b.entries.length > 1 ? ['entries'] : [];
    return ['maxItems'];
  }
  if (path === '/search') return [...(int(q.limit, SEARCH_LIMIT.default) > 1 ? ['limit'] : []), ...(list(q.platforms ?? q.platform).length === 1 ? [] : ['platforms'])];
  if (path === '/price-compare') return list(q.listings).length > 2 ? ['listings'] : [];
  if (path === '/availability') return [...(list(q.listingIds).length > 1 ? ['ids'] : []), 'startDate', 'endDate'];
  if (path === '/reviews') return int(q.limit, REVIEWS_LIMIT.default) > 1 ? ['limit'] : [];
  return [];
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const kebab = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const DRIVER_WORDS: Record<string, (flags: string[]) => string | null> = {
  ids: () => 'fewer ids',
  entries: (flags) => (flags.includes('--file') ? 'fewer entries in --file' : 'fewer entries'),
  listings: (flags) => (flags.includes('--listings') ? 'fewer --listings pairs' : null),
  startDate: (flags) => (flags.includes('--start-date') && flags.includes('--end-date') ? 'a shorter --start-date/--end-date window' : null),
  endDate: () => null,
};

/** How to narrow this call with the command's own flags (`flags`: its long options), or null. */
function narrowHint(call: ApiCall, flags: readonly string[]): string | null {
  const own = [...flags];
  const hints = costDrivers(call).flatMap((d) => {
    const words = DRIVER_WORDS[d];
    const hint = words ? words(own) : own.includes(kebab(d)) ? kebab(d) : null;
    return hint === null ? [] : [hint];
  });
  return hints.length ? hints.join(', ') : null;
}

/** A call that fetches several listings at once: the terminal's default cap applies to it. */
function isBatch(call: ApiCall): boolean {
  const q = call.query ?? {};
  return (call.path.endsWith('/availability') && list(q.listingIds).length > 1) || (call.path.endsWith('/price-compare') && list(q.listings).length > 0) || call.path.endsWith('/stays/batch');
}

/** Refused by the cost guard: exit 5, nothing more on stdout. */
class CostRefused extends Error {
  readonly exitCode = EXIT.credits;
  constructor(message: string) {
    super(message);
    this.name = 'CostRefused';
  }
}

export interface CostGuard {
  /** Called before each request of the walk (or the single call): throws CostRefused, or returns. */
  before(spentSoFar: number, page: number): Promise<void>;
}

async function confirm(message: string): Promise<boolean> {
  const { confirm: ask } = await import('@inquirer/prompts');
  const { stdin, stdout } = io();
  return ask({ message, default: false }, { input: stdin, output: stdout });
}

/**
 * The cap that guards this call: --max-credits, or on a terminal the default cap for a live
 * --all walk or batch; null when nothing guards it (a sandbox key, no cap).
 */
export function capOf(ctx: Pick<Ctx, 'keyEnv' | 'maxCredits' | 'term'>, call: ApiCall, o: { all: boolean }): { credits: number; source: 'max-credits' | 'terminal' } | null {
  if (ctx.keyEnv === 'sandbox') return null;
  if (ctx.maxCredits !== null) return { credits: ctx.maxCredits, source: 'max-credits' };
  return ctx.term.interactive && (o.all || isBatch(call)) ? { credits: DEFAULT_TTY_CAP, source: 'terminal' } : null;
}

/** The guard for this call, or null when nothing needs guarding. */
export function costGuard(ctx: Ctx, call: ApiCall, o: { all: boolean; flags?: readonly string[] }): CostGuard | null {
  const each = worstCase(call);
  if (each === null || each === 0) return null;
  const first = capOf(ctx, call, o);
  if (first === null) return null;
  const explicit = ctx.maxCredits;
  // Each "yes" allows the page asked about and as much again as the cap allowed at first.
  const step = first.credits;
  let cap = first.credits;
  let continued: number | null = null;
  const flag = explicit === null ? `the default cap of ${DEFAULT_TTY_CAP} credits on a terminal (set --max-credits N)` : `--max-credits ${explicit}`;
  // What is true when asking: the first cap as set, or what the last "yes" allowed.
  const capText = () => (continued === null ? flag : `${cap} credits, the cap since you continued at page ${continued} (${step} more beyond that page)`);
  return {
    async before(spent, page) {
      if (spent + each <= cap) return;
      const what =
        page === 1 ? `This call may cost up to ${credits(each)}` : `The next page (${page}) may cost up to ${credits(each)}, after ${spent} charged for ${page - 1} page${page === 2 ? '' : 's'}`;
      if (ctx.term.interactive) {
        ctx.ui.stop();
        if (await confirm(`${what}, which passes ${capText()}. Continue?`)) {
          cap = spent + each + step;
          continued = page;
          return;
        }
        throw new CostRefused(`Stopped: ${what.charAt(0).toLowerCase()}${what.slice(1)}; not confirmed.`);
      }
      const narrow = narrowHint(call, o.flags ?? []);
      throw new CostRefused(`Refused: ${what.charAt(0).toLowerCase()}${what.slice(1)}, which would pass ${flag}. Raise --max-credits${narrow ? `, or narrow the call (${narrow})` : ''}.`);
    },
  };
}
