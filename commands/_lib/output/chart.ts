// Charts for the history commands (`stays history price --chart`), drawn here rather than with a
// dependency: a line chart of a step series (a value holds from one change to the next) that fits
// a given width, in braille dots on a terminal (2×4 dots a cell) or in plain ASCII when piped, on
// CI or with NO_COLOR / TERM=dumb; and sparklines of a few values for table columns and summary
// lines. Pure functions of their input: the tests render them at fixed widths.

/** One change of a step series: `v` holds from `t` (epoch ms) until the next point's `t`. */
export interface Point {
  t: number;
  v: number;
}

export interface ChartOptions {
  /** Total width in terminal columns, the axis labels included (at least 20). */
  width: number;
  /** Rows of the plot area (default 8). */
  height?: number;
  /** Braille (true) or ASCII. */
  unicode: boolean;
  /** Where the x axis ends (default: the last point's t); the last value holds until then. */
  end?: number;
  /** How a value is written on the y axis (default: two decimals at most). */
  label?: (v: number) => string;
}

const BLOCKS = '▁▂▃▄▅▆▇█';
const ASCII_LEVELS = '_.-:=+*#';

/** Whether a terminal gets Unicode charts: a TTY, not CI, not TERM=dumb, no NO_COLOR. */
export function unicodeFor(term: { outTTY: boolean; ci: boolean; env: NodeJS.ProcessEnv }): boolean {
  return term.outTTY && !term.ci && term.env.TERM !== 'dumb' && (term.env.NO_COLOR ?? '') === '';
}

/** Values as one character each, lowest to highest (all equal: the middle level); null: a space. */
export function sparkline(values: readonly (number | null)[], unicode: boolean): string {
  const levels = unicode ? BLOCKS : ASCII_LEVELS;
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return ' '.repeat(values.length);
  const [lo, hi] = [Math.min(...known), Math.max(...known)];
  return values
    .map((v) => {
      if (v === null) return ' ';
      const i = hi === lo ? Math.floor(levels.length / 2) : Math.round(((v - lo) / (hi - lo)) * (levels.length - 1));
      return levels[i]!;
    })
    .join('');
}

/** Up to `n` values sampled from a step series at even instants over [start, end]: a sparkline's input. */
export function sample(points: readonly Point[], n: number, end = points.at(-1)?.t ?? 0): number[] {
  if (points.length === 0 || n <= 0) return [];
  const start = points[0]!.t;
  const span = Math.max(0, end - start);
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < n; i++) {
    const t = n === 1 ? end : start + (span * i) / (n - 1);
    while (j + 1 < points.length && points[j + 1]!.t <= t) j++;
    out.push(points[j]!.v);
  }
  return out;
}

const defaultLabel = (v: number) => String(Math.round(v * 100) / 100);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Braille dot bits of a cell by dot column (0, 1) and dot row (0 top … 3 bottom). */
const DOT = [
  [0x01, 0x02, 0x04, 0x40],
  [0x08, 0x10, 0x20, 0x80],
];

/**
 * A line chart of a step series, every line at most `width` columns: the y axis (highest value at
 * the top, lowest at the bottom), the plot, and an x axis with the first and last dates. Empty
 * input: an empty string.
 */
export function lineChart(points: readonly Point[], o: ChartOptions): string {
  if (points.length === 0) return '';
  const label = o.label ?? defaultLabel;
  const height = Math.max(2, o.height ?? 8);
  const values = points.map((p) => p.v);
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  const axis = Math.max(label(hi).length, label(lo).length);
  // The label, a space and the axis line take axis + 2 columns; the plot gets the rest.
  const cols = Math.max(4, Math.max(20, o.width) - axis - 2);
  const [dx, dy] = o.unicode ? [2, 4] : [1, 1];
  const [w, h] = [cols * dx, height * dy];
  const ys = sample(points, w, o.end).map((v) => (hi === lo ? Math.floor((h - 1) / 2) : Math.round(((hi - v) / (hi - lo)) * (h - 1))));
  // The dots lit: each column's value, joined to the column before by a vertical run.
  const lit: boolean[][] = Array.from({ length: h }, () => new Array<boolean>(w).fill(false));
  ys.forEach((y, x) => {
    const prev = ys[x - 1] ?? y;
    for (let r = Math.min(prev, y); r <= Math.max(prev, y); r++) lit[r]![x] = true;
  });
  const rows: string[] = [];
  for (let row = 0; row < height; row++) {
    let line = '';
    for (let c = 0; c < cols; c++) {
      if (!o.unicode) {
        const y = ys[c]!;
        const prev = ys[c - 1] ?? y;
        line += !lit[row]![c] ? ' ' : row === y && prev === y ? '-' : row === y ? '*' : '|';
        continue;
      }
      let bits = 0;
      for (let i = 0; i < 2; i++) for (let j = 0; j < 4; j++) if (lit[row * 4 + j]![c * 2 + i]) bits |= DOT[i]![j]!;
      line += String.fromCharCode(0x2800 + bits);
    }
    const tick = row === 0 ? label(hi) : row === height - 1 ? label(lo) : '';
    rows.push(`${tick.padStart(axis)} ${o.unicode ? '┤' : '|'}${line.trimEnd()}`);
  }
  const [first, last] = [day(points[0]!.t), day(o.end ?? points.at(-1)!.t)];
  const base = `${' '.repeat(axis)} ${o.unicode ? '└' : '+'}${(o.unicode ? '─' : '-').repeat(cols)}`;
  const gap = Math.max(1, cols + 1 - first.length - last.length);
  const dates = `${' '.repeat(axis + 1)}${first}${' '.repeat(gap)}${first === last ? '' : last}`;
  return `${[...rows, base, dates.trimEnd()].join('\n')}\n`;
}

/** One bucket of a series of rates: its nights [from, to) (YYYY-MM-DD), its value and the sample it rests on. */
export interface Bucket {
  from: string;
  to: string;
  value: number | null;
  sample: number;
}

const nightsOf = (b: { from: string; to: string }) => Math.round((Date.parse(`${b.to}T00:00:00Z`) - Date.parse(`${b.from}T00:00:00Z`)) / 86_400_000);

/**
 * A series whose last bucket is shorter than `full` nights (a window that does not end on a week's
 * end) has that bucket merged into the one before: their values weighted by their samples, the
 * merged bucket ending where the last did. Drawn as a bucket of its own, one night would stand for
 * a whole week (issue 36, item 10). Also says which nights were merged (null: none).
 */
export function mergeShortLast(buckets: readonly Bucket[], full: number): { buckets: Bucket[]; merged: { from: string; to: string; nights: number } | null } {
  const last = buckets.at(-1);
  const before = buckets.at(-2);
  if (!last || !before || nightsOf(last) >= full) return { buckets: [...buckets], merged: null };
  const sample = before.sample + last.sample;
  const weighted = (before.value ?? 0) * (before.value === null ? 0 : before.sample) + (last.value ?? 0) * (last.value === null ? 0 : last.sample);
  const counted = (before.value === null ? 0 : before.sample) + (last.value === null ? 0 : last.sample);
  const value = counted === 0 ? null : weighted / counted;
  return {
    buckets: [...buckets.slice(0, -2), { from: before.from, to: last.to, value, sample }],
    merged: { from: last.from, to: last.to, nights: nightsOf(last) },
  };
}
