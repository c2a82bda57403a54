// Asking for a missing required argument: only when stdin and stdout are TTYs, outside CI and
// without --no-input; otherwise a usage error (exit 2) that names what is missing.
import { UsageError } from './errors.js';
import type { Term } from './term.js';

export interface Ask {
  /** As written in usage: LOCATION, PLATFORM… */
  name: string;
  message: string;
  choices?: readonly string[];
  usage: string;
}

export async function ask(term: Term, value: string | undefined, q: Ask): Promise<string> {
  if (value !== undefined && value !== '') return value;
  if (!term.interactive) throw new UsageError(`Missing ${q.name}. Usage: ${q.usage}`, q.name.toLowerCase());
  const { input, select } = await import('@inquirer/prompts');
  if (q.choices) return select({ message: q.message, choices: q.choices.map((c) => ({ value: c, name: c })) });
  return input({ message: q.message, validate: (v) => (v.trim() ? true : `${q.name} is required`) });
}
