// The terminal a command talks to: which streams are TTYs, whether colour is on for each stream,
// whether we may prompt or spin. Decided once per command from the flags and the environment.
import type { ChalkInstance } from 'chalk';
import { io } from './io.js';

export interface Term {
  env: NodeJS.ProcessEnv;
  outTTY: boolean;
  errTTY: boolean;
  inTTY: boolean;
  ci: boolean;
  /** chalk levels (0 = no colour) for stdout and stderr. */
  outColor: 0 | 1 | 2 | 3;
  errColor: 0 | 1 | 2 | 3;
  /** Whether prompts are allowed: stdin and stdout are TTYs, not CI, no --no-input. */
  interactive: boolean;
}

// Same rule as src/config.ts isCI; repeated here because importing that module loads zod, which
// `stays --version` and remote commands must not pay for.
const isCI = (env: NodeJS.ProcessEnv) => Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');

/**
 * Colour for one stream: off for --no-color, NO_COLOR (any non-empty value; chalk does not read
 * it), TERM=dumb and a stream that is not a TTY; else the depth the terminal supports.
 */
function colorLevel(isTTY: boolean, flag: boolean | undefined, env: NodeJS.ProcessEnv): 0 | 1 | 2 | 3 {
  if (flag === false || (env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb' || !isTTY) return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return /-256(color)?$/i.test(env.TERM ?? '') ? 2 : 1;
}

export function makeTerm(opts: { color?: boolean; input?: boolean }, env: NodeJS.ProcessEnv = io().env): Term {
  const { tty } = io();
  const outTTY = tty.stdout;
  const errTTY = tty.stderr;
  const inTTY = tty.stdin;
  const ci = isCI(env);
  return {
    env,
    outTTY,
    errTTY,
    inTTY,
    ci,
    outColor: colorLevel(outTTY, opts.color, env),
    errColor: colorLevel(errTTY, opts.color, env),
    interactive: inTTY && outTTY && !ci && opts.input !== false,
  };
}

/** A chalk instance at a fixed level (chalk's own detection ignores NO_COLOR and our flags). */
export async function chalkAt(level: 0 | 1 | 2 | 3): Promise<ChalkInstance> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}
