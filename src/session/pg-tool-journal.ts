/**
 * `PgToolJournal`: the tool journal (see `tool-journal.ts`) on the PostgreSQL server that holds the
 * transcripts. A session resumed on another host must see the calls a killed process let through, so the
 * journal cannot stay in a file on the host that made them (docs/decisions.md D433).
 *
 * @module
 */
import type { Pool, PoolClient } from 'pg';

import { FlowerError } from '../errors.js';
import { parseJournalInput } from './parse-journal-input.js';
import { loadPg } from './pg-driver.js';
import type { PgModule } from './pg-driver.js';
import { quotedName } from './pg-driver.js';
import { preparePgJournal } from './pg-journal-schema.js';
import { parsePgLocation } from './pg-location.js';
import type { JournalledCall, ToolJournalReader } from './tool-journal.js';

/** Options for {@link PgToolJournal}. */
export interface PgToolJournalOptions {
  /** The schema; overrides the location's `?schema=`. Default `flower`. */
  schema?: string;
}

/**
 * The `tool_calls` table of one schema, on a small pool of its own (two connections: the gate writes one row
 * per call, the load reads one session's rows). `record` resolves only after the row is committed with the
 * server's normal durability (unlike transcript appends, which commit asynchronously: a journal row is the
 * one record written before the tool runs, so it must not be lost to a server crash that the tool's effect
 * survives).
 */
export class PgToolJournal {
  /** The location with every credential replaced by `***`. */
  readonly location: string;
  /** The schema holding the table. */
  readonly schema: string;

  readonly #connectionString: string;
  readonly #sql: ReturnType<typeof journalQueries>;
  #driver: { pg: PgModule; pool: Pool } | null = null;
  #ready: Promise<void> | null = null;
  #closed = false;

  /** Connects lazily. @throws FlowerError (`USAGE`) for a location that is not a PostgreSQL URL. */
  constructor(location: string, options: PgToolJournalOptions = {}) {
    const parsed = parsePgLocation(location);
    this.location = parsed.redacted;
    this.schema = options.schema ?? parsed.schema;
    this.#connectionString = parsed.connectionString;
    this.#sql = journalQueries(this.schema);
  }

  /** Commits one call; a retried hook for the same call keeps the first row. */
  async record(call: JournalledCall): Promise<void> {
    await this.#query(this.#sql.insert, [
      call.sessionId,
      call.toolUseId,
      call.agentId,
      call.toolName,
      JSON.stringify(call.input),
      Math.round(call.startedAt),
    ]);
  }

  /** The tool-use ids journalled for one thread of a session, oldest first. */
  async idsOf(sessionId: string, agentId: string | null): Promise<string[]> {
    const rows = await this.#query<{ tool_use_id: string }>(this.#sql.ids, [sessionId, agentId]);
    return rows.map((row) => row.tool_use_id);
  }

  /**
   * The calls journalled for one thread of a session, oldest first, except those in `except` (their inputs
   * are never fetched). Rows with unreadable input are skipped.
   */
  async callsOf(
    sessionId: string,
    agentId: string | null,
    except?: ReadonlySet<string>,
  ): Promise<JournalledCall[]> {
    const wanted = (await this.idsOf(sessionId, agentId)).filter((id) => except?.has(id) !== true);
    if (wanted.length === 0) return [];
    const rows = await this.#query<JournalRow>(this.#sql.calls, [sessionId, wanted]);
    return rows.flatMap((row) => {
      const input = parseJournalInput(row.input);
      return input === null
        ? []
        : [
            {
              sessionId: row.session_id,
              toolUseId: row.tool_use_id,
              agentId: row.agent_id,
              toolName: row.tool_name,
              input,
              startedAt: Number(row.started_at),
            },
          ];
    });
  }

  /**
   * What the journal layer reads, fetched now for one thread: the layers run synchronously, so a load over
   * a server reads the rows first. `storedCalls` are the thread's calls already in the transcript: their
   * inputs are not fetched (the layer never needs them).
   */
  async readerFor(
    sessionId: string,
    agentId: string | null,
    storedCalls: ReadonlySet<string>,
  ): Promise<ToolJournalReader> {
    const ids = await this.idsOf(sessionId, agentId);
    const missing = ids.some((id) => !storedCalls.has(id))
      ? await this.callsOf(sessionId, agentId, storedCalls)
      : [];
    return {
      idsOf: (session, agent) => (session === sessionId && agent === agentId ? new Set(ids) : new Set()),
      callsOf: (session, agent, except) =>
        session === sessionId && agent === agentId
          ? missing.filter((call) => except?.has(call.toolUseId) !== true)
          : [],
    };
  }

  /** Connects and creates the table unless it exists. */
  async ready(): Promise<void> {
    await this.#query('SELECT 1', []);
  }

  /** Closes every connection. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#driver?.pool.end();
  }

  async #query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    if (this.#closed) throw new Error(`The tool journal in ${this.location} is closed.`);
    let client: PoolClient;
    try {
      client = await (await this.#pool()).connect();
    } catch (error) {
      throw this.#explain(error);
    }
    let broken = false;
    try {
      this.#ready ??= preparePgJournal(client, this.schema);
      await this.#ready.catch((error: unknown) => {
        this.#ready = null;
        throw error;
      });
      return (await client.query<R>(sql, values)).rows;
    } catch (error) {
      broken = !(this.#driver !== null && error instanceof this.#driver.pg.DatabaseError);
      throw this.#explain(error);
    } finally {
      client.release(broken);
    }
  }

  async #pool(): Promise<Pool> {
    if (this.#driver === null) {
      const pg = await loadPg();
      if (this.#driver === null) {
        const pool = new pg.Pool({ connectionString: this.#connectionString, max: 2 });
        // A dropped idle connection must not crash the process; the next query reports the failure.
        pool.on('error', () => undefined);
        this.#driver = { pg, pool };
      }
    }
    return this.#driver.pool;
  }

  /** The driver's failure as one message naming the redacted location (the driver never shows the password). */
  #explain(error: unknown): unknown {
    if (error instanceof FlowerError || error instanceof TypeError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new FlowerError(
      'STORE_UNREADABLE',
      `The tool journal in the PostgreSQL store ${this.location} cannot be used (${reason}).`,
      { cause: error },
    );
  }
}

function journalQueries(schema: string) {
  const s = quotedName(schema);
  return {
    insert:
      `INSERT INTO ${s}.tool_calls (session_id, tool_use_id, agent_id, tool_name, input, started_at) ` +
      'VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (session_id, tool_use_id) DO NOTHING',
    ids:
      `SELECT tool_use_id FROM ${s}.tool_calls WHERE session_id = $1 AND agent_id IS NOT DISTINCT FROM $2 ` +
      'ORDER BY started_at, id',
    calls:
      `SELECT session_id, tool_use_id, agent_id, tool_name, input, started_at FROM ${s}.tool_calls ` +
      'WHERE session_id = $1 AND tool_use_id = ANY($2::text[]) ORDER BY started_at, id',
  } as const;
}

interface JournalRow {
  session_id: string;
  tool_use_id: string;
  agent_id: string | null;
  tool_name: string;
  input: string;
  started_at: string;
}
