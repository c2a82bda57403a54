// The shapes of a rendered result (view.ts builds them; view-stays.ts, table.ts and output.ts read them).
import type { DataColumn, Kind, Row } from './columns.js';

export interface TableColumn {
  header: string;
  text: (r: Row) => string | null;
  /** Numbers are right-aligned. */
  align?: 'right';
  /** Ids are never cut: they are what a user copies into the next command. */
  id?: boolean;
  /** Text that may be cut with an ellipsis, down to this width, before columns are dropped. */
  min?: number;
  /** When the table does not fit, the lowest rank is dropped first; a column without one stays. */
  drop?: number;
}

/** One line of a single resource's key/value view; an empty value leaves the line out. */
export interface Field {
  label: string;
  text: (r: Row) => string | null;
  /** How a value longer than the line wraps: at spaces, after commas, or never (ids, URLs). */
  wrap?: 'words' | 'list' | 'none';
}

export interface View {
  kind: Kind | null;
  rows: Row[];
  /** tsv and csv. */
  data: DataColumn[];
  table: TableColumn[];
  /** A single resource: tables print it as these fields, one a line. */
  fields: Field[];
  single: boolean;
}

/** A view built from a result's data, for a shape no Kind describes (watches, comp sets, market figures). */
export type ViewOf = (data: unknown) => View;

/**
 * What a command passes to the printer (run.ts show and runCall, print.ts printResult): the Kind
 * of its result (columns.ts; view.ts kindView knows where its rows are) or a builder.
 */
export type ViewSpec = Kind | ViewOf;
