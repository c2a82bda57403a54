// `stays stay batch --file F|-`: the entries of POST /v1/stays/batch from a JSON object
// `{ entries: […] }`, a JSON array of entries (or of bare ids and URLs), or one id or URL a line
// (blank lines and # comments ignored). Checked before any request: more than 50 is a usage error;
// a line the service would refuse is reported by its 1-based number and left out, the others run.
import { readFileSync } from 'node:fs';
import { type StayBatchEntry, isStayUrl } from '../src/client/operations.js';
import { ServiceError } from '../src/core/errors.js';
import { batchEntryId } from '../src/core/stays/entry.js';
import { UsageError } from './_lib/runtime/errors.js';
import type { Term } from './_lib/runtime/term.js';
import { MAX_BATCH_ENTRIES } from '../src/core/limits.js';
import { io } from './_lib/runtime/io.js';

const entryOf = (s: string): StayBatchEntry => (isStayUrl(s) ? { url: s.trim() } : { id: s.trim() });

/** An entry of the file and where it is written: `line 3` (1-based), or `entry 3` of a JSON list. */
export interface FileEntry {
  entry: StayBatchEntry;
  at: string;
}

/**
 * One entry as written in a JSON file: `{id}`, `{url}`, or a bare id or URL (string or number).
 * Anything else passes as written: checkEntries names what is wrong with it, by its number.
 */
function jsonEntry(v: unknown): StayBatchEntry {
  if (typeof v === 'string' && v.trim() !== '') return entryOf(v);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return { id: String(v) };
  return v as StayBatchEntry;
}

/**
 * The entries the service takes and the others, each refusal naming its line (issue 22, item 12):
 * the same check the service makes (batchEntryId), before any request, so one bad line does not
 * refuse the whole batch.
 */
export function checkEntries(entries: FileEntry[]): { good: FileEntry[]; bad: string[] } {
  const good: FileEntry[] = [];
  const bad: string[] = [];
  entries.forEach((e, i) => {
    try {
      batchEntryId(e.entry, i);
      good.push(e);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      bad.push(`${e.at}: ${err.message.replaceAll(`entries[${i}]`, 'the entry')}`);
    }
  });
  return { good, bad };
}

/** The service's `entries[i]` of the entries sent, as the file's line: `line 4 (404): …`. */
export function relabelEntries(text: string, sent: FileEntry[]): string {
  return text.replace(/\bentries\[(\d+)\]/g, (m, i: string) => sent[Number(i)]?.at ?? m);
}

export function parseEntries(text: string): FileEntry[] {
  const trimmed = text.trim();
  let entries: FileEntry[];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (e) {
      throw new UsageError(`--file looks like JSON but does not parse: ${(e as Error).message}`, 'file');
    }
    const list = Array.isArray(doc) ? doc : (doc as { entries?: unknown }).entries;
    if (!Array.isArray(list)) throw new UsageError('--file: a JSON object needs an "entries" array, e.g. {"entries": [{"id": "12345"}]}.', 'file');
    entries = list.map((v, i) => ({ entry: jsonEntry(v), at: `entry ${i + 1}` }));
  } else {
    entries = text.split(/\r?\n/).flatMap((raw, i) => {
      const l = raw.trim();
      return l === '' || l.startsWith('#') ? [] : [{ entry: entryOf(l), at: `line ${i + 1}` }];
    });
  }
  if (entries.length === 0) throw new UsageError('--file holds no entries: give one id or room URL a line, or a JSON array of {"id"} / {"url"} entries.', 'file');
  if (entries.length > MAX_BATCH_ENTRIES) {
    throw new UsageError(`--file holds ${entries.length} entries; a batch takes at most ${MAX_BATCH_ENTRIES}. Split the file (e.g. split -l ${MAX_BATCH_ENTRIES}) and run one batch per part.`, 'file');
  }
  return entries;
}

/** The text of --file: a path, or - for stdin. */
export async function readEntriesFile(file: string, term: Pick<Term, 'inTTY'>): Promise<string> {
  if (file !== '-') {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`--file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}.`, 'file');
    }
  }
  if (term.inTTY) throw new UsageError('--file - reads the entries on stdin: stays stay batch --file - < entries.txt', 'file');
  const chunks: Buffer[] = [];
  for await (const chunk of io().stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
