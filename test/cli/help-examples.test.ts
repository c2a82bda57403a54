// Every example in a command's --help runs (issue 22, item 8): each `Examples:` line that can run
// offline goes through bash, verbatim, with `stays` on PATH as the built CLI, in-process on a fresh
// machine (sandbox data), and exits 0 (or the code its `# exit N` comment names); a jq filter in it picks something other than null. The rest are
// listed below with why they cannot run here; a new example must be one or the other, so none is
// left unchecked. (`stays webhooks listen`'s, which runs until stopped, has its own test in
// webhooks-listen-example.test.ts.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../commands/program.js';
import { tempDir } from '../helpers/stays.js';
import { bash, freshSandbox, pathWithStays } from './helpers.js';

/** Examples that cannot run offline on a fresh machine, and why. */
const CANNOT_RUN: [RegExp, string][] = [
  [/…/, 'a placeholder (… stands for an id, a key or a signature)'],
  [/_01J8ZK4R2ABCDEF0123456789A/, 'a placeholder job or webhook id'],
  [/STAYS_BASE_URL=|--base-url /, 'needs a running server'],
  [/\bstays serve\b/, 'runs a server until stopped'],
  [/\bstays doctor\b/, 'checks the upstream of live keys: exit 7 on a machine without one (issue 22, item 3)'],
  [/^stays mcp\b|inspector stays mcp/, 'an MCP server on stdio, until stopped'],
  [/^curl /, 'a request to a running server'],
  [/stays collect (run|status)\b/, "makes whole passes of the examples' collections (a sandbox city's thousands of listings, minutes): collect-run.test.ts runs them on a small box"],
  [/^stays market --collection /, 'needs a collection whose discovery ran (collect-run.test.ts)'],
  [/^stays history export .*--collection /, 'needs a collection whose pass ran (collect-run.test.ts exports one)'],
  [/^duckdb /, 'needs DuckDB, which the test machine need not have (history-parquet.test.ts reads the file with it when it is there)'],
  [/^stays webhooks listen\b/, 'runs until stopped (webhooks-listen-example.test.ts runs the piped one)'],
  [/--profile prod\b/, 'needs a configured profile named prod'],
  [/^stays market --compset "Alfama 2BR" --from 2027-06-01/, "needs the comp set stays compset's examples create (they run it after creating it)"],
  [/^stays collect create near-home --compset "Alfama 2BR"/, "needs the comp set stays compset's examples create and then delete"],
];

interface Example {
  command: string;
  line: string;
}

/** The example lines of every command's help: indented lines after an `Examples:` heading, up to a blank line. */
async function examples(): Promise<Example[]> {
  const out: Example[] = [];
  const walk = (cmd: Command, path: string[]) => {
    let text = '';
    cmd.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
    cmd.outputHelp();
    let inExamples = false;
    for (const raw of text.split('\n')) {
      if (/^Examples?\b.*:$/.test(raw)) inExamples = true;
      else if (raw.trim() === '') inExamples = false;
      else if (inExamples && raw.startsWith('  ')) out.push({ command: ['stays', ...path].join(' '), line: raw.trim() });
    }
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(await buildProgram(), []);
  return out;
}

const all = await examples();
const why = (line: string) => CANNOT_RUN.find(([re]) => re.test(line))?.[1];
// The same example under several commands (an alias, a shared preset help) runs once.
const runnable = [...new Map(all.filter((e) => why(e.line) === undefined).map((e) => [e.line, e])).values()];

describe('help examples', () => {
  it('are found in the help of the commands (and most run offline)', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(runnable.length).toBeGreaterThan(35);
    expect(all.some((e) => e.command === 'stays webhooks listen')).toBe(true);
  });

  it('every one that can run offline runs, verbatim, and exits as it says', async () => {
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    // The files the examples read.
    writeFileSync(join(work, 'ids.txt'), '12345678\nhttps://www.airbnb.com/rooms/87654321\n');
    writeFileSync(join(work, 'entries.json'), JSON.stringify([{ id: '12345678' }, { url: 'https://www.airbnb.com/rooms/87654321' }]));
    const env = { ...box.env, PATH: pathWithStays() };
    const failures: string[] = [];
    for (const { command, line } of runnable) {
      const r = await bash(line, env, work);
      const expected = Number(/#\s*exit (\d+)/.exec(line)?.[1] ?? 0);
      if (r.code !== expected) failures.push(`${command}: ${line}\n  exit ${r.code} (expected ${expected}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      // A jq filter that picks a field the output does not have prints null (`.data.jobId` where
      // the field is `data.job_id`): the example is wrong.
      else if (/\| jq /.test(line) && /(^|[^\w"])null\b/.test(r.stdout)) failures.push(`${command}: ${line}\n  jq printed null: ${r.stdout.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  }, 900_000);
});
