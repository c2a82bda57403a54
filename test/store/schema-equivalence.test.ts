// The two stores' schemas after every migration are one schema (issue 24): the same tables, the
// same columns (name, kind of type, nullability, default), the same indexes (columns, uniqueness)
// and the same foreign keys and CHECK constraints. What only a shared store has (rate buckets,
// flights) and the bookkeeping of each engine are named below; every other difference fails.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { backings, pgKind, sqliteKind } from './stores.js';

/** Tables only the PostgreSQL store has: state instances share (docs/decisions.md). */
const PG_ONLY = new Set(['rate_buckets', 'flights', 'oauth_registrations']);
/** Columns only PostgreSQL needs: SQLite orders the outbox by its implicit rowid. */
const PG_ONLY_COLUMNS = new Set(['webhook_outbox.seq']);
/** Each engine's own bookkeeping. */
const BOOKKEEPING = new Set(['schema_migrations', 'sqlite_sequence']);

interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
}
interface Schema {
  tables: Record<string, Record<string, Column>>;
  indexes: Record<string, { table: string; columns: string[]; unique: boolean }>;
  foreignKeys: string[];
  checks: string[];
}

/** A declared type as what it holds: SQLite's affinity names and PostgreSQL's sized integers differ only in width. */
function kindOf(declared: string): string {
  const t = declared.toLowerCase();
  if (/int/.test(t)) return 'integer';
  if (/char|text|clob/.test(t)) return 'text';
  if (/real|double|float|numeric/.test(t)) return 'real';
  if (/blob|bytea/.test(t)) return 'blob';
  return t;
}

/** A default or CHECK as text, without the casts, quoting and parentheses each engine adds. */
function normalized(sql: string | null): string | null {
  if (sql === null) return null;
  return sql
    .replace(/::[a-z ]+(\[\])?/gi, '')
    .replace(/["()]/g, '')
    .replace(/\bARRAY\[(.*?)\]/gi, '$1')
    .replace(/\s*=\s*ANY\s*/gi, ' IN ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function sqliteSchema(file: string): Schema {
  const db = new Database(file, { readonly: true });
  try {
    const s: Schema = { tables: {}, indexes: {}, foreignKeys: [], checks: [] };
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[];
    for (const { name, sql } of tables) {
      if (BOOKKEEPING.has(name)) continue;
      s.tables[name] = {};
      for (const c of db.prepare(`PRAGMA table_xinfo(${name})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[]) {
        s.tables[name][c.name] = { type: kindOf(c.type), notNull: c.notnull === 1 || c.pk > 0, default: normalized(c.dflt_value) };
      }
      for (const idx of db.prepare(`PRAGMA index_list(${name})`).all() as { name: string; unique: number; origin: string }[]) {
        if (idx.origin === 'pk') continue;
        const columns = (db.prepare(`PRAGMA index_info(${JSON.stringify(idx.name)})`).all() as { name: string }[]).map((c) => c.name);
        // Unnamed UNIQUE constraints get engine-chosen index names: keyed by table and columns.
        const key = idx.origin === 'u' ? `${name}(${columns.join(',')}) unique` : idx.name;
        s.indexes[key] = { table: name, columns, unique: idx.unique === 1 };
      }
      for (const fk of db.prepare(`PRAGMA foreign_key_list(${name})`).all() as { table: string; from: string; to: string | null; on_delete: string }[]) {
        s.foreignKeys.push(`${name}.${fk.from} -> ${fk.table}.${fk.to ?? 'id'} on delete ${fk.on_delete.toLowerCase()}`);
      }
      for (const m of sql.matchAll(/CHECK\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/gi)) s.checks.push(`${name}: ${normalized(m[1]!)}`);
    }
    return s;
  } finally {
    db.close();
  }
}

async function pgSchema(url: string): Promise<Schema> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const s: Schema = { tables: {}, indexes: {}, foreignKeys: [], checks: [] };
    const cols = await c.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null; is_identity: string }>(
      "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    );
    for (const r of cols.rows) {
      if (BOOKKEEPING.has(r.table_name)) continue;
      (s.tables[r.table_name] ??= {})[r.column_name] = { type: kindOf(r.data_type), notNull: r.is_nullable === 'NO', default: normalized(r.column_default) };
    }
    const idx = await c.query<{ table: string; name: string; columns: string[]; unique: boolean; primary: boolean; constraint: boolean }>(`
      SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
             EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = ix.indexrelid AND k.contype = 'u') AS constraint,
             ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns
      FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public'`);
    for (const r of idx.rows) {
      if (r.primary || BOOKKEEPING.has(r.table)) continue;
      const key = r.constraint ? `${r.table}(${r.columns.join(',')}) unique` : r.name;
      s.indexes[key] = { table: r.table, columns: r.columns, unique: r.unique };
    }
    const cons = await c.query<{ table: string; type: string; def: string }>(`
      SELECT t.relname AS table, k.contype AS type, pg_get_constraintdef(k.oid) AS def
      FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND k.contype IN ('f', 'c')`);
    for (const r of cons.rows) {
      if (BOOKKEEPING.has(r.table)) continue;
      if (r.type === 'c') {
        s.checks.push(`${r.table}: ${normalized(r.def.replace(/^CHECK\s*/i, ''))}`);
        continue;
      }
      const m = /^FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)(?: ON DELETE (\w+(?: \w+)?))?/i.exec(r.def);
      if (m) s.foreignKeys.push(`${r.table}.${m[1]} -> ${m[2]}.${m[3]} on delete ${(m[4] ?? 'no action').toLowerCase()}`);
      else s.foreignKeys.push(`${r.table}: ${r.def}`);
    }
    return s;
  } finally {
    await c.end();
  }
}

/** PostgreSQL's schema without what only it has. */
function shared(s: Schema): Schema {
  const onlyPg = (table: string) => PG_ONLY.has(table);
  return {
    tables: Object.fromEntries(
      Object.entries(s.tables)
        .filter(([t]) => !onlyPg(t))
        .map(([t, cols]) => [t, Object.fromEntries(Object.entries(cols).filter(([c]) => !PG_ONLY_COLUMNS.has(`${t}.${c}`)))]),
    ),
    indexes: Object.fromEntries(Object.entries(s.indexes).filter(([, i]) => !onlyPg(i.table))),
    foreignKeys: s.foreignKeys.filter((f) => !onlyPg(f.split(/[.:]/)[0]!)),
    checks: s.checks.filter((k) => !onlyPg(k.split(':')[0]!)),
  };
}

describe.skipIf(!pgKind.available)('the SQLite and PostgreSQL schemas', () => {
  const lite = backings(sqliteKind);
  const pgs = backings(pgKind);
  afterEach(async () => {
    await lite.cleanup();
    await pgs.cleanup();
  });

  it('are one schema after every migration: tables, columns, indexes, foreign keys, checks', async () => {
    const l = await lite.fresh();
    const p = await pgs.fresh();
    await l.open().ready();
    await p.open().ready();
    const a = sqliteSchema(l.where);
    const b = shared(await pgSchema(p.where));
    expect(Object.keys(b.tables).sort()).toEqual(Object.keys(a.tables).sort());
    for (const t of Object.keys(a.tables)) expect(b.tables[t], t).toEqual(a.tables[t]);
    expect(b.indexes).toEqual(a.indexes);
    expect(b.foreignKeys.sort()).toEqual(a.foreignKeys.sort());
    expect(b.checks.sort()).toEqual(a.checks.sort());
    // The comparison saw the schema, not an empty one.
    expect(Object.keys(a.tables).length).toBeGreaterThan(10);
    expect(a.checks.length).toBeGreaterThan(5);
  });
});
