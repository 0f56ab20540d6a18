/**
 * `ToolJournal`: a durable record of every tool call flower's permission gate let through, kept in a table
 * of its own (`tool_calls`) beside the transcripts in `sessions.db`.
 *
 * Why: Claude Code mirrors a transcript to the store a little after the fact. A process killed in that gap
 * leaves a tool that has run (its effect is on disk) without the `tool_use` that asked for it, and the
 * resumed model, seeing no trace of the call, asks again. The gate sees every call before it runs, so a row
 * written there, synchronously, before the gate answers, survives any kill that the tool's effect survives.
 * The load pipeline shows a journalled call the stored transcript lacks (see `journal-recovery.ts`).
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { parseJournalInput } from './parse-journal-input.js';
import { prepareWritableDatabase } from './schema.js';
import { openSqlite, type SqliteConnection, type SqliteStatement } from './sqlite-driver.js';
import { explainStoreError } from './store-errors.js';
import { DEFAULT_BUSY_TIMEOUT_MS } from './sqlite-session-store-options.js';

/**
 * The journal's table. Not part of the transcript schema the Python flower shares: a database without it
 * is still a complete store, and a store that never opens the journal never creates it. One row per call;
 * `agent_id` is null for the main thread; `started_at` is epoch milliseconds.
 */
export const TOOL_JOURNAL_SQL = `CREATE TABLE IF NOT EXISTS tool_calls (
    session_id  TEXT NOT NULL,
    tool_use_id TEXT NOT NULL,
    agent_id    TEXT,
    tool_name   TEXT NOT NULL,
    input       TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    PRIMARY KEY (session_id, tool_use_id)
)`;

/** One tool call as the gate let it through. */
export interface JournalledCall {
  /** The session the call belongs to (the hook's `session_id`). */
  sessionId: string;
  /** The call's `tool_use` id. */
  toolUseId: string;
  /** The subagent that made the call, or null for the main thread. */
  agentId: string | null;
  /** The tool's name. */
  toolName: string;
  /** The tool's input, as the gate saw it. */
  input: Record<string, unknown>;
  /** When the gate let it through (epoch ms). */
  startedAt: number;
}

/** The journal as the load pipeline reads it. */
export interface ToolJournalReader {
  /** The tool-use ids journalled for one thread of a session (`agentId` null: the main thread). */
  idsOf(sessionId: string, agentId: string | null): Set<string>;
  /**
   * The calls journalled for one thread of a session, oldest first, except those in `except`. Only the
   * returned calls' inputs are read: a long session's journal holds every input it ever wrote.
   */
  callsOf(sessionId: string, agentId: string | null, except?: ReadonlySet<string>): JournalledCall[];
}

/**
 * The `tool_calls` table on its own connection to `sessions.db`. Every method is synchronous: `record`
 * returns only after the row is committed, in the same WAL mode and `synchronous` level as the store, which
 * survives the death of the process (the operating system still holds what was written) though not a power
 * loss in the same instant.
 */
export class ToolJournal implements ToolJournalReader {
  /** Absolute path of the database file. */
  readonly path: string;

  #connection: SqliteConnection | null = null;
  /** Opens the journal: set until the first open (`openOnFirstUse`), then null. */
  #opener: (() => OpenJournal) | null;
  #insert: SqliteStatement | null = null;
  #ids: SqliteStatement | null = null;
  #call: SqliteStatement | null = null;

  /**
   * Opens (creating the file and table if needed) the journal in the database at `path`; with
   * `openOnFirstUse`, on the first call that needs it or on `open()` (docs/decisions.md D228).
   */
  constructor(path: string, options: { busyTimeoutMs?: number; openOnFirstUse?: boolean } = {}) {
    this.path = resolve(path);
    this.#opener = () => openJournal(this.path, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    if (options.openOnFirstUse !== true) this.open();
  }

  /** Opens the journal now if it waits for its first use; nothing when open or closed. */
  open(): void {
    if (this.#opener === null) return;
    const opened = this.#opener();
    this.#opener = null;
    ({ connection: this.#connection, insert: this.#insert, ids: this.#ids, call: this.#call } = opened);
  }

  /** Commits one call. Returns after the row is in the database file's write-ahead log. */
  record(call: JournalledCall): void {
    this.#open();
    this.#insert?.run(
      call.sessionId,
      call.toolUseId,
      call.agentId,
      call.toolName,
      JSON.stringify(call.input),
      Math.round(call.startedAt),
    );
  }

  /** The tool-use ids journalled for one thread of a session. */
  idsOf(sessionId: string, agentId: string | null): Set<string> {
    this.#open();
    return new Set(this.#orderedIds(sessionId, agentId));
  }

  /**
   * The calls journalled for one thread of a session, oldest first, except those in `except` (their inputs
   * are never read). Rows with unreadable input are skipped.
   */
  callsOf(sessionId: string, agentId: string | null, except?: ReadonlySet<string>): JournalledCall[] {
    this.#open();
    const calls: JournalledCall[] = [];
    for (const id of this.#orderedIds(sessionId, agentId)) {
      if (except?.has(id) === true) continue;
      const row = this.#call?.get(sessionId, id) as JournalRow | undefined;
      if (row === undefined) continue;
      const input = parseJournalInput(row.input);
      if (input === null) continue;
      calls.push({
        sessionId: row.session_id,
        toolUseId: row.tool_use_id,
        agentId: row.agent_id,
        toolName: row.tool_name,
        input,
        startedAt: row.started_at,
      });
    }
    return calls;
  }

  /** Closes the connection. Idempotent. */
  close(): void {
    this.#opener = null;
    const connection = this.#connection;
    this.#connection = null;
    connection?.close();
  }

  #orderedIds(sessionId: string, agentId: string | null): string[] {
    return ((this.#ids?.all(sessionId, agentId) ?? []) as Array<{ tool_use_id: string }>).map(
      (row) => row.tool_use_id,
    );
  }

  #open(): SqliteConnection {
    this.open();
    if (this.#connection === null) throw new Error(`The tool journal in ${this.path} is closed.`);
    return this.#connection;
  }
}

/** An open journal's connection and statements. */
interface OpenJournal {
  connection: SqliteConnection;
  insert: SqliteStatement;
  ids: SqliteStatement;
  call: SqliteStatement;
}

/** Opens the journal in the database at `path`, creating the file and table if needed. */
function openJournal(path: string, busyTimeoutMs: number): OpenJournal {
  mkdirSync(dirname(path), { recursive: true });
  const connection = openSqlite(path, { busyTimeoutMs });
  try {
    // The store's own preparation first (WAL, synchronous level, transcript tables): the journal only ever
    // lives in a session store, and a file holding nothing but its table would not read as one.
    prepareWritableDatabase(connection);
    connection.exec(TOOL_JOURNAL_SQL);
    return {
      connection,
      // A retried hook for the same call keeps the first row: the first is when it was let through.
      insert: connection.prepare(
        'INSERT OR IGNORE INTO tool_calls (session_id, tool_use_id, agent_id, tool_name, input, started_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?)',
      ),
      ids: connection.prepare(
        'SELECT tool_use_id FROM tool_calls WHERE session_id = ? AND agent_id IS ? ORDER BY started_at, rowid',
      ),
      call: connection.prepare(
        'SELECT session_id, tool_use_id, agent_id, tool_name, input, started_at FROM tool_calls ' +
          'WHERE session_id = ? AND tool_use_id = ?',
      ),
    };
  } catch (error) {
    connection.close();
    throw explainStoreError(path, error);
  }
}

interface JournalRow {
  session_id: string;
  tool_use_id: string;
  agent_id: string | null;
  tool_name: string;
  input: string;
  started_at: number;
}
