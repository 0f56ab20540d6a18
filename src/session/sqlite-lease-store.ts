/**
 * {@link LeaseStore} in the run's `sessions.db`: one table, `flower_leases`, beside the transcripts, on its
 * own connection. The session store's own tables are left as they are (this table is created here, on first use), and
 * every change is one `BEGIN IMMEDIATE` transaction, so two processes can never both take a lease.
 *
 * @module
 */
import { prepareWritableDatabase } from './schema.js';
import { openSqlite, type SqliteConnection } from './sqlite-driver.js';
import type { LeaseHolder, LeaseStore } from './lease-store.js';

const CREATE = `CREATE TABLE IF NOT EXISTS flower_leases (
  run     TEXT PRIMARY KEY,
  host    TEXT NOT NULL,
  pid     INTEGER NOT NULL,
  started TEXT,
  token   TEXT NOT NULL,
  since   INTEGER NOT NULL,
  beat    INTEGER NOT NULL
)`;

/** Leases in the SQLite file at `path` (the run directory's `sessions.db`). */
export class SqliteLeaseStore implements LeaseStore {
  readonly #connection: SqliteConnection;

  constructor(path: string) {
    this.#connection = openSqlite(path);
    // The lease may be the first thing written to a new run directory: the file is made a session store
    // first (WAL mode, the reference tables), so the store that opens it next finds its own file.
    prepareWritableDatabase(this.#connection);
    this.#connection.exec(CREATE);
  }

  acquire(run: string, self: LeaseHolder, isLive: (holder: LeaseHolder) => boolean): LeaseHolder | null {
    return this.#connection.immediate(() => {
      const current = this.current(run);
      if (current !== null && current.token !== self.token && isLive(current)) return current;
      this.#connection
        .prepare(
          `INSERT INTO flower_leases (run, host, pid, started, token, since, beat) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(run) DO UPDATE SET host = excluded.host, pid = excluded.pid, started = excluded.started,
             token = excluded.token, since = excluded.since, beat = excluded.beat`,
        )
        .run(run, self.host, self.pid, self.started, self.token, self.since, self.beat);
      return null;
    });
  }

  renew(run: string, token: string, beat: number): boolean {
    const changed = this.#connection
      .prepare('UPDATE flower_leases SET beat = ? WHERE run = ? AND token = ?')
      .run(beat, run, token);
    return changed.changes === 1;
  }

  release(run: string, token: string): void {
    this.#connection.prepare('DELETE FROM flower_leases WHERE run = ? AND token = ?').run(run, token);
  }

  current(run: string): LeaseHolder | null {
    const row = this.#connection
      .prepare('SELECT host, pid, started, token, since, beat FROM flower_leases WHERE run = ?')
      .get(run) as LeaseHolder | undefined;
    return row ?? null;
  }

  close(): void {
    this.#connection.close();
  }
}
