/**
 * The `sessions.db` schema and connection settings. The DDL is the Python flower's, byte for byte
 * (docs/session-stores.md, decisions.md D1), so a database written by either implementation opens in the
 * other. Do not reformat the SQL strings: SQLite keeps the statement text in `sqlite_master`, and tests
 * compare it.
 *
 * @module
 */
import type { SqliteConnection } from './sqlite-driver.js';

/**
 * One `CREATE … IF NOT EXISTS` statement per object, in the reference's order and spelling.
 * `entries.uid` is the entry's `uuid` (the idempotency key); the unique index is partial because uuid-less
 * entries (titles, tags, mode markers) are never de-duplicated. `meta.mtime` is epoch milliseconds.
 */
export const SCHEMA_STATEMENTS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS entries (
    store_key TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    uid       TEXT,
    payload   TEXT NOT NULL,
    PRIMARY KEY (store_key, seq)
)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS entries_uid
    ON entries(store_key, uid) WHERE uid IS NOT NULL`,
  `CREATE TABLE IF NOT EXISTS meta (
    store_key TEXT PRIMARY KEY,
    mtime     INTEGER NOT NULL,
    next_seq  INTEGER NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS summaries (
    project_key TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    mtime       INTEGER NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (project_key, session_id)
)`,
];

/** The whole DDL as one script, exactly as the reference writes it. */
export const SCHEMA_SQL: string = SCHEMA_STATEMENTS.map((statement) => `${statement};\n`).join('');

/** Columns each table must have; a database lacking them is some other program's file. */
export const SCHEMA_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  entries: ['store_key', 'seq', 'uid', 'payload'],
  meta: ['store_key', 'mtime', 'next_seq'],
  summaries: ['project_key', 'session_id', 'mtime', 'data'],
};

/**
 * Puts a writable connection into the mode every flower process uses and creates any missing table.
 *
 * - `journal_mode=WAL`: readers never block the writer, and several processes (parallel runs sharing one
 *   `runs/`) can append to one file. The `-wal` and `-shm` files beside it are part of the database until a
 *   checkpoint folds them back (decisions.md D31).
 * - `synchronous=NORMAL`: in WAL mode this loses at most the last transactions on power loss, never
 *   consistency; the SDK has already written the transcript locally before it mirrors to the store.
 * - The busy timeout was set by the driver on open, before this first statement.
 */
export function prepareWritableDatabase(connection: SqliteConnection): void {
  // Both checks only read, and run before the WAL switch: switching rewrites the file header, so another
  // program's database must be recognised while it is still byte for byte what that program wrote.
  const foreign = foreignTables(connection);
  if (foreign !== null) throw new ForeignDatabaseError(foreign);
  const clashes = missingSchemaParts(connection, { absentTablesAllowed: true });
  if (clashes.length > 0) throw new SchemaMismatchError(clashes);
  connection.pragmaValue('journal_mode = WAL');
  connection.pragmaValue('synchronous = NORMAL');
  // One transaction: a crash or a concurrent opener never sees half a schema. The application id is written
  // once, so a later open recognises the file as flower's whatever tables other flower versions added.
  connection.immediate(() => {
    connection.exec(SCHEMA_SQL);
    if (connection.pragmaValue('application_id') !== FLOWER_APPLICATION_ID) {
      connection.pragmaValue(`application_id = ${FLOWER_APPLICATION_ID}`);
    }
  });
}

/**
 * `PRAGMA application_id` of a flower session store: "FLWR" in ASCII. SQLite keeps it in the file header,
 * where tools like `file(1)` read it; the Python flower never set one, so 0 is flower's too when the tables
 * say so.
 */
export const FLOWER_APPLICATION_ID = 0x464c5752;

/**
 * The tables of another program's database, or `null` when the file may be flower's: it carries flower's
 * application id, or it has no id and no table outside flower's schema (an empty file, a store of an older
 * flower or of the Python flower). Reads only.
 */
export function foreignTables(connection: SqliteConnection): string[] | null {
  const applicationId = connection.pragmaValue('application_id');
  if (applicationId === FLOWER_APPLICATION_ID) return null;
  const tables = connection
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) <> 'sqlite_'`)
    .all()
    .map((row) => (row as { name: string }).name);
  const claimedByAnother = applicationId !== 0;
  if (!claimedByAnother && tables.every((table) => table in SCHEMA_COLUMNS)) return null;
  return tables;
}

/** The file is a SQLite database of another program: it has tables, or an application id, not flower's. */
export class ForeignDatabaseError extends Error {
  /** The tables found in it. */
  readonly tables: readonly string[];

  constructor(tables: readonly string[]) {
    super(tables.length === 0 ? "carries another program's application id" : `holds ${tables.join(', ')}`);
    this.name = 'ForeignDatabaseError';
    this.tables = tables;
  }
}

/** The file is a SQLite database whose tables are not (all) flower's. */
export class SchemaMismatchError extends Error {
  /** What is missing, e.g. `column entries.store_key`. */
  readonly missing: readonly string[];

  constructor(missing: readonly string[]) {
    super(`lacks ${missing.join(', ')}`);
    this.name = 'SchemaMismatchError';
    this.missing = missing;
  }
}

/**
 * Names the tables or columns the database lacks, or returns an empty list when it has the whole schema.
 * Extra tables and columns are allowed (a later schema may add some). With `absentTablesAllowed`, only
 * tables that exist are checked: they are the ones `CREATE TABLE IF NOT EXISTS` would silently keep.
 */
export function missingSchemaParts(
  connection: SqliteConnection,
  options: { absentTablesAllowed?: boolean } = {},
): string[] {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(SCHEMA_COLUMNS)) {
    const present = new Set(
      connection
        .prepare(`SELECT name FROM pragma_table_info(?)`)
        .all(table)
        .map((row) => (row as { name: string }).name),
    );
    if (present.size === 0) {
      if (options.absentTablesAllowed !== true) missing.push(`table ${table}`);
      continue;
    }
    for (const column of columns) if (!present.has(column)) missing.push(`column ${table}.${column}`);
  }
  return missing;
}
