/**
 * The one module that touches `better-sqlite3`. Session stores talk to this small seam (open, exec,
 * prepare → run/get/all, immediate transactions, close), so the driver can later be swapped for `node:sqlite`
 * (once the floor is Node 22) or libsql without touching the stores (docs/architecture.md, dependencies).
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type Database from 'better-sqlite3';

import { FlowerError } from '../errors.js';

/** A prepared statement. Parameters are positional; rows come back as plain objects. */
export interface SqliteStatement {
  /** Runs a write and says how many rows it changed. */
  run(...parameters: unknown[]): { changes: number };
  /** The first row, or `undefined`. */
  get(...parameters: unknown[]): unknown;
  /** Every row. */
  all(...parameters: unknown[]): unknown[];
  /**
   * The rows one at a time. Lets a caller turn each row into its result and drop it, instead of holding every
   * row and every result at once. Finish (or `break` out of) the loop before running another statement.
   */
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
}

/** One open connection. Every method is synchronous, which keeps each store call free of `await` gaps. */
export interface SqliteConnection {
  /** Absolute path of the database file. */
  readonly path: string;
  /** True when opened read-only. */
  readonly readonly: boolean;
  /** Runs one or more statements that return nothing. */
  exec(sql: string): void;
  /** Compiles a statement (cheap to repeat: callers cache what they reuse). */
  prepare(sql: string): SqliteStatement;
  /** Runs `pragma` and returns its single value (`PRAGMA journal_mode` → `'wal'`). */
  pragmaValue(pragma: string): unknown;
  /**
   * Runs `work` inside `BEGIN IMMEDIATE … COMMIT` (rolled back if it throws). IMMEDIATE takes the write lock up
   * front, so a read-then-write sequence cannot interleave with another process's writer (decisions.md D407).
   */
  immediate<T>(work: () => T): T;
  /**
   * Copies the database into a new file at `destination` with SQLite's online backup: a consistent
   * snapshot (the write-ahead log included) while other processes go on writing.
   */
  backup(destination: string): Promise<void>;
  /** Closes the connection (idempotent). */
  close(): void;
}

/** How to open a connection. */
export interface SqliteOpenOptions {
  /** Open read-only; the file must exist. */
  readonly?: boolean;
  /**
   * With `readonly`: when no `-wal` file is beside `path`, open an in-memory copy of the file instead of
   * the file, so SQLite creates no `-wal`/`-shm` file beside it.
   */
  inMemoryCopy?: boolean;
  /** How long a statement waits for another process's lock before failing with SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Path of the native addon to load instead of the installed one. Only tests use it, to prove that a broken
   * native build produces a message that says how to fix it.
   */
  nativeBinding?: string;
}

/**
 * better-sqlite3, loaded on the first open rather than when this module is: a command that opens its store
 * only after its agent has started (`flower once`) should not pay for the driver and its native addon
 * before (docs/decisions.md D228). CommonJS, so `require` loads it synchronously from any layout (tsc's
 * dist/, the bundled CLI in dist/cli/, an installed package).
 */
let driver: { Database: typeof Database; addon: string | undefined } | null = null;

function loadDriver(): { Database: typeof Database; addon: string | undefined } {
  if (driver !== null) return driver;
  const require = createRequire(import.meta.url);
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  // The addon where `npm install` builds it: named, better-sqlite3 loads it at once instead of trying a dozen
  // places through the `bindings` package (one `stat` each). A build elsewhere is still found the old way
  // (docs/decisions.md D229).
  const built = join(
    dirname(require.resolve('better-sqlite3')),
    '..',
    'build',
    'Release',
    'better_sqlite3.node',
  );
  driver = { Database, addon: existsSync(built) ? built : undefined };
  return driver;
}

/** Error codes that mean the file itself cannot be used as a database. */
const UNREADABLE_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN']);

/** True for an error raised by SQLite because the file is damaged or not a database at all. */
export function isUnreadableDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREADABLE_CODES.has(code);
}

/**
 * True when `error` came from loading the native addon rather than from SQLite: a missing build, a build
 * for another Node ABI (`NODE_MODULE_VERSION`), or a `dlopen` failure.
 */
function isNativeBindingError(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === 'SqliteError') return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_DLOPEN_FAILED') return true;
  return /bindings file|NODE_MODULE_VERSION|better_sqlite3\.node|\.node'|dlopen/i.test(error.message);
}

/**
 * Opens `path` with better-sqlite3. The busy timeout is set by the driver before any statement runs, so even
 * the first `journal_mode` switch waits for a concurrent opener instead of failing.
 *
 * @throws FlowerError when the native addon cannot be loaded (the message says to run
 *   `npm rebuild better-sqlite3`) or when a read-only open finds no file.
 */
export function openSqlite(path: string, options: SqliteOpenOptions = {}): SqliteConnection {
  const readonly = options.readonly ?? false;
  if (readonly && !existsSync(path)) {
    throw new FlowerError('STORE_MISSING', `No session store at ${path}: the file does not exist.`);
  }
  let database: Database.Database;
  try {
    const { Database, addon } = loadDriver();
    const nativeBinding = options.nativeBinding ?? addon;
    const copy = readonly && options.inMemoryCopy === true ? fileCopy(path) : null;
    database = new Database(copy ?? path, {
      readonly,
      fileMustExist: readonly,
      timeout: options.busyTimeoutMs ?? 5000,
      ...(nativeBinding === undefined ? {} : { nativeBinding }),
    });
  } catch (error) {
    if (isNativeBindingError(error)) {
      throw new FlowerError(
        'STORE_DRIVER',
        `The SQLite driver (better-sqlite3) could not load its native module, so ${path} cannot be opened. ` +
          'Run `npm rebuild better-sqlite3` in the folder where flower-agent is installed ' +
          '(for a global install: `npm install -g --allow-scripts=better-sqlite3 flower-agent`).',
        { cause: error },
      );
    }
    throw error;
  }
  return wrap(database, path, readonly);
}

/**
 * The bytes of the database at `path` as a rollback-journal database, or `null` when a `-wal` file is beside
 * it (its newest pages may be in the log, so only SQLite's own reader sees them). Without a log the file is
 * complete; bytes 18 and 19 of the header say "WAL mode" (2), which an in-memory database cannot open, and
 * setting them to 1 (rollback journal) is the only difference between the two formats.
 */
function fileCopy(path: string): Buffer | null {
  if (existsSync(`${path}-wal`)) return null;
  const bytes = readFileSync(path);
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return bytes;
}

function wrap(database: Database.Database, path: string, readonly: boolean): SqliteConnection {
  // One transaction function for the connection's lifetime: `database.transaction()` builds a new wrapper on
  // every call (about 2% of a small append, profiled).
  const transaction = database.transaction((work: () => unknown) => work());
  return {
    path,
    readonly,
    exec(sql) {
      database.exec(sql);
    },
    prepare(sql) {
      const statement = database.prepare(sql);
      return {
        run: (...parameters) => statement.run(...parameters),
        get: (...parameters) => statement.get(...parameters),
        all: (...parameters) => statement.all(...parameters),
        iterate: (...parameters) => statement.iterate(...parameters),
      };
    },
    pragmaValue(pragma) {
      return database.pragma(pragma, { simple: true });
    },
    immediate<T>(work: () => T): T {
      return transaction.immediate(work) as T;
    },
    async backup(destination) {
      await database.backup(destination);
    },
    close() {
      if (database.open) database.close();
    },
  };
}
