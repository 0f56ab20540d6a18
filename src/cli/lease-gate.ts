/**
 * Taking a run's lease before a command drives it (docs/scaling.md): the lease row in the run directory's
 * `sessions.db` (or the run's PostgreSQL store), named by what is driven (`go`, or `run:<target>`). Held by a live other process, the
 * command only shows where the run stands and how to ask it something, and runs nothing.
 *
 * @module
 */
import { leaseSettings } from '../config/lease-settings.js';
import type { FlowerConfig } from '../config/load-config.js';
import type { Lang } from '../config/ui-text.js';
import type { TerminalRenderer } from '../render/terminal-renderer.js';
import { readManifest, type ManifestRow } from '../runtime/manifest.js';
import { runRecordsFor } from '../runtime/run-records.js';
import type { RunStoreServer } from '../runtime/run-stores.js';
import {
  leaseLostText,
  RunLease,
  sqliteLeaseStore,
  type LeaseAnswers,
  type LeaseClaim,
  type LeaseHolder,
  type LeaseStore,
} from '../runtime/run-lease.js';
import { attachLines } from './attach-lines.js';

/**
 * Takes the lease of `run` with the settings of `env`: in `store` (the run's lease store, as
 * `leaseStoreFor` opens it for a PostgreSQL run), by default in the `sessions.db` of `runDir` (which must
 * exist).
 */
export async function acquireRunLease(
  runDir: string,
  run: string,
  env: FlowerConfig['env'],
  store: LeaseStore<LeaseAnswers> = sqliteLeaseStore(runDir),
): Promise<LeaseClaim<LeaseAnswers>> {
  return await RunLease.acquire(store, run, leaseSettings(env));
}

/**
 * Prints that the run is live elsewhere, where it stands and how to ask it something. Exit code 0: nothing
 * failed, this flower just has nothing to do.
 */
export function attachToHolder(
  holder: LeaseHolder,
  runDir: string,
  renderer: TerminalRenderer,
  lang: Lang,
  rows: ManifestRow[] = readManifest(runDir),
): number {
  const shown = { pid: holder.pid, host: holder.host, since: Math.floor(holder.since / 1000) };
  for (const line of attachLines(shown, rows, lang)) renderer.print(line);
  renderer.close();
  return 0;
}

/**
 * After the run: when the lease was lost on the way, says so on stderr (the step's own failure line does
 * not say why it was cut) and makes the exit code 1.
 */
export function reportLostLease(
  lease: RunLease<LeaseAnswers>,
  io: { stderr: { write(text: string): unknown } },
  code: number,
): number {
  if (lease.lostTo === null) return code;
  io.stderr.write(`${leaseLostText(lease.lostTo)}\n`);
  return code === 0 ? 1 : code;
}

/**
 * The manifest rows of the run on `server` (the holder on another host writes them there), for
 * {@link attachToHolder}; the run directory's file for the SQLite default. Rows that cannot be read are none.
 */
export async function holderRows(runDir: string, server: RunStoreServer | null): Promise<ManifestRow[]> {
  if (server === null) return readManifest(runDir);
  const records = runRecordsFor(runDir, server);
  try {
    return await records.readRows();
  } catch {
    return [];
  } finally {
    await records.close();
  }
}
