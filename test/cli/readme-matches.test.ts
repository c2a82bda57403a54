// README.md's "The same place across platforms", run verbatim: every `stays …` line of its sh block
// through bash, with `stays` on PATH as the built CLI, on a fresh machine (a local sandbox key):
// free and deterministic, each exits 0 with output on stdout.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stays.js';
import { bash, freshSandbox, pathWithStays } from './helpers.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function section(title: string): string[] {
  const start = README.indexOf(`### ${title}\n`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const end = README.indexOf('\n#', start + 4);
  const body = README.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => l.trim() && !l.startsWith('#'));
}

describe('README: the same place across platforms, verbatim', () => {
  const lines = section('The same place across platforms');

  it('every line runs on a fresh machine (the sandbox world) and exits 0 with output', async () => {
    expect(lines.filter((l) => l.startsWith('stays match') || l.startsWith('stays compare')).length).toBeGreaterThanOrEqual(5);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    const out: string[] = [];
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
      out.push(r.stdout);
    }
    // The pin shows in the match read after it, first, score 1; compare has the listing and its two twins.
    const csv = out[lines.findIndex((l) => l.includes('-o csv'))]!.split('\n');
    expect(csv[1]).toMatch(/^vrbo,90629595783,.*,1,true,pinned,/);
    const compared = out.at(-1)!;
    for (const id of ['62959578', '90629595781', 'a62959578']) expect(compared).toContain(id);
  }, 120_000);
});
