/**
 * The stores of the run a command works on, from its global options (`--store`, `-w`, `-r`) and the
 * configuration (`FLOWER_STORE`), checked before the command writes anything.
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { FlowerConfig } from '../config/load-config.js';
import { storeSetting } from '../config/store-settings.js';
import {
  openCheckedRunStores,
  storeKindOf,
  type RunStoreLayers,
  type RunStoreServer,
  type RunStores,
} from '../runtime/run-stores.js';
import { projectKey } from '../agent/project-key.js';
import {
  readRunRecords,
  runRecordsFor,
  type RunRecords,
  type RunRecordsSnapshot,
} from '../runtime/run-records.js';
import {
  readServerTranscripts,
  runProjectKeys,
  type ServerTranscripts,
} from '../runtime/server-transcripts.js';
import type { WakeState } from '../runtime/wake-state.js';
import type { ManifestRow } from '../runtime/manifest.js';
import { isRecord } from '../internal/is-record.js';
import { leaseSettings } from '../config/lease-settings.js';
import { isLiveHolder } from '../runtime/run-lease.js';
import { PgLeaseStore } from '../session/pg-lease-store.js';
import type { LeaseHolder } from '../session/lease-store.js';
import type { JsonFileState } from '../internal/locked-json-file.js';
import { PgFlowerStore } from '../session/pg-flower-store.js';
import type { CliIo } from './cli-io.js';
import type { GlobalOptions } from './program.js';

/** `--store`, else `FLOWER_STORE`, else null (the SQLite default). */
export function commandStoreLocation(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
): string | null {
  const given = (globals.store ?? '').trim();
  return given === '' ? storeSetting(config.env) : given;
}

/**
 * `config` with `--store` in place of `FLOWER_STORE`, so whatever opens the run's stores from the
 * configuration (a `Runtime` given no store) opens the one this command was given.
 */
export function withCommandStore<C extends Pick<FlowerConfig, 'env'>>(
  config: C,
  globals: Pick<GlobalOptions, 'store'>,
): C {
  const location = commandStoreLocation(config, globals);
  return location === storeSetting(config.env)
    ? config
    : { ...config, env: { ...config.env, FLOWER_STORE: location ?? '' } };
}

/**
 * The run's stores on a PostgreSQL server, opened with one round trip, or null for the SQLite default
 * (which `Runtime` opens itself, after preparing the run directory, so a run directory that cannot be used
 * is reported as such). An unreachable server, a refused password or a malformed location stops the command
 * here with one line (`STORE_UNREADABLE`, exit 1; `USAGE`, exit 2), the password never shown, nothing
 * written.
 */
export async function openCommandStores(
  config: Pick<FlowerConfig, 'env'>,
  globals: GlobalOptions,
  io: Pick<CliIo, 'cwd'>,
  layers: RunStoreLayers = {},
): Promise<RunStores | null> {
  const given = resolve(io.cwd, globals.workspace);
  // As `Runtime` resolves them, so both name the same run directory.
  const workspace = existsSync(given) ? realpathSync(given) : given;
  const runDir = globals.runDir === undefined ? join(workspace, 'runs') : resolve(io.cwd, globals.runDir);
  const location = commandStoreLocation(config, globals);
  if (storeKindOf(location, runDir) === 'sqlite') return null;
  return await openCheckedRunStores({ runDir, workspace, location, env: config.env, layers });
}

/**
 * {@link openCommandStores} and closed again: for a command that must know the store works before it
 * writes its first file, but opens the runtime (and so the stores) later. Returns the server (for the run's
 * lease there, `leaseStoreFor`), or null for the SQLite default.
 */
export async function checkCommandStores(
  config: Pick<FlowerConfig, 'env'>,
  globals: GlobalOptions,
  io: Pick<CliIo, 'cwd'>,
): Promise<RunStoreServer | null> {
  const stores = await openCommandStores(config, globals, io);
  await stores?.close();
  return stores?.server ?? null;
}

/** The lineage document of the run on `server` (null when it has none): what the wake state reads there. */
export async function serverLineage(
  runDir: string,
  server: RunStoreServer,
): Promise<Record<string, unknown> | null> {
  const records = runRecordsFor(runDir, server);
  try {
    return (await readRunRecords(records)).lineage;
  } finally {
    await records.close();
  }
}

/**
 * `state` with the work session's last context read from the server's transcripts (the wake state reads
 * only `sessions.db`); `state` itself for the SQLite default or when the server has no answer.
 */
export async function serverWakeState(
  state: WakeState,
  server: RunStoreServer | null,
  workspace: string,
): Promise<WakeState> {
  const work = state.steps['work'];
  if (server === null || work === undefined) return state;
  const root = existsSync(workspace) ? realpathSync(workspace) : resolve(workspace);
  const store = new PgFlowerStore(server.location, root);
  try {
    const context = await store.lastContext(projectKey(root), work);
    return context > 0 ? { ...state, context } : state;
  } catch {
    // The banner is a courtesy: a server that does not answer here is reported when the run opens it.
    return state;
  } finally {
    await store.close().catch(() => undefined);
  }
}

/**
 * The records of the run in `runDir` on the server this command was given (`--store`, else
 * `FLOWER_STORE`), checked first (one line naming the redacted location when it cannot be reached); null
 * for the SQLite default, whose readers take the run directory's files. The caller closes them.
 */
export async function openCommandRecords(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
  where: { workspace: string; runDir: string },
): Promise<RunRecords | null> {
  const server = await commandServer(config, globals, where);
  return server === null ? null : runRecordsFor(where.runDir, server);
}

/**
 * The server of the run in `runDir` this command was given (`--store`, else `FLOWER_STORE`), checked with
 * one round trip (one line naming the redacted location when it cannot be reached); null for the SQLite
 * default.
 */
export async function commandServer(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
  where: { workspace: string; runDir: string },
): Promise<RunStoreServer | null> {
  const location = commandStoreLocation(config, globals);
  if (storeKindOf(location, where.runDir) === 'sqlite') return null;
  const workspace = existsSync(where.workspace) ? realpathSync(where.workspace) : where.workspace;
  const stores = await openCheckedRunStores({ runDir: where.runDir, workspace, location, env: config.env });
  await stores.close();
  return stores.server;
}

/** {@link openCommandRecords}, read once and closed: undefined for the SQLite default. */
export async function readCommandRecords(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
  where: { workspace: string; runDir: string },
): Promise<RunRecordsSnapshot | undefined> {
  const records = await openCommandRecords(config, globals, where);
  if (records === null) return undefined;
  try {
    return await readRunRecords(records);
  } finally {
    await records.close();
  }
}

/** A run on a server read once: its records and its transcripts as stored (docs/decisions.md D451). */
export interface ServerRunRead {
  records: RunRecordsSnapshot;
  /** The lineage document as stored (`missing`, `parsed`, or `unreadable` with the reason). */
  lineage: JsonFileState;
  /** Where the records are, safe to print: the redacted location and the run's name. */
  location: string;
  transcripts: ServerTranscripts;
  /** The server, for what a command reads or writes next (the tool journal, `doctor --fix`). */
  server: RunStoreServer;
}

/**
 * The records and the transcripts of the run in `runDir` on the server this command was given (`--store`,
 * else `FLOWER_STORE`), checked first like {@link openCommandRecords}: undefined for the SQLite default,
 * whose readers take the run directory's files. The transcripts are those stored under the workspace's
 * project key (and the lineage's, when it differs): a server holds many runs.
 */
export async function readCommandRun(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
  where: { workspace: string; runDir: string },
): Promise<ServerRunRead | undefined> {
  const location = commandStoreLocation(config, globals);
  if (storeKindOf(location, where.runDir) === 'sqlite') return undefined;
  const workspace = existsSync(where.workspace) ? realpathSync(where.workspace) : where.workspace;
  const stores = await openCheckedRunStores({ runDir: where.runDir, workspace, location, env: config.env });
  await stores.close();
  const server = stores.server!;
  const opened = runRecordsFor(where.runDir, server);
  let rows: ManifestRow[];
  let lineage: JsonFileState;
  try {
    [rows, lineage] = await Promise.all([opened.readRows(), opened.readLineage()]);
  } finally {
    await opened.close();
  }
  const document = lineage.kind === 'parsed' && isRecord(lineage.value) ? lineage.value : null;
  const records = { rows, lineage: document };
  const transcripts = await readServerTranscripts(server, runProjectKeys(workspace, document));
  return { records, lineage, location: opened.location, transcripts, server };
}

/**
 * The live holder of the run's lease on the server this command was given: the flower driving the run from
 * whichever host, judged by the lease rule (this host's process table for its own processes, the last
 * renewal for another host's). Null when nobody holds it live; undefined for the SQLite default, whose
 * holder the run directory's process records tell.
 */
export async function serverLeaseHolder(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
  where: { workspace: string; runDir: string },
): Promise<LeaseHolder | null | undefined> {
  const server = await commandServer(config, globals, where);
  if (server === null) return undefined;
  const leases = new PgLeaseStore(server);
  try {
    const settings = leaseSettings(config.env);
    return (await leases.holders()).find((holder) => isLiveHolder(holder, settings)) ?? null;
  } finally {
    await leases.close();
  }
}
