// Tables that fit the terminal. A list is laid out gh style (upper-case header, columns two spaces
// apart, no box: borders cost three characters a column that an 80-column terminal cannot spare):
// columns whose every cell is empty are left out; text columns shrink (with an ellipsis) to their
// floor; then the least useful columns are dropped until the rest fit; then what is left of the
// width goes back to the text that was cut. Ids are never cut. A single resource is a key/value
// view whose long values wrap under their column (ids and URLs are never broken).
import type { Row } from './columns.js';
import type { Field, TableColumn, View } from './view-types.js';

const GAP = '  ';

// Terminal cells per character: combining marks and format characters take none, East Asian
// wide and full-width characters and emoji take two, everything else one; a variation selector 16
// makes the character before it an emoji, two wide. Code points, not Intl.Segmenter graphemes:
// a segmenter's first use loads ICU data (some 15 ms), and the error on rare sequences (an emoji
// joined with ZWJ) only makes a line narrower than counted.
const ZERO = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE = /[\p{Emoji_Presentation}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u2E80-\u303E\u3041-\u33FF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;
const cellsOf = (ch: string) => (ch === '\uFE0F' ? 1 : ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1);

/** How many terminal columns a string (without escape sequences) takes. */
function textWidth(s: string): number {
  // eslint-disable-next-line no-control-regex
  if (/^[\x20-\x7e]*$/.test(s)) return s.length;
  let n = 0;
  for (const ch of s) n += cellsOf(ch);
  return n;
}

/** Cut to `width` columns with an ellipsis. */
function cut(s: string, width: number): string {
  if (textWidth(s) <= width) return s;
  if (width <= 1) return width === 1 ? '…' : '';
  let out = '';
  let w = 0;
  for (const ch of s) {
    const n = cellsOf(ch);
    if (w + n > width - 1) break;
    out += ch;
    w += n;
  }
  return `${out.trimEnd()}…`;
}

/**
 * One line of text a terminal cannot be steered by: tabs and line breaks become spaces, and other
 * control characters (an escape sequence in a listing's name) are removed.
 */
// eslint-disable-next-line no-control-regex
const clean = (s: string) => s.replace(/[\t\r\n]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

interface Laid {
  col: TableColumn;
  cells: string[];
  width: number;
}

/** Which columns a list shows, and how wide each is, within `max` terminal columns. */
function layout(columns: TableColumn[], rows: Row[], max: number): Laid[] {
  let set = columns
    .map((col) => {
      const cells = rows.map((r) => clean(col.text(r) ?? ''));
      const header = textWidth(col.header);
      return { col, cells, header, natural: Math.max(header, ...cells.map(textWidth)), width: 0 };
    })
    .filter((c) => c.cells.some((x) => x !== ''));
  const shrinks = (c: (typeof set)[number]) => c.col.min !== undefined && c.col.id !== true;
  for (const c of set) c.width = shrinks(c) ? Math.min(c.natural, Math.max(c.col.min!, c.header)) : c.natural;
  if (!Number.isFinite(max)) {
    for (const c of set) c.width = c.natural;
    return set;
  }
  const total = () => set.reduce((n, c) => n + c.width, 0) + GAP.length * Math.max(0, set.length - 1);
  // Drop the least useful columns until the rest fit with their text at its floor.
  while (total() > max) {
    const droppable = set.filter((c) => c.col.drop !== undefined);
    if (droppable.length === 0) break;
    const least = droppable.reduce((a, b) => (b.col.drop! < a.col.drop! ? b : a));
    set = set.filter((c) => c !== least);
  }
  // Still too wide (a long id on a narrow terminal): text gives up more, down to its header's width.
  let over = total() - max;
  for (const c of set) {
    if (over <= 0) break;
    if (!shrinks(c)) continue;
    const give = Math.max(0, Math.min(over, c.width - Math.max(c.header, 2)));
    c.width -= give;
    over -= give;
  }
  // Width to spare: the text cut the most gets it back first.
  let room = max - total();
  while (room > 0) {
    let most: (typeof set)[number] | undefined;
    for (const c of set) if (c.width < c.natural && (!most || c.natural - c.width > most.natural - most.width)) most = c;
    if (!most) break;
    most.width++;
    room--;
  }
  return set;
}

type Style = (s: string) => string;

const pad = (s: string, width: number, right: boolean, style: Style = (x) => x) => {
  const space = ' '.repeat(Math.max(0, width - textWidth(s)));
  return right ? space + style(s) : style(s) + space;
};

/** A list of rows as a table `max` columns wide (Infinity: every column at its natural width). */
export function renderTable(view: View, max: number, bold: Style): string {
  const cols = layout(view.table, view.rows, max);
  const line = (cell: (c: Laid) => string) => cols.map(cell).join(GAP).trimEnd();
  const lines = [line((c) => pad(cut(c.col.header, c.width), c.width, c.col.align === 'right', bold))];
  for (let i = 0; i < view.rows.length; i++) lines.push(line((c) => pad(cut(c.cells[i]!, c.width), c.width, c.col.align === 'right')));
  return `${lines.join('\n')}\n`;
}

/** Splits a value into lines of at most `width` columns: at spaces, or after the commas of a list. */
function wrap(s: string, width: number, how: Field['wrap'] = 'words'): string[] {
  if (how === 'none' || textWidth(s) <= width) return [s];
  const tokens = how === 'list' ? s.split(/(?<=,) /) : s.split(' ');
  const lines: string[] = [];
  let line = '';
  for (let token of tokens) {
    if (line && textWidth(line) + 1 + textWidth(token) <= width) {
      line = `${line} ${token}`;
      continue;
    }
    if (line) lines.push(line);
    // A word longer than the line is broken where the line ends.
    while (textWidth(token) > width) {
      let head = '';
      for (const g of token) {
        if (textWidth(head + g) > width) break;
        head += g;
      }
      lines.push(head);
      token = token.slice(head.length);
    }
    line = token;
  }
  if (line) lines.push(line);
  return lines;
}

/** A single resource as label/value lines; empty values are left out. */
export function renderFields(view: View, max: number, bold: Style): string {
  const row = view.rows[0] ?? {};
  const shown = view.fields.map((f) => ({ f, value: clean(f.text(row) ?? '') })).filter((x) => x.value !== '');
  const labels = Math.max(0, ...shown.map((x) => textWidth(x.f.label)));
  const width = Math.max(20, max - labels - GAP.length);
  const lines: string[] = [];
  for (const { f, value } of shown) {
    const [first = '', ...rest] = wrap(value, width, f.wrap);
    lines.push(`${pad(f.label, labels, false, bold)}${GAP}${first}`);
    for (const more of rest) lines.push(`${' '.repeat(labels)}${GAP}${more}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
