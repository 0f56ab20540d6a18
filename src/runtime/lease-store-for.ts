/**
 * The lease store of a run (docs/scaling.md): its `sessions.db` with the SQLite default, the server's
 * `flower_leases` table when the run's store is PostgreSQL. What the run opener calls, so every command
 * of a run takes its lease in the same place as its transcripts.
 *
 * @module
 */
import type { LeaseAnswers, LeaseStore } from '../session/lease-store.js';
import { PgLeaseStore, type PgLeaseTarget } from '../session/pg-lease-store.js';
import { sqliteLeaseStore } from './run-lease.js';

export type { PgLeaseTarget } from '../session/pg-lease-store.js';

/**
 * A fresh lease store for the run in `runDir`: with `pg` null, the run directory's `sessions.db` (which
 * answers at once); else the PostgreSQL rows of `pg.run` in `pg.schema`, through `pg.pool` (left open on
 * close) or a pool of its own on `pg.location`. `RunLease.acquire` closes the store it is given, so take a
 * new one per acquisition.
 */
export function leaseStoreFor(runDir: string, pg: null): LeaseStore<'sync'>;
export function leaseStoreFor(runDir: string, pg: PgLeaseTarget): LeaseStore<'async'>;
export function leaseStoreFor(runDir: string, pg: PgLeaseTarget | null): LeaseStore<LeaseAnswers>;
export function leaseStoreFor(runDir: string, pg: PgLeaseTarget | null): LeaseStore<LeaseAnswers> {
  return pg === null ? sqliteLeaseStore(runDir) : new PgLeaseStore(pg);
}
