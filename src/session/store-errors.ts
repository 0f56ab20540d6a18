/**
 * The session store's one-line errors: a file that cannot be used as a session store, and a stored entry
 * that is not JSON. Both say what is wrong and what to do, and promise the file was left untouched.
 *
 * @module
 */
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { FlowerError } from '../errors.js';
import { ForeignDatabaseError, SchemaMismatchError } from './schema.js';
import { isUnreadableDatabaseError } from './sqlite-driver.js';

/**
 * Turns "this file is damaged / not a database / some other program's database" into a `STORE_UNREADABLE`
 * {@link FlowerError} naming `path`; any other error is returned unchanged.
 */
export function explainStoreError(path: string, error: unknown): unknown {
  if (error instanceof ForeignDatabaseError) {
    return new FlowerError(
      'STORE_UNREADABLE',
      `${path} is another program's SQLite database, not a flower session store (it ${error.message}). ` +
        'It was left untouched: move it away, or point flower at another run directory with --run-dir.',
      { cause: error },
    );
  }
  if (error instanceof SchemaMismatchError) {
    return new FlowerError(
      'STORE_UNREADABLE',
      `${path} is a SQLite database but not a flower session store (it ${error.message}). ` +
        'It was left untouched: point flower at another run directory.',
      { cause: error },
    );
  }
  if (!isUnreadableDatabaseError(error)) return error;
  return new FlowerError(
    'STORE_UNREADABLE',
    `${path} cannot be read as a session store (${(error as Error).message}). ` +
      'It was left untouched: move it aside (with any -wal and -shm files beside it) to start with an empty ' +
      'store, or restore it from a copy.',
    { cause: error },
  );
}

/**
 * Parses one stored payload.
 *
 * @throws FlowerError (`STORE_UNREADABLE`) naming the file, key and `seq` when the payload is not JSON.
 */
export function parseStoredEntry(
  path: string,
  target: string,
  seq: number,
  payload: string,
): SessionStoreEntry {
  try {
    return JSON.parse(payload) as SessionStoreEntry;
  } catch (error) {
    throw new FlowerError(
      'STORE_UNREADABLE',
      `${path}: the stored entry ${target} #${seq} is not valid JSON, so this transcript cannot be ` +
        'loaded. The file was left untouched; restore it from a copy or start a new session.',
      { cause: error },
    );
  }
}
