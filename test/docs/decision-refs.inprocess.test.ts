// The repository stands alone (issue 24, item 4): every decision number the code, tests, scripts
// and docs cite (D1, D2…) has an entry in docs/decisions.md, in the section "The specification's
// resolutions", so a clone without the specification beside it can still read what was decided.
// Pure file reading: no build, no server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SCANNED_DIRS = ['src', 'commands', 'bin', 'scripts', 'test', 'bench'];
const SCANNED_FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const SECTION = "## The specification's resolutions";

/** A decision number: a capital D then one or two digits, standing alone ("D5", "(D26;", "D18's", "D1–D4"). */
const CITATION = /\bD(\d{1,2})\b/g;
/** An entry of the section: a list item that starts with its bold label, "- **D5.** …". */
const ENTRY = /^- \*\*D(\d{1,2})\.\*\*/gm;

function filesUnder(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).map((f) => join(dir, f)).filter((f) => statSync(join(ROOT, f)).isFile());
}

function scanned(): { path: string; text: string }[] {
  return [...SCANNED_DIRS.flatMap(filesUnder), ...SCANNED_FILES].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

/** Each cited number with the first place that cites it ("src/core/billing.ts:25"). */
function citations(): Map<number, string> {
  const cited = new Map<number, string>();
  for (const { path, text } of scanned()) {
    text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(CITATION)) {
        const n = Number(m[1]);
        if (!cited.has(n)) cited.set(n, `${path}:${i + 1}`);
      }
    });
  }
  return cited;
}

function section(): string {
  const doc = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');
  const start = doc.indexOf(`\n${SECTION}`);
  if (start < 0) return '';
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

function entries(): number[] {
  return [...section().matchAll(ENTRY)].map((m) => Number(m[1]));
}

describe('decision numbers cited in the repository (issue 24, item 4)', () => {
  it('the citation pattern finds decision numbers and nothing else', () => {
    const found = (s: string) => [...s.matchAll(CITATION)].map((m) => Number(m[1]));
    expect(found("// D5 worst case; (D26; sandbox keys 0); D18's job shape; D1–D4; D17/D18.")).toEqual([5, 26, 18, 1, 4, 17, 18]);
    expect(found('0xD1 3D D100 ID5 D5x d5 DECISIONS_D2 Dx')).toEqual([]);
  });

  it('docs/decisions.md has the section, its entries in order, each number once', () => {
    const list = entries();
    expect(section(), `docs/decisions.md lacks a section starting "${SECTION}"`).not.toBe('');
    expect(list.length).toBeGreaterThan(0);
    expect(list).toEqual(list.map((_, i) => i + 1));
  });

  it('every decision number cited in src, commands, bin, scripts, test, bench, README.md and docs has an entry', () => {
    const cited = citations();
    expect(cited.size).toBeGreaterThan(0);
    const have = new Set(entries());
    const missing = [...cited].filter(([n]) => !have.has(n)).map(([n, at]) => `D${n} (cited at ${at})`);
    expect(missing, 'decision numbers without an entry in docs/decisions.md').toEqual([]);
  });

  it("nothing points readers at the specification repository's decisions file, which users' clones lack", () => {
    const self = relative(ROOT, import.meta.filename);
    const outside = /(?:\.\.\/)?shared\/spec\/DECISIONS\.md/;
    const pointing = scanned()
      .filter(({ path, text }) => path !== self && outside.test(text))
      .map(({ path }) => path);
    expect(pointing).toEqual([]);
  });
});
