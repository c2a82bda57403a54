// `stays auth login` on a real terminal (issue 22, item 21): the built CLI in a pseudo-terminal
// (script(1)) against a real `stays serve` asks for the key without echoing it, then stores it.
// --with-token, refusals, logout and `stays config profiles` are auth-login.inprocess.test.ts's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { freshSandbox } from './helpers.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays();
  a = await s.account({ credits: 500 });
});
afterAll(async () => {
  await s.stop();
});

const profilesOf = (configDir: string) => (JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }).profiles;

describe('stays auth login on a terminal (script(1) pseudo-terminal)', () => {
  it('asks for the key without echoing it, then stores it', async () => {
    const box = freshSandbox();
    const cmd = [process.execPath, BIN, 'auth', 'login', '--base-url', s.url].map((x) => `'${x}'`).join(' ');
    const base = { ...process.env };
    for (const k of ['CI', 'STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_PROFILE']) delete base[k];
    const child = spawn('script', ['-q', '-e', '-c', cmd, '/dev/null'], { env: { ...base, ...box.env, TERM: 'dumb' } });
    let screen = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      screen += d.toString();
      if (!sent && screen.includes('Paste your API key')) {
        sent = true;
        child.stdin.write(`${a.sandboxKey}\r`);
      }
    });
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(code, screen).toBe(0);
    expect(screen).toContain('stored in profile default');
    expect(screen).not.toContain(a.sandboxKey);
    expect(profilesOf(box.configDir).default).toMatchObject({ 'api-key': a.sandboxKey, 'base-url': s.url });
  });
});
