// calendar-diff/2's wrong nights on the mixed development world (issue 37, the sixth round):
// development (even) seeds only, daily and weekly. Each wrong night is put in one of the ceiling's
// unrecoverable classes (bench/families-ceiling.mjs: unseen, direct or owner shaped as a guest's)
// or else counted by truth -> inferred, the item behind it (calendar-families' kind, 'prep' for a
// booking's preparation nights, 'free' for none), the /2 path of its basis, and the listing's families.
//
//   node bench/errors-v2.mjs            # BENCH_DEV_SEEDS=2,4,…,16; --top=N rows per table
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ceilingClass } from './families-ceiling.mjs';

const SEEDS = (process.env.BENCH_DEV_SEEDS ?? '2,4,6,8,10,12,14,16').split(',').map(Number);
if (SEEDS.some((s) => s % 2 !== 0)) throw new Error('development seeds are even: odd seeds are held out');
const TOP = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const DAY = 86_400_000;
const START = Date.UTC(2027, 0, 1);
const here = (p) => pathToFileURL(new URL(p, import.meta.url).pathname).href;
const fam = await tsImport(here('../src/sources/sandbox/calendar-families.ts'), import.meta.url);
const sim = await tsImport(here('../test/helpers/family-sim.ts'), import.meta.url);
const { rng } = await tsImport(here('../src/sources/sandbox/prng.ts'), import.meta.url);
const end = START + 90 * DAY - 1;

function itemOf(l, d) {
  // The live item behind night d at the end (as takenAt: a stay's own nights first, then preparation).
  const live = l.items.filter((it) => it.madeAt <= end && (it.cancelledAt === null || end < it.cancelledAt));
  const own = live.find((it) => d >= it.start && d < it.end);
  if (own) return { kind: own.kind, it: own };
  const p = l.params.prepNights;
  const prep = live.find((it) => it.kind === 'booking' && d >= it.start - p && d < it.end + p);
  return prep ? { kind: 'prep', it: prep } : { kind: 'free', it: null };
}

const ceilingOf = (l, d, every, seed) => ceilingClass({ fam, rng }, l, d, every, seed);

const bump = (m, k, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
const show = (title, m, total) => {
  console.log(`\n${title}`);
  console.table(
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([k, n]) => ({ class: k, nights: n, share: `${((100 * n) / total).toFixed(1)} %` })),
  );
};

for (const every of [24, 168]) {
  const tabs = { ceiling: new Map(), flip: new Map(), kind: new Map(), path: new Map(), detail: new Map(), family: new Map() };
  let nights = 0;
  let right = 0;
  let wrong = 0;
  let rec = 0;
  for (const seed of SEEDS) {
    sim.simulateFamilies({
      world: 'all',
      seed,
      listings: 40,
      days: 90,
      everyHours: every,
      horizonDays: 150,
      start: START,
      method: 'calendar-diff/2',
      development: true,
      onNight: (n) => {
        nights++;
        if (n.right) return right++;
        wrong++;
        const c = ceilingOf(n.listing, n.day, every, seed);
        bump(tabs.ceiling, c ?? 'recoverable');
        if (c) return;
        rec++;
        const { kind } = itemOf(n.listing, n.day);
        const path = n.basis?.split('|')[0] ?? '?';
        const flip = `${n.truth} -> ${n.state}`;
        bump(tabs.flip, flip);
        bump(tabs.kind, `${flip} | ${kind}`);
        bump(tabs.path, `${flip} | ${path}`);
        bump(tabs.detail, `${flip} | ${kind} | ${path} | ${n.basis?.split('|').slice(1).join('|')}`);
        for (const f of n.families.length ? n.families : ['(none)']) bump(tabs.family, `${flip} | ${kind} | ${f}`);
      },
    });
  }
  console.log(`\n===== ${every === 24 ? 'daily' : 'weekly'}: ${nights} nights, ${right} right, ${wrong} wrong, ${rec} recoverable`);
  show('ceiling classes of the wrong nights', tabs.ceiling, wrong);
  show('recoverable: truth -> inferred', tabs.flip, rec);
  show('recoverable: truth -> inferred | item', tabs.kind, rec);
  show('recoverable: truth -> inferred | /2 path', tabs.path, rec);
  show('recoverable: truth -> inferred | item | path | basis', tabs.detail, rec);
  show('recoverable: truth -> inferred | item | a family of the listing (a night counts once per family)', tabs.family, rec);
}
