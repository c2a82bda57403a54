// Asking for a missing required argument: only when stdin and stdout are TTYs, outside CI and
// without --no-input; otherwise a usage error (exit 2) that names what is missing. Dates are
// checked as they are typed, so a typo is fixed at the prompt rather than refused by the API
// after every other question. Ctrl-C at a prompt rejects with inquirer's ExitPromptError, which
// errors.ts turns into a quiet exit 130.
import { UsageError } from './errors.js';
import { io } from './io.js';
import type { Term } from './term.js';

export interface Ask {
  /** As written in usage: LOCATION, PLATFORM, --check-in… */
  name: string;
  message: string;
  choices?: readonly string[];
  usage: string;
  /**
   * For the second date of a pair (--check-out, --end-date): the first one's value, which the
   * answer must come after. Ignored when it is not a date itself (the API then says what is wrong).
   */
  after?: string;
  /** An extra check of the typed answer: true, or what is wrong with it. */
  validate?: (value: string) => true | string;
  /** A date before today is fine: the history reads ask about past stays and nights too. */
  past?: boolean;
}

/** Prompted names that take a date, and the flag a second date must come after. */
const DATE_NAMES: Record<string, { after?: string }> = {
  '--check-in': {},
  '--check-out': { after: '--check-in' },
  '--start-date': {},
  '--end-date': { after: '--start-date' },
};

const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/**
 * The checks the API makes of one date (src/core/schemas/fields.ts date(), validate.ts
 * checkDatePair): YYYY-MM-DD, a calendar date, not before today (UTC), after its pair's first date.
 */
function checkDate(name: string, value: string, after?: string, past = false, today = new Date().toISOString().slice(0, 10)): true | string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${name} is a date in YYYY-MM-DD form, e.g. ${today}`;
  if (!isCalendarDate(value)) return `${value} is not a calendar date`;
  if (!past && value < today) return `${value} is in the past (today is ${today} UTC)`;
  const first = DATE_NAMES[name]?.after;
  if (first && after !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(after) && isCalendarDate(after) && value <= after) {
    return `${name} must be after ${first} (${after})`;
  }
  return true;
}

export async function ask(term: Term, value: string | undefined, q: Ask): Promise<string> {
  if (value !== undefined && value !== '') return value;
  if (!term.interactive) throw new UsageError(`Missing ${q.name}. Usage: ${q.usage}`, q.name.toLowerCase());
  const { input, select } = await import('@inquirer/prompts');
  // The command's terminal (inquirer's defaults are process.stdin and process.stdout).
  const context = { input: io().stdin, output: io().stdout };
  if (q.choices) return select({ message: q.message, choices: q.choices.map((c) => ({ value: c, name: c })) }, context);
  const isDate = q.name in DATE_NAMES;
  const answer = await input(
    {
      message: q.message,
      validate: (raw) => {
        const v = raw.trim();
        if (!v) return `${q.name} is required`;
        const date = isDate ? checkDate(q.name, v, q.after, q.past) : true;
        if (date !== true) return date;
        return q.validate ? q.validate(v) : true;
      },
    },
    context,
  );
  return answer.trim();
}
