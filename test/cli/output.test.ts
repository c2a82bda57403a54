// Output stream rules only a real process shows: `| head -1` ends quietly (EPIPE), and FORCE_COLOR
// in the process's environment colours no pipe. The formats themselves (tsv, json, jsonl, csv,
// tables, --all, conflicting output flags) are output.inprocess.test.ts's, run in this process.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { ANSI, type Sandbox, freshSandbox, stays } from './helpers.js';

let box: Sandbox;
const run = (...args: string[]) => stays(args, box.env);
beforeAll(async () => {
  box = freshSandbox();
  await run('account'); // provision once
});

describe('output', () => {
  it('FORCE_COLOR does not colour a pipe; NO_COLOR and --no-color keep it plain', async () => {
    for (const env of [{ FORCE_COLOR: '3' }, { NO_COLOR: '1' }]) {
      const r = await stays(['search', 'Lisbon', '--limit', '1', '-o', 'table'], { ...box.env, ...env });
      expect(r.stdout).not.toMatch(ANSI);
      expect(r.stderr).not.toMatch(ANSI);
    }
  });

  it('`stays … | head -1` exits quietly (EPIPE)', async () => {
    const sh = promisify(execFile);
    const cmd = `"${process.execPath}" "${BIN}" search Lisbon --limit 40 --all -o jsonl | head -1; echo "status=\${PIPESTATUS[0]}" >&2`;
    const r = await sh('bash', ['-c', cmd], { env: { ...process.env, ...box.env } });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toBe('status=0');
  });
});
