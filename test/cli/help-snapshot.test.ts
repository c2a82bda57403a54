// House rule 2: `stays --help` is public surface; every command's help is compared with the
// reviewed copy (update with `npx vitest run -u test/cli/help-snapshot.test.ts` and review it).
import { expect, it } from 'vitest';
import { runCli } from '../helpers/stays.js';

const COMMANDS = [
  [],
  ['search'],
  ['listing'],
  ['stay'],
  ['stay', 'get'],
  ['stay', 'batch'],
  ['listings'],
  ['listings', 'superhost'],
  ['price'],
  ['compare'],
  ['availability'],
  ['reviews'],
  ['history'],
  ['history', 'price'],
  ['history', 'calendar'],
  ['history', 'listings'],
  ['history', 'export'],
  ['account'],
  ['auth'],
  ['jobs'],
  ['webhooks'],
  ['webhooks', 'create'],
  ['webhooks', 'verify'],
  ['webhooks', 'listen'],
  ['watch'],
  ['watch', 'add', 'price'],
  ['watch', 'run'],
  ['collect'],
  ['collect', 'create'],
  ['api'],
  ['mcp'],
  ['config'],
  ['serve'],
  ['doctor'],
  ['admin'],
];

// Thirty-five child processes: four at a time (in order in the snapshot), and a bound a loaded
// machine does not reach (alone it takes about 10 s; one at a time under load it once took 30).
it("stays --help and each command's --help match the reviewed snapshot", { timeout: 180_000 }, async () => {
  const pages: string[] = new Array(COMMANDS.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < COMMANDS.length; i = next++) {
      const cmd = COMMANDS[i]!;
      const r = await runCli([...cmd, '--help'], { COLUMNS: '100', NO_COLOR: '1' });
      expect(r.code, `${cmd.join(' ')} --help: ${r.stderr}`).toBe(0);
      pages[i] = `$ stays ${[...cmd, '--help'].join(' ')}\n${r.stdout}`;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await expect(pages.join('\n')).toMatchFileSnapshot('./__snapshots__/help.txt');
});
