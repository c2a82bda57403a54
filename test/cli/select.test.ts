// --jq on a real terminal (a pseudo-terminal, script(1)): JSON values indented, strings raw, as gh
// prints them. Everything else of --json FIELDS and --jq (fields checked before any request, jq
// itself, piped output) is select.inprocess.test.ts's, the CLI run in this process.
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

let box: Sandbox;
const run = (...args: string[]) => stays(args, box.env);
beforeAll(async () => {
  box = freshSandbox();
  await run('account'); // provision the local key once
});

/** stdout on a pseudo-terminal (`script`, as test/cli/tty.test.ts), carriage returns dropped. */
function onTty(args: string[]): Promise<string> {
  const line = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env: NodeJS.ProcessEnv = { ...process.env, ...box.env, TERM: 'xterm-256color' };
  for (const k of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'STAYS_BASE_URL', 'STAYS_API_KEY']) delete env[k];
  const child = spawn('script', ['-q', '-e', '-c', line, '/dev/null'], { env });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
  child.stdin.end();
  return new Promise((r) => child.once('close', () => r(screen.replace(/\r/g, ''))));
}

describe('--jq EXPR', () => {
  it('on a terminal, JSON values are indented and strings stay raw', async () => {
    const screen = await onTty(['search', 'Lisbon', '--limit', '1', '--platforms', 'booking', '--jq', '.data[0] | {name, platform}, .platform']);
    expect(screen).toMatch(/^\{\n {2}"name": ".+",\n {2}"platform": "booking"\n\}\nbooking\n$/);
    const fields = await onTty(['account', '--json', 'plan']);
    expect(fields).toMatch(/^\{\n {2}"plan": \{\n {4}"code": "free",/);
  });
});
