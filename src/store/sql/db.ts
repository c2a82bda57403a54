// What the one store implementation (src/store/sql/*) needs of a database engine: statements with
// PostgreSQL-style numbered parameters ($1, $2 …, each usable more than once), transactions, and
// the few fragments of SQL the two engines spell differently. src/store/sqlite/store.ts and
// src/store/postgres/store.ts provide it; every query and every rule is written once, above it.
export type Row = Record<string, unknown>;

/** Runs one statement and returns its rows (an INSERT, UPDATE or DELETE returns rows only with RETURNING). */
export type Query = <R = Row>(sql: string, params?: readonly unknown[]) => Promise<R[]>;

export interface TxOptions {
  /** Ends or refunds work already admitted: retried through database faults for a while (PostgreSQL). */
  must?: boolean;
  /** Background work (heartbeat, sweeps, purges, shutdown): its own connections, never behind request traffic (PostgreSQL). */
  background?: boolean;
  /** `f` sends one statement, atomic by itself: no BEGIN/COMMIT round trips (PostgreSQL). */
  single?: boolean;
}

/** SQL the engines spell differently; each member says what it stands for. */
export interface Dialect {
  /** Row locks for the rest of the transaction: ` FOR UPDATE` (SQLite: '', its write transaction already excludes every other writer). */
  readonly forUpdate: string;
  /** A claim's row locks that skip rows another transaction holds: ` FOR UPDATE OF o SKIP LOCKED` (SQLite: ''). */
  readonly skipLocked: string;
  /** The larger of two values: GREATEST (SQLite's two-argument MAX). */
  readonly greatest: string;
  /** The webhook outbox's insertion order: its `seq` identity column (SQLite: the implicit rowid). */
  readonly outboxOrder: string;
  /** `column` is one of the strings of the JSON array bound to parameter `param` (e.g. '$3'). */
  inJsonList(column: string, param: string): string;
  /**
   * `column` is one of the strings bound to parameter `param` as `list` makes them, whatever the
   * planner knows of the table. PostgreSQL: `= ANY` of a text array, a constant to the planner: an
   * index condition, or a filter that looks each row up in a hash of the list (the form
   * `= ANY(ARRAY(SELECT ...))` compared each row with the whole list: 50-120 ms a batch of 1,000
   * kept summaries, 2.6-12 ms so; the IN form let a fresh, never analyzed listing_summaries be read
   * by a loop over every row for each listing asked). Slower than inJsonList where the planner
   * would hash-join the list against an index-only scan: use it for listing_summaries only.
   */
  anyOfList(column: string, param: string): string;
  /** The value of anyOfList's parameter for these strings (PostgreSQL: an array; SQLite: JSON text). */
  list(values: readonly string[]): unknown;
  /** The integer at `field` of the JSON text in `column`, or NULL. */
  jsonInt(column: string, field: string): string;
  /**
   * Takes the transaction-scoped lock `id` (with `text`, the lock of that text within `id`), waiting
   * for it; `tryOnly`: returns false at once if another holds it. SQLite has one writer at a time:
   * always true.
   */
  lock(q: Query, id: number, o?: { text?: string; tryOnly?: boolean }): Promise<boolean>;
}

export interface Db {
  readonly kind: 'sqlite' | 'postgres';
  readonly sql: Dialect;
  /** One statement on its own (autocommit). */
  query: Query;
  /**
   * One transaction: `f` runs its statements through the `q` it is given (never through `query`,
   * which waits for this transaction on SQLite). `attempt` counts from 1: PostgreSQL runs `f` again
   * after a deadlock, a serialization failure or (`must`) a fault.
   */
  tx<T>(f: (q: Query, attempt: number) => Promise<T>, o?: TxOptions): Promise<T>;
}

/** A value for a JSON text column (undefined: NULL). */
export const jsonText = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));
