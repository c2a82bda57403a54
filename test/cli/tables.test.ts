// Tables on a real pseudo-terminal (script(1), as tty.test.ts) that does not say its width (0
// columns): taken as 80, every line fits. The tables at given widths (ids whole, price columns,
// alignment, ratings, `stays listing`, compare's footer) are tables.inprocess.test.ts's, run in
// this process with stdout a terminal of that width.
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;
const segmenter = new Intl.Segmenter();
/** Terminal columns of a line of the sandbox's text (no wide characters in it). */
const width = (line: string) => [...segmenter.segment(line)].length;

/**
 * Runs the CLI with stdout on a pseudo-terminal `cols` wide (stderr goes elsewhere: the table
 * alone) and returns its lines without escape sequences.
 */
function onTty(args: string[], env: NodeJS.ProcessEnv, cols: number): Promise<{ code: number | null; lines: string[]; raw: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const base = { ...process.env };
  for (const k of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'STAYS_BASE_URL', 'STAYS_API_KEY', 'COLUMNS']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', `stty cols ${cols} rows 50; ${quoted} 2>/dev/null`, '/dev/null'], { env: { ...base, TERM: 'xterm-256color', ...env } });
  let raw = '';
  child.stdout.on('data', (d: Buffer) => (raw += d.toString()));
  child.stdin.end();
  return new Promise((r) =>
    child.once('close', (code) =>
      r({
        code,
        raw,
        lines: raw
          .replace(ESCAPES, '')
          .split(/\r?\n/)
          .filter((l) => l.trim() !== ''),
      }),
    ),
  );
}

let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  await stays(['account'], box.env); // provision once
});

const fits = (lines: string[], cols: number) => {
  for (const l of lines) expect(width(l), `${width(l)} > ${cols}: ${l}`).toBeLessThanOrEqual(cols);
};

describe('search tables fit the terminal', () => {
  it('a terminal that does not say its width is taken as 80 columns', async () => {
    const { code, lines } = await onTty(['search', 'Lisbon'], box.env, 0);
    expect(code).toBe(0);
    fits(lines, 80);
    expect(lines[0]).toMatch(/LISTING ID$/);
  });
});
