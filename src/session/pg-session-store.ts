/**
 * `PgSessionStore`: the SDK's session-store protocol on a PostgreSQL server, in the reference schema
 * translated to PostgreSQL types, for runs that outgrow one machine (docs/session-stores.md).
 *
 * @module
 */
import type { Pool, PoolClient } from 'pg';

import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import { FlowerError } from '../errors.js';
import { MtimeClock } from './append-batch.js';
import { contextTokens } from './context-tokens.js';
import type { FlowerSessionStore } from './flower-session-store.js';
import type { LoadReport } from './load-report.js';
import { pgFlowerQueries } from './pg-flower-queries.js';
import type { PgFlowerQueries } from './pg-flower-queries.js';
import { rekeyPgProject } from './pg-rekey.js';
import { DEFAULT_CONTEXT_SCAN } from './sqlite-session-store-options.js';
import { loadPg } from './pg-driver.js';
import type { PgModule } from './pg-driver.js';
import { appendPgBatch, foldStored, sessionLockKey } from './pg-append.js';
import type { PgAppendContext } from './pg-append.js';
import { parsePgLocation } from './pg-location.js';
import { pgQueries } from './pg-queries.js';
import type { PgQueries } from './pg-queries.js';
import { preparePgSchema } from './pg-schema.js';
import { decodeSummary } from './session-summaries.js';
import { parseStoredEntry } from './store-errors.js';
import { checkedProjectKey, childRange, isMainKey, sessionPrefix, storeKey } from './store-key.js';

/** Options for {@link PgSessionStore}. */
export interface PgSessionStoreOptions {
  /** The schema for the tables; overrides the location's `?schema=`. Default `flower`. */
  schema?: string;
  /** Connections the store keeps open at most. Default 4. */
  maxConnections?: number;
  /** Rows fetched per round trip by `load` and `loadPages`. Default 1000. */
  pageSize?: number;
}

/** The default number of rows per page of a load. */
export const DEFAULT_PG_PAGE_SIZE = 1000;

/**
 * A session store on PostgreSQL, with the SQLite store's behaviour per SDK call:
 * - `append` runs in one transaction holding the session's advisory lock, so writers in any number of
 *   processes on any number of hosts serialise per session: entries whose `uuid` is already stored for the
 *   key, or came earlier in the batch, are skipped; uuid-less entries are always kept; survivors get
 *   consecutive `seq`; `meta.mtime` advances (epoch ms, strictly, also past a stored mtime written by a host
 *   whose clock runs ahead); a main transcript's summary is folded in the same transaction. A batch with no
 *   survivors is rolled back and changes nothing. Appends and deletes of one instance run in call order.
 * - `load` reads the transcript in pages of `pageSize` rows inside one repeatable-read transaction (one
 *   consistent snapshot, bounded memory per round trip); {@link PgSessionStore.loadPages} yields the pages.
 * - `delete` of a main key also removes its summary and every subagent transcript under it.
 *
 * The schema and its tables are created on first use. Its `load` returns the transcript as stored, so
 * `layeredStore(new PgSessionStore(url), [expireLayer(…), trimLayer(…), …])` runs the load layers over it.
 * Connection failures name the location with its password replaced by `***`.
 *
 * flower's own questions (`hasSession`, `lastContext`, `projects`, `rekey`) are answered with promises: a
 * server is behind the network (docs/decisions.md D430).
 */
export class PgSessionStore implements FlowerSessionStore {
  /** The location with every credential replaced by `***`: safe to print and to record. */
  readonly location: string;
  /** The schema holding the tables. */
  readonly schema: string;

  readonly #connectionString: string;
  readonly #maxConnections: number;
  /** The driver and the pool, from the first connection on. */
  #driver: { pg: PgModule; pool: Pool } | null = null;
  readonly #queries: PgQueries;
  readonly #flowerQueries: PgFlowerQueries;
  readonly #pageSize: number;
  readonly #appending: Omit<PgAppendContext, 'escapeLiteral'>;
  #ready: Promise<void> | null = null;
  /** The tail of this instance's writes: each append or delete starts after the previous one ended. */
  #writes: Promise<unknown> = Promise.resolve();
  #closed = false;

  /**
   * Connects lazily: nothing is sent to the server before the first call.
   *
   * @throws FlowerError (`USAGE`) when `location` is not a `postgres://` URL or names an invalid schema.
   */
  constructor(location: string, options: PgSessionStoreOptions = {}) {
    const parsed = parsePgLocation(
      options.schema === undefined ? location : withSchema(location, options.schema),
    );
    this.location = parsed.redacted;
    this.schema = parsed.schema;
    this.#pageSize = options.pageSize ?? DEFAULT_PG_PAGE_SIZE;
    this.#queries = pgQueries(this.schema);
    this.#flowerQueries = pgFlowerQueries(this.schema);
    this.#appending = {
      queries: this.#queries,
      schema: this.schema,
      clock: new MtimeClock(),
      location: this.location,
    };
    this.#connectionString = parsed.connectionString;
    this.#maxConnections = options.maxConnections ?? 4;
  }

  // ---- SDK SessionStore protocol ------------------------------------------------------------------------

  /** Stores a batch of transcript entries (see the class description for de-duplication and summaries). */
  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // Serialised at call time: what is stored is fixed even if the caller later mutates its objects.
    const payloads = entries.map((entry) => JSON.stringify(entry));
    const snapshot = payloads.map((payload) => JSON.parse(payload) as SessionStoreEntry);
    storeKey(key);
    await this.#write((client) =>
      appendPgBatch(
        client,
        { ...this.#appending, escapeLiteral: this.#driver!.pg.escapeLiteral },
        key,
        payloads,
        snapshot,
      ),
    );
  }

  /** The transcript at `key` as stored (fresh objects, `seq` order), or `null` when nothing is stored. */
  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const entries: SessionStoreEntry[] = [];
    for await (const page of this.loadPages(key)) entries.push(...page);
    return entries.length === 0 ? null : entries;
  }

  /**
   * The transcript at `key` as stored, one page of at most `pageSize` entries at a time, all from one
   * snapshot: a caller that handles each page and drops it holds one page in memory, not the transcript.
   * Yields nothing for an unknown key. Leaving the loop early releases the connection.
   */
  async *loadPages(key: SessionKey): AsyncGenerator<SessionStoreEntry[], void, undefined> {
    const target = storeKey(key);
    const client = await this.#connect();
    let failed = false;
    let open = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      let after = -1;
      for (;;) {
        const { rows } = await client.query<{ seq: string; payload: string }>({
          name: `${this.schema}.entriesAfter`,
          text: this.#queries.entriesAfter,
          values: [target, after, this.#pageSize],
        });
        if (rows.length === 0) break;
        after = Number(rows[rows.length - 1]!.seq);
        yield rows.map((row) => parseStoredEntry(this.location, target, Number(row.seq), row.payload));
        if (rows.length < this.#pageSize) break;
      }
      await client.query('COMMIT');
      open = false;
    } catch (error) {
      failed = true;
      throw this.#explain(error);
    } finally {
      // A loop left early (or a failure) leaves the transaction open: roll it back before reuse.
      if (open) await client.query('ROLLBACK').catch(() => (failed = true));
      client.release(failed);
    }
  }

  /** Main transcripts of a project with their storage mtime (epoch ms). Sorted by session id. */
  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    const { low, high } = childRange(checkedProjectKey(projectKey));
    const rows = await this.#rows<{ store_key: string; mtime: string }>(this.#queries.metaTimesInRange, [
      low,
      high,
    ]);
    return rows.flatMap((row) => {
      const sessionId = row.store_key.slice(low.length);
      return sessionId.includes('/') ? [] : [{ sessionId, mtime: Number(row.mtime) }];
    });
  }

  /** The summary of every main transcript of a project; an unreadable row is rebuilt from the transcript. */
  async listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]> {
    checkedProjectKey(projectKey);
    const rows = await this.#rows<{ session_id: string; mtime: string; data: string }>(
      this.#queries.summariesOf,
      [projectKey],
    );
    const summaries: SessionSummaryEntry[] = [];
    for (const row of rows) {
      const mtime = Number(row.mtime);
      const decoded = decodeSummary({ session_id: row.session_id, mtime, data: row.data });
      if (decoded !== null) {
        summaries.push(decoded);
        continue;
      }
      const key = { projectKey, sessionId: row.session_id };
      summaries.push(
        await this.#withClient((client) =>
          foldStored(client, this.#appending, key, Number.MAX_SAFE_INTEGER, mtime),
        ),
      );
    }
    return summaries;
  }

  /**
   * Deletes the transcript at `key`. For a main key this cascades to its summary and to every subagent
   * transcript of the session, so no orphans remain.
   */
  async delete(key: SessionKey): Promise<void> {
    const target = storeKey(key);
    const queries = this.#queries;
    await this.#write(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query(queries.lockSession, [sessionLockKey(this.schema, key)]);
        await client.query(queries.deleteEntries, [target]);
        await client.query(queries.deleteMeta, [target]);
        if (isMainKey(key)) {
          const { low, high } = childRange(target);
          await client.query(queries.deleteEntriesInRange, [low, high]);
          await client.query(queries.deleteMetaInRange, [low, high]);
          await client.query(queries.deleteSummary, [key.projectKey, key.sessionId]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** The subpaths (`subagents/agent-<id>`, …) stored under a session, sorted. */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    const { low, high } = childRange(sessionPrefix(key.projectKey, key.sessionId));
    const rows = await this.#rows<{ store_key: string }>(this.#queries.metaKeysInRange, [low, high]);
    return rows.map((row) => row.store_key.slice(low.length));
  }

  // ---- flower's own questions ---------------------------------------------------------------------------

  /** True when the main transcript `projectKey/sessionId` exists (one index lookup). */
  async hasSession(projectKey: string, sessionId: string): Promise<boolean> {
    const rows = await this.#rows(this.#flowerQueries.hasMeta, [sessionPrefix(projectKey, sessionId)]);
    return rows.length > 0;
  }

  /**
   * Context size in tokens of the newest of the main transcript's last `scan` entries whose `message.usage`
   * adds up to more than zero (`input + cache_read + cache_creation`); 0 when none does.
   */
  async lastContext(
    projectKey: string,
    sessionId: string,
    scan: number = DEFAULT_CONTEXT_SCAN,
  ): Promise<number> {
    const rows = await this.#rows<{ payload: string }>(this.#flowerQueries.newestPayloads, [
      sessionPrefix(projectKey, sessionId),
      Math.max(0, Math.floor(scan)),
    ]);
    for (const row of rows) {
      const tokens = contextTokens(row.payload);
      if (tokens > 0) return tokens;
    }
    return 0;
  }

  /** Every project key with at least one stored transcript, sorted (byte order). */
  async projects(): Promise<string[]> {
    const rows = await this.#rows<{ project: string }>(this.#flowerQueries.projects, []);
    return rows.map((row) => row.project);
  }

  /** Always `null`: this store returns transcripts as stored; a layered store over it keeps the reports. */
  reportFor(_key: SessionKey): LoadReport | null {
    return null;
  }

  /**
   * Moves every session of `fromProjectKey` to `toProjectKey` in one transaction, with the SQLite store's
   * rules: a session whose id already has anything under the target key stays where it is.
   *
   * @returns the number of sessions moved.
   */
  async rekey(fromProjectKey: string, toProjectKey: string): Promise<number> {
    checkedProjectKey(fromProjectKey);
    checkedProjectKey(toProjectKey);
    if (fromProjectKey === toProjectKey) return 0;
    let moved = 0;
    const locks = { from: `${this.schema}:${fromProjectKey}`, to: `${this.schema}:${toProjectKey}` };
    await this.#write(async (client) => {
      moved = await rekeyPgProject(client, this.#flowerQueries, locks, fromProjectKey, toProjectKey);
    });
    return moved;
  }

  /** Nothing to fold: the server keeps its own log. Resolves at once. */
  async checkpoint(): Promise<void> {}

  /**
   * Connects (creating the schema on first use) and answers one round trip: how a command learns that the
   * server is unreachable or refuses the credentials before it writes anything.
   *
   * @throws FlowerError (`STORE_UNREADABLE`) naming the redacted location.
   */
  async ready(): Promise<void> {
    await this.#rows('SELECT 1', []);
  }

  // ---- lifecycle ----------------------------------------------------------------------------------------

  /** Waits for this instance's pending writes, then closes every connection. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writes.catch(() => undefined);
    await this.#driver?.pool.end();
  }

  // ---- internals ----------------------------------------------------------------------------------------

  /** Runs `work` on a connection after every earlier write of this instance has finished. */
  #write(work: (client: PoolClient) => Promise<void>): Promise<void> {
    const run = this.#writes.then(
      () => this.#withClient(work),
      () => this.#withClient(work),
    );
    this.#writes = run.catch(() => undefined);
    return run;
  }

  async #rows<R extends object>(sql: string, parameters: unknown[]): Promise<R[]> {
    return await this.#withClient(async (client) => (await client.query<R>(sql, parameters)).rows);
  }

  async #withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#connect();
    let broken = false;
    try {
      return await work(client);
    } catch (error) {
      broken = !this.#isServerError(error);
      throw this.#explain(error);
    } finally {
      client.release(broken);
    }
  }

  /** A pooled connection, the schema created on the first one. */
  async #connect(): Promise<PoolClient> {
    if (this.#closed) throw new Error(`The session store ${this.location} is closed.`);
    let client: PoolClient;
    try {
      client = await (await this.#pool()).connect();
    } catch (error) {
      throw this.#explain(error);
    }
    try {
      this.#ready ??= preparePgSchema(client, this.schema);
      await this.#ready;
    } catch (error) {
      this.#ready = null;
      client.release(true);
      throw this.#explain(error);
    }
    return client;
  }

  /** The pool, created with the driver on first use. */
  async #pool(): Promise<Pool> {
    if (this.#driver === null) {
      const pg = await loadPg();
      // Re-checked after the await: two first calls at once must share one pool.
      if (this.#driver === null) {
        const pool = new pg.Pool({ connectionString: this.#connectionString, max: this.#maxConnections });
        // An idle connection the server drops (restart, network) must not crash the process: the next query
        // opens a new one, and its failure reaches the caller with a clear message.
        pool.on('error', () => undefined);
        this.#driver = { pg, pool };
      }
    }
    return this.#driver.pool;
  }

  /** True for an error the server reported (the connection itself is still fine). */
  #isServerError(error: unknown): boolean {
    return this.#driver !== null && error instanceof this.#driver.pg.DatabaseError;
  }

  /**
   * One clear message naming the redacted location for a server that cannot be reached or refuses us;
   * anything else (a FlowerError, a bug) passes through. The driver's own message never carries the
   * password, and the location in ours has it replaced.
   */
  #explain(error: unknown): unknown {
    if (error instanceof FlowerError || error instanceof TypeError) return error;
    const code = (error as { code?: unknown } | null)?.code;
    const reason = error instanceof Error ? error.message : String(error);
    if (
      this.#isServerError(error) &&
      typeof code === 'string' &&
      !code.startsWith('28') &&
      code !== '3D000'
    ) {
      return error;
    }
    return new FlowerError(
      'STORE_UNREADABLE',
      `The PostgreSQL session store ${this.location} cannot be used (${reason}). Check that the server is ` +
        'running and reachable, and that the user, password and database in the location are right.',
      { cause: error },
    );
  }
}

/** `location` with its `schema` parameter set to `schema`. */
function withSchema(location: string, schema: string): string {
  try {
    const url = new URL(location);
    url.searchParams.set('schema', schema);
    return url.toString();
  } catch {
    return location;
  }
}
