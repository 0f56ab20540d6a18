/**
 * `PgRunRecords`: a run's records in a PostgreSQL store's schema (tables in `pg-record-schema.ts`), scoped
 * by the run's name, so every host sharing the run reads and writes the same rows (docs/scaling.md,
 * docs/decisions.md D441). A change runs in one transaction that first locks the run's row: processes on
 * any number of hosts serialise per run, and a change lands whole or not at all — the guarantee the lock
 * file and the rename give `manifest.json`.
 *
 * @module
 */
import type { Pool, PoolClient } from 'pg';

import { FlowerError } from '../errors.js';
import { errorMessage } from '../internal/error-text.js';
import { isRecord } from '../internal/is-record.js';
import type { JsonFileState } from '../internal/locked-json-file.js';
import { loadPg } from '../session/pg-driver.js';
import { parsePgLocation } from '../session/pg-location.js';
import type { ManifestRow } from './manifest.js';
import { preparePgRecordSchema } from './pg-record-schema.js';
import type { LineageChange, RecordsUpdate, RowsChange, RunRecords } from './run-records.js';

/**
 * A node-postgres `Pool` (`new pg.Pool(…)`), typed only by what a caller can see, so that the package's
 * declarations do not need `@types/pg` in a project that never uses PostgreSQL.
 */
export interface PgPoolLike {
  connect(): Promise<unknown>;
  end(): Promise<void>;
}

/** Where a run's records live on a server: a pool the caller owns, or a location to open one from. */
export type PgRecordsTarget = ({ pool: PgPoolLike } | { location: string }) & {
  /** The schema holding the tables (the store's; `flower` by default). */
  schema: string;
  /** The run's name: what scopes its rows (`?run=`, `FLOWER_RUN`, or the workspace folder's name). */
  run: string;
  /** Safe to print: the location with credentials replaced (`redactPgLocation`); defaults to the server's. */
  redacted?: string;
  /** The run's name was given (`?run=`, `FLOWER_RUN`), not taken from the workspace folder (default false). */
  named?: boolean;
};

/** The records of the run `target.run` in PostgreSQL. Connects on first use; asynchronous throughout. */
export class PgRunRecords implements RunRecords {
  readonly kind = 'postgres';
  /** The redacted location and the run's name (`… run <name>`): safe to print. */
  readonly location: string;
  /** The run's name. */
  readonly run: string;
  /** The run's name was given: its lineage is this run's at any workspace path (docs/decisions.md D455). */
  readonly named: boolean;
  readonly #schema: string;
  readonly #ownPool: string | null;
  #pool: Pool | null;
  #ready: Promise<void> | null = null;
  /** This instance's changes run one after another, in call order. */
  #writes: Promise<unknown> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> | null = null;

  /** @throws FlowerError (`USAGE`) when a location is given that is not a `postgres://` URL. */
  constructor(target: PgRecordsTarget) {
    this.run = target.run;
    this.named = target.named ?? false;
    this.#schema = target.schema;
    if ('pool' in target) {
      // Only a pg Pool is accepted by the type's contract; the loose type keeps pg out of the declarations.
      this.#pool = target.pool as Pool;
      this.#ownPool = null;
      this.location = `${target.redacted ?? 'postgres'} run ${target.run}`;
    } else {
      const parsed = parsePgLocation(target.location);
      this.#pool = null;
      this.#ownPool = parsed.connectionString;
      this.location = `${target.redacted ?? parsed.redacted} run ${target.run}`;
    }
  }

  /** The rows in order, in one statement (one snapshot); rows that do not parse are left out. */
  async readRows(): Promise<ManifestRow[]> {
    // This instance's own changes first: a reader sees what its process wrote before.
    await this.#writes;
    const { rows } = await this.#query<{ data: string }>(
      `SELECT data FROM ${this.#table('flower_manifest_rows')} WHERE run_name = $1 ORDER BY position`,
      [this.run],
    );
    return rows.flatMap((row) => {
      const value = parseJson(row.data);
      return isRecord(value) ? [value as unknown as ManifestRow] : [];
    });
  }

  /**
   * In one transaction holding the run's `flower_manifests` row: re-reads the rows, applies `change`, and
   * rewrites the rows from the first one that differs. A stored row that does not parse stops the change
   * (`STORE_UNREADABLE`) instead of being overwritten.
   */
  async updateRows(_tag: string, change: RowsChange): Promise<RecordsUpdate<ManifestRow[]>> {
    return await this.#serial(() =>
      this.#transaction(async (client) => {
        const manifests = this.#table('flower_manifests');
        await client.query(
          `INSERT INTO ${manifests} (run_name, updated_at, writes) VALUES ($1, $2, 0) ON CONFLICT (run_name) DO NOTHING`,
          [this.run, Date.now()],
        );
        await client.query(`SELECT 1 FROM ${manifests} WHERE run_name = $1 FOR UPDATE`, [this.run]);
        const stored = (
          await client.query<{ data: string }>(
            `SELECT data FROM ${this.#table('flower_manifest_rows')} WHERE run_name = $1 ORDER BY position`,
            [this.run],
          )
        ).rows.map((row) => row.data);
        const current = stored.map((text, position) => {
          const value = parseJson(text);
          if (!isRecord(value)) throw this.#unreadable(`manifest row ${position} is not a JSON object`);
          return value as unknown as ManifestRow;
        });
        const next = change(current);
        if (next === undefined) return { written: undefined, quarantined: null };
        const texts = next.map((row) => JSON.stringify(row));
        let first = 0;
        while (first < texts.length && first < stored.length && texts[first] === stored[first]) first++;
        const rowsTable = this.#table('flower_manifest_rows');
        await client.query(`DELETE FROM ${rowsTable} WHERE run_name = $1 AND position >= $2`, [
          this.run,
          first,
        ]);
        const tail = next.slice(first);
        if (tail.length > 0) {
          await client.query(
            `INSERT INTO ${rowsTable} (run_name, position, run_id, step, data)
             SELECT $1, $2 + ordinality - 1, run_id, step, data
             FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(run_id, step, data, ordinality)`,
            [
              this.run,
              first,
              tail.map((row) => String(row.run)),
              tail.map((row) => String(row.step)),
              texts.slice(first),
            ],
          );
        }
        await client.query(
          `UPDATE ${manifests} SET updated_at = $2, writes = writes + 1 WHERE run_name = $1`,
          [this.run, Date.now()],
        );
        return { written: next, quarantined: null };
      }),
    );
  }

  async readLineage(): Promise<JsonFileState> {
    await this.#writes;
    const { rows } = await this.#query<{ data: string | null }>(
      `SELECT data FROM ${this.#table('flower_lineage')} WHERE run_name = $1`,
      [this.run],
    );
    const text = rows[0]?.data ?? null;
    return text === null ? { kind: 'missing' } : lineageState(text);
  }

  /**
   * In one transaction holding the run's `flower_lineage` row. A stored document that does not parse stops
   * the change (`STORE_UNREADABLE`) instead of being overwritten.
   */
  async updateLineage(_tag: string, change: LineageChange): Promise<RecordsUpdate<Record<string, unknown>>> {
    return await this.#serial(() =>
      this.#transaction(async (client) => {
        const table = this.#table('flower_lineage');
        await client.query(
          `INSERT INTO ${table} (run_name, updated_at, data) VALUES ($1, $2, NULL) ON CONFLICT (run_name) DO NOTHING`,
          [this.run, Date.now()],
        );
        const { rows } = await client.query<{ data: string | null }>(
          `SELECT data FROM ${table} WHERE run_name = $1 FOR UPDATE`,
          [this.run],
        );
        const text = rows[0]?.data ?? null;
        const state: JsonFileState = text === null ? { kind: 'missing' } : lineageState(text);
        if (state.kind === 'unreadable') throw this.#unreadable(`the lineage ${state.reason}`);
        const written = change(state.kind === 'parsed' ? state.value : undefined);
        if (written === undefined) return { written: undefined, quarantined: null };
        await client.query(`UPDATE ${table} SET data = $2, updated_at = $3 WHERE run_name = $1`, [
          this.run,
          JSON.stringify(written),
          Date.now(),
        ]);
        return { written, quarantined: null };
      }),
    );
  }

  /** Waits for this instance's changes, then ends the pool if this instance opened it. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#drainAndEnd();
    return this.#closing;
  }

  async #drainAndEnd(): Promise<void> {
    // Changes queued before (or while) closing still connect: only then is the instance closed. A lineage
    // write queued just before its runtime closes would otherwise fail on a closed instance (docs/decisions.md D437).
    let writes: Promise<unknown>;
    do {
      writes = this.#writes;
      await writes.catch(() => undefined);
    } while (writes !== this.#writes);
    this.#closed = true;
    if (this.#ownPool !== null && this.#pool !== null) await this.#pool.end();
  }

  #table(name: string): string {
    return `"${this.#schema}".${name}`;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#writes.then(work, work);
    this.#writes = result.catch(() => undefined);
    return result;
  }

  async #query<R extends object>(text: string, values: unknown[]): Promise<{ rows: R[] }> {
    const client = await this.#connect();
    let broken = false;
    try {
      return await client.query<R>(text, values);
    } catch (error) {
      broken = true;
      throw this.#explain(error);
    } finally {
      client.release(broken);
    }
  }

  async #transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw this.#explain(error);
    } finally {
      client.release(broken);
    }
  }

  async #connect(): Promise<PoolClient> {
    if (this.#closed) throw new Error(`The run records at ${this.location} are closed.`);
    let client: PoolClient;
    try {
      if (this.#pool === null) {
        const pg = await loadPg();
        this.#pool ??= new pg.Pool({ connectionString: this.#ownPool!, max: 2 });
        // An idle connection the server drops must not crash the process; the next query reconnects.
        this.#pool.on('error', () => undefined);
      }
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#explain(error);
    }
    try {
      this.#ready ??= preparePgRecordSchema(client, this.#schema);
      await this.#ready;
    } catch (error) {
      this.#ready = null;
      client.release(true);
      throw this.#explain(error);
    }
    return client;
  }

  #unreadable(what: string): FlowerError {
    return new FlowerError(
      'STORE_UNREADABLE',
      `The run records at ${this.location} cannot be changed: ${what}. It was left as it is; ` +
        'repair or delete that row on the server.',
    );
  }

  /** Driver and server failures as a FlowerError naming the redacted location (never the password). */
  #explain(error: unknown): unknown {
    if (error instanceof FlowerError || error instanceof TypeError) return error;
    return new FlowerError(
      'STORE_UNREADABLE',
      `The run records at ${this.location} cannot be used (${errorMessage(error)}). Check that the server ` +
        'is running and reachable, and that the user, password and database in the location are right.',
      { cause: error },
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function lineageState(text: string): JsonFileState {
  try {
    const value = JSON.parse(text) as unknown;
    return isRecord(value)
      ? { kind: 'parsed', value }
      : { kind: 'unreadable', reason: 'unexpected JSON shape' };
  } catch (error) {
    return { kind: 'unreadable', reason: errorMessage(error) };
  }
}
