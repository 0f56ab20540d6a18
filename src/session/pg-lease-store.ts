/**
 * {@link LeaseStore} on a PostgreSQL server (docs/scaling.md): the lease rows of every host sharing a run, in
 * the table `flower_leases` of the store's schema, keyed by the run's name and the lease's name.
 *
 * @module
 */
import type { Pool, PoolClient } from 'pg';

import type { LeaseHolder, LeaseStore } from './lease-store.js';
import { loadPg } from './pg-driver.js';
import { preparePgLeaseSchema } from './pg-lease-schema.js';
import { parsePgLocation } from './pg-location.js';
import { DEFAULT_PG_SCHEMA } from './pg-schema.js';
import { quotedName } from './pg-driver.js';

/** Where a {@link PgLeaseStore} keeps its rows. */
export type PgLeaseTarget = {
  /** The run's name in the server: rows of other runs in the same schema are never touched. */
  run: string;
  /** The schema; default: the location's `?schema=`, else `flower`. */
  schema?: string;
} & (
  | {
      /** A pool the caller owns (shared with the run's other stores); {@link PgLeaseStore.close} leaves it open. */
      pool: Pool;
    }
  | {
      /** A `postgres://` location: the store opens (and closes) its own small pool. Secret. */
      location: string;
    }
);

/** A row as read, with the ages of its timestamps on the server's clock, in milliseconds. */
interface LeaseRow {
  host: string;
  pid: number;
  started: string | null;
  token: string;
  since_age: number;
  beat_age: number;
}

/** Tries to take a lease whose row vanished between two statements (released meanwhile) this often. */
const ACQUIRE_ATTEMPTS = 5;

/**
 * A pool's wait for a connection and for a query, in milliseconds: a lease store that does not answer must
 * fail rather than hang, so a `flower` waiting for it can give up and say why. (A holder stops driving its
 * run on its own when renewals do not answer in time; see `RunLease`.)
 */
const OWN_POOL_TIMEOUT_MS = 10_000;

/**
 * Leases in PostgreSQL, for processes on many hosts:
 * - `acquire` is one transaction: insert the row unless one exists (`INSERT … ON CONFLICT DO NOTHING`), else
 *   lock it (`SELECT … FOR UPDATE`), ask `isLive` about its holder and overwrite it only when dead. Two
 *   takers on any hosts serialise on the row: the second one sees the first one's fresh row.
 * - `since` and `beat` are stamped with the server's clock; the holders this store returns carry them as
 *   this host's epoch milliseconds (now less the age the server measured), so the stale rule compares ages
 *   on one clock and hosts' clock offsets do not matter. The `beat` a caller passes to `renew` is ignored.
 * - `renew` and `release` change the row only while it names the token.
 *
 * The schema and table are created on first use. Every method returns a promise.
 */
export class PgLeaseStore implements LeaseStore<'async'> {
  /** The run's name in the server. */
  readonly runName: string;
  /** The schema holding the table. */
  readonly schema: string;

  readonly #connectionString: string | null;
  #pool: Pool | null;
  readonly #ownPool: boolean;
  #ready: Promise<void> | null = null;
  #closed = false;
  readonly #table: string;

  /** Connects lazily: nothing is sent to the server before the first call. */
  constructor(target: PgLeaseTarget) {
    this.runName = target.run;
    if ('pool' in target) {
      this.#pool = target.pool;
      this.#ownPool = false;
      this.#connectionString = null;
      this.schema = target.schema ?? DEFAULT_PG_SCHEMA;
    } else {
      const parsed = parsePgLocation(target.location);
      this.#pool = null;
      this.#ownPool = true;
      this.#connectionString = parsed.connectionString;
      this.schema = target.schema ?? parsed.schema;
    }
    this.#table = `${quotedName(this.schema)}.flower_leases`;
  }

  async acquire(
    lease: string,
    self: LeaseHolder,
    isLive: (holder: LeaseHolder) => boolean,
  ): Promise<LeaseHolder | null> {
    return await this.#withClient(async (client) => {
      for (let attempt = 0; attempt < ACQUIRE_ATTEMPTS; attempt++) {
        await client.query('BEGIN');
        try {
          const inserted = await client.query(
            `INSERT INTO ${this.#table} (run, lease, host, pid, started, token, since, beat)
             VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp(), clock_timestamp())
             ON CONFLICT (run, lease) DO NOTHING`,
            [this.runName, lease, self.host, self.pid, self.started, self.token],
          );
          if (inserted.rowCount === 1) {
            await client.query('COMMIT');
            return null;
          }
          const row = await this.#row(client, lease, 'FOR UPDATE');
          if (row === null) {
            // Deleted (released) between the two statements: try again from the insert.
            await client.query('ROLLBACK');
            continue;
          }
          if (row.token !== self.token && isLive(row)) {
            await client.query('ROLLBACK');
            return row;
          }
          await client.query(
            `UPDATE ${this.#table} SET host = $3, pid = $4, started = $5, token = $6,
               since = clock_timestamp(), beat = clock_timestamp()
             WHERE run = $1 AND lease = $2`,
            [this.runName, lease, self.host, self.pid, self.started, self.token],
          );
          await client.query('COMMIT');
          return null;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }
      throw new Error(`The lease ${lease} of run ${this.runName} kept being released while being taken.`);
    });
  }

  async renew(lease: string, token: string, _beat: number): Promise<boolean> {
    const result = await this.#withClient((client) =>
      client.query(
        `UPDATE ${this.#table} SET beat = clock_timestamp() WHERE run = $1 AND lease = $2 AND token = $3`,
        [this.runName, lease, token],
      ),
    );
    return result.rowCount === 1;
  }

  async release(lease: string, token: string): Promise<void> {
    await this.#withClient((client) =>
      client.query(`DELETE FROM ${this.#table} WHERE run = $1 AND lease = $2 AND token = $3`, [
        this.runName,
        lease,
        token,
      ]),
    );
  }

  async current(lease: string): Promise<LeaseHolder | null> {
    return await this.#withClient((client) => this.#row(client, lease, ''));
  }

  /**
   * Every lease row of this run — its `go` lease and each `run:<target>` lease — as holders in this host's
   * epoch milliseconds, oldest first: what `flower status` on any host shows as the run's driver.
   */
  async holders(): Promise<LeaseHolder[]> {
    return await this.#withClient(async (client) => {
      const result = await client.query<LeaseRow>(
        `SELECT host, pid, started, token,
           (extract(epoch FROM clock_timestamp() - since) * 1000)::float8 AS since_age,
           (extract(epoch FROM clock_timestamp() - beat) * 1000)::float8 AS beat_age
         FROM ${this.#table} WHERE run = $1 ORDER BY since`,
        [this.runName],
      );
      const now = Date.now();
      return result.rows.map((row) => holderOf(row, now));
    });
  }

  /** Closes the store's own pool (a pool it was given stays open for its owner). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownPool) await this.#pool?.end();
  }

  /** The row of `lease` as a holder in this host's epoch milliseconds, or null. */
  async #row(client: PoolClient, lease: string, lock: 'FOR UPDATE' | ''): Promise<LeaseHolder | null> {
    const result = await client.query<LeaseRow>(
      `SELECT host, pid, started, token,
         (extract(epoch FROM clock_timestamp() - since) * 1000)::float8 AS since_age,
         (extract(epoch FROM clock_timestamp() - beat) * 1000)::float8 AS beat_age
       FROM ${this.#table} WHERE run = $1 AND lease = $2 ${lock}`,
      [this.runName, lease],
    );
    const row = result.rows[0];
    return row === undefined ? null : holderOf(row, Date.now());
  }

  async #withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error(`The lease store of run ${this.runName} is closed.`);
    const pool = await this.#connectedPool();
    const client = await pool.connect();
    let broken = false;
    try {
      this.#ready ??= preparePgLeaseSchema(client, this.schema).catch((error: unknown) => {
        // A failed creation is tried again by the next call, not remembered.
        this.#ready = null;
        throw error;
      });
      await this.#ready;
      return await work(client);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async #connectedPool(): Promise<Pool> {
    if (this.#pool !== null) return this.#pool;
    const pg = await loadPg();
    // Re-checked after the await: two first calls at once must share one pool.
    if (this.#pool === null) {
      const pool = new pg.Pool({
        connectionString: this.#connectionString!,
        max: 2,
        connectionTimeoutMillis: OWN_POOL_TIMEOUT_MS,
        query_timeout: OWN_POOL_TIMEOUT_MS,
      });
      // An idle connection the server drops (restart, network) must not crash the process: the next query
      // gets a fresh one.
      pool.on('error', () => undefined);
      this.#pool = pool;
    }
    return this.#pool;
  }
}

/** A row as a holder: ages, not the server's timestamps, so "when" is on this host's clock (`now` less the age). */
function holderOf(row: LeaseRow, now: number): LeaseHolder {
  return {
    host: row.host,
    pid: row.pid,
    started: row.started,
    token: row.token,
    since: Math.round(now - row.since_age),
    beat: Math.round(now - row.beat_age),
  };
}
