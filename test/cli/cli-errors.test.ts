// `stays serve` on a taken port explains it in one sentence with the fix: a real server process
// (the built CLI as a child). The other errors in CLI words (flags named as the command spells
// them, an unquoted location, a refused connection) are cli-errors.inprocess.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, runCli, startStays, tempDir } from '../helpers/stays.js';
describe('serve and remote mode explain the socket', () => {
  let s: Stays;
  beforeAll(async () => {
    s = await startStays();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('a taken port: one sentence with the fix', async () => {
    const port = new URL(s.url).port;
    const r = await runCli(['serve', '--port', port, '--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`stays: port ${port} is in use on 127.0.0.1; pick another with --port or stop the other process`);
  });
});
