// The program this run parsed (main.ts sets it), for helpers in _lib that replay a command line
// against its options (select.ts's hint for `--json` that took an argument). Set from above, so
// _lib never imports the command modules that import it.
import type { Command } from 'commander';

let current: Command | undefined;

export function setProgram(program: Command): void {
  current = program;
}

/** The parsed program, or undefined outside a run of main (then no hint is given). */
export const currentProgram = (): Command | undefined => current;
