// `stays mcp` from the sources, for the tests while the command is not yet in the program: a
// program with only this command, run as bin/stays would run it (node --import tsx this file mcp …).
import { Command } from 'commander';
import { defineMcp } from '../../commands/mcp.js';

const program = new Command('stays').exitOverride();
defineMcp(program);
await program.parseAsync(process.argv);
