// Parquet files (issue 38, item 8): the csv columns of a kind as typed Parquet columns, written a
// row group at a time as rows arrive (at most ROW_GROUP_ROWS rows and one encoded group in memory),
// into a temp directory beside the target and renamed into place once the footer is written, so a
// failed export leaves no file, not a half one. `--out -` streams to a pipe instead (refused on a
// terminal): there a failure leaves a file without its footer, which every reader refuses.
// hyparquet-writer encodes (Snappy, statistics); the types are chosen here (docs/decisions.md).
import { closeSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ParquetWriter, SchemaElement, Writer } from 'hyparquet-writer';
import { DATA_COLUMNS, type DataColumn, type Row } from './columns.js';
import { UsageError } from '../runtime/errors.js';
import { io } from '../runtime/io.js';

type ColumnType = 'string' | 'timestamp' | 'int64';

/** A csv column with its Parquet type; nullable columns are OPTIONAL, the others REQUIRED. */
interface ParquetColumn extends DataColumn {
  type: ColumnType;
  nullable: boolean;
}

/**
 * The observation columns' types, by csv header. value stays the JSON text it is in the csv: a
 * string column every reader takes as it is (DuckDB's JSON type and pandas' arrow extension for
 * Parquet's JSON annotation vary with their versions). Timestamps are UTC instants in milliseconds.
 */
const OBSERVATION_TYPES: Record<string, { type: ColumnType; nullable: boolean }> = {
  platform: { type: 'string', nullable: false },
  listing_id: { type: 'string', nullable: false },
  kind: { type: 'string', nullable: false },
  key: { type: 'string', nullable: false },
  currency: { type: 'string', nullable: true },
  value: { type: 'string', nullable: true },
  source: { type: 'string', nullable: false },
  first_seen: { type: 'timestamp', nullable: false },
  last_seen: { type: 'timestamp', nullable: false },
  times_seen: { type: 'int64', nullable: false },
};

/** The observation export's columns: the csv's, in its order, each with its type. */
export function observationColumns(): ParquetColumn[] {
  return DATA_COLUMNS.observation.map((c) => {
    const t = OBSERVATION_TYPES[c.key];
    if (!t) throw new Error(`parquet: no type for the observation column ${c.key}`);
    return { ...c, ...t };
  });
}

const ELEMENT: Record<ColumnType, Omit<SchemaElement, 'name'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  timestamp: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } },
  int64: { type: 'INT64' },
};

function schemaOf(columns: ParquetColumn[]): SchemaElement[] {
  return [{ name: 'schema', num_children: columns.length }, ...columns.map((c): SchemaElement => ({ name: c.key, ...ELEMENT[c.type], repetition_type: c.nullable ? 'OPTIONAL' : 'REQUIRED' }))];
}

/** A cell as its column's type holds it; a row that breaks the schema is an error, not a null. */
function cell(c: ParquetColumn, r: Row): string | bigint | null {
  const v = c.value(r);
  if (v === null || v === undefined) {
    if (c.nullable) return null;
    throw new Error(`parquet: an observation without ${c.key} (${JSON.stringify(r).slice(0, 200)})`);
  }
  if (c.type === 'string') return String(v);
  const n = c.type === 'timestamp' ? Date.parse(String(v)) : Number(v);
  if (!Number.isSafeInteger(n)) throw new Error(`parquet: ${c.key} is not ${c.type === 'timestamp' ? 'an instant' : 'an integer'}: ${JSON.stringify(v)}`);
  return BigInt(n);
}

/** Rows per row group: the most held in memory before they are encoded and written. */
const ROW_GROUP_ROWS = 10_000;
/** Encoded bytes kept before they go to the file or pipe. */
const SPILL_BYTES = 1 << 20;

interface Target {
  /** Takes a copy when it keeps the bytes past the call (the writer reuses its buffer). */
  write(bytes: Uint8Array): void;
  /** Resolves once the destination took what was written (a pipe's buffer drained). */
  drained(): Promise<void>;
  /** The footer is written: make the file whole (rename it into place). */
  commit(): void;
  /** Failed: leave nothing behind. */
  discard(): void;
}

/**
 * A temp directory beside `out` (same file system, so the rename is atomic), opened before any
 * row is read: a path that cannot be written is a usage error found before the first request.
 */
function fileTarget(out: string): Target {
  const path = resolve(out);
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {}
  if (isDir) throw new UsageError(`--out ${out} is a directory: name the file to write, e.g. --out ${join(out, 'observations.parquet')}.`, 'out');
  let dir: string;
  try {
    dir = mkdtempSync(join(dirname(path), `.${basename(path)}-`));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : (e as Error).message;
    throw new UsageError(`--out ${out}: cannot write in ${dirname(path)} (${why}).`, 'out');
  }
  const temp = join(dir, basename(path));
  let fd: number;
  try {
    fd = openSync(temp, 'wx');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  const discard = () => {
    close();
    rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C ends the process (commands/_lib/runtime/run.ts): the temp directory goes with it.
  process.once('exit', discard);
  return {
    write(bytes) {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    },
    drained: async () => {},
    commit() {
      close();
      renameSync(temp, path);
      process.off('exit', discard);
      rmSync(dir, { recursive: true, force: true });
    },
    discard() {
      process.off('exit', discard);
      discard();
    },
  };
}

/** stdout, when it is a pipe or a file: waits for a slow reader instead of piling up bytes. */
function stdoutTarget(): Target {
  const out = io().stdout;
  let full = false;
  return {
    write(bytes) {
      if (!out.write(Buffer.from(bytes))) full = true;
    },
    drained: () => {
      if (!full) return Promise.resolve();
      full = false;
      return new Promise((r) => out.once('drain', () => r()));
    },
    commit() {},
    discard() {},
  };
}

/** A ByteWriter that hands its bytes to the target past SPILL_BYTES and after each row group. */
function targetWriter(ByteWriter: typeof import('hyparquet-writer').ByteWriter, target: Target): Writer {
  const w = new ByteWriter(1 << 16);
  const grow = w.ensure.bind(w);
  const spill = () => {
    if (w.index > 0) target.write(new Uint8Array(w.buffer, 0, w.index));
    w.index = 0;
  };
  w.ensure = (size: number) => {
    if (w.index > SPILL_BYTES) spill();
    grow(size);
  };
  return Object.assign(w, {
    flush: () => {
      spill();
      return target.drained();
    },
    finish: () => {
      spill();
      return target.drained();
    },
  });
}

export interface ParquetOut {
  /** Adds rows; a full row group is encoded and written before it resolves. */
  add(rows: Row[]): Promise<void>;
  /** Writes what is left and the footer, then puts the file in place. */
  close(): Promise<void>;
  /** Stops without a file (the temp directory removed). */
  abort(): void;
}

/**
 * A Parquet file of `columns` at `out` (`-`: stdout, refused on a terminal). `outTTY` is the
 * terminal's answer, as the context has it.
 */
export async function openParquet(out: string, columns: ParquetColumn[], outTTY: boolean, rowGroupRows = ROW_GROUP_ROWS): Promise<ParquetOut> {
  if (out === '-' && outTTY) throw new UsageError('--out - writes Parquet to stdout, which is a terminal: give a file (--out observations.parquet) or pipe it.', 'out');
  const { ByteWriter, ParquetWriter } = await import('hyparquet-writer');
  const target = out === '-' ? stdoutTarget() : fileTarget(out);
  let writer: ParquetWriter;
  try {
    writer = new ParquetWriter({ writer: targetWriter(ByteWriter, target), schema: schemaOf(columns), createdBy: 'stays (hyparquet-writer)' });
  } catch (e) {
    target.discard();
    throw e;
  }
  let held: Row[] = [];
  const flush = async (rows: Row[]) => {
    if (rows.length === 0) return;
    const columnData = columns.map((c) => ({ name: c.key, data: rows.map((r) => cell(c, r)) }));
    await writer.write({ columnData, rowGroupSize: rows.length });
  };
  const guarded = async (f: () => Promise<void>) => {
    try {
      await f();
    } catch (e) {
      target.discard();
      throw e;
    }
  };
  return {
    add: (rows) =>
      guarded(async () => {
        held.push(...rows);
        while (held.length >= rowGroupRows) {
          const group = held.slice(0, rowGroupRows);
          held = held.slice(rowGroupRows);
          await flush(group);
        }
      }),
    close: () =>
      guarded(async () => {
        await flush(held);
        held = [];
        await writer.finish();
        target.commit();
      }),
    abort: () => target.discard(),
  };
}
