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
  ['api'],
  ['mcp'],
  ['config'],
  ['serve'],
  ['doctor'],
  ['admin'],
];

it("stays --help and each command's --help match the reviewed snapshot", async () => {
  const pages: string[] = [];
  for (const cmd of COMMANDS) {
    const r = await runCli([...cmd, '--help'], { COLUMNS: '100', NO_COLOR: '1' });
    expect(r.code, `${cmd.join(' ')} --help: ${r.stderr}`).toBe(0);
    pages.push(`$ stays ${[...cmd, '--help'].join(' ')}\n${r.stdout}`);
  }
  await expect(pages.join('\n')).toMatchFileSnapshot('./__snapshots__/help.txt');
});
