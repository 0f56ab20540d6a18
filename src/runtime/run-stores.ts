/**
 * `openRunStores`: the one place a command (or a `Runtime` given no store) gets the stores of a run, from
 * the store location the user chose (`--store`, else `FLOWER_STORE`): the SQLite default in the run
 * directory, or a PostgreSQL server (docs/session-stores.md, docs/scaling.md; docs/decisions.md D431).
 *
 * @module
 */
import { basename, join, resolve } from 'node:path';

import { runSetting, type StoreEnv } from '../config/store-settings.js';
import { FlowerError } from '../errors.js';
import type { CallRecorder } from '../guards/journal-hook.js';
import type { EphemeralPolicy } from '../session/ephemeral-policy.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';
import { PgFlowerStore } from '../session/pg-flower-store.js';
import { isPgLocation, parsePgLocation, redactPgLocation } from '../session/pg-location.js';
import { PrunePolicy } from '../session/prune-policy.js';
import { PruningSessionStore } from '../session/pruning-session-store.js';
import { createRunDirectory } from './run-directory.js';
import type { TrimPolicy } from '../session/trim-policy.js';

/** The file of the SQLite default, in the run directory. */
export const SESSIONS_DB = 'sessions.db';

/** Which kind of store a run uses. */
export type RunStoreKind = 'sqlite' | 'postgres';

/** The load layers' switches, as `Runtime` takes them. */
export interface RunStoreLayers {
  /** Trim old large tool results on resume (default false, as `Runtime`). */
  trim?: TrimPolicy | boolean;
  /** Expire stale ephemeral results (default true). */
  ephemeral?: EphemeralPolicy | boolean;
  /** Denials kept by prune (default 1). */
  keepDenials?: number;
}

/** What {@link openRunStores} needs. */
export interface OpenRunStoresOptions {
  /** The run directory (absolute or relative to the process's folder). */
  runDir: string;
  /** The workspace: spill files go under it, and its base name is the default run name. */
  workspace: string;
  /**
   * `--store`, else the configuration's `FLOWER_STORE`: a `postgres://` URL, or nothing (null, undefined or
   * empty) for `<runDir>/sessions.db`. A path is accepted only when it names that file.
   */
  location?: string | null;
  /** The configuration's environment (`FLOWER_RUN`). */
  env?: StoreEnv;
  /** The load layers' switches. */
  layers?: RunStoreLayers;
  /**
   * The SQLite default opens its file on first use (or `open()`) instead of here, so a run can start its
   * agent first (docs/decisions.md D228). Default false.
   */
  openOnFirstUse?: boolean;
}

/**
 * The server side of a PostgreSQL run, for the other stores of the run (leases, manifest rows, lineage):
 * the location as given (it holds the password: pass it to a driver, never print or record it), its schema
 * and the run's name.
 */
export interface RunStoreServer {
  /** The location as given. Secret. */
  readonly location: string;
  /** The schema (`?schema=`, default `flower`). */
  readonly schema: string;
  /** The run's name in the server (see {@link runNameFor}). */
  readonly run: string;
  /**
   * True when the run's name was given (`?run=`, `FLOWER_RUN`) rather than taken from the workspace folder:
   * then the run is its name, wherever a host sees the workspace (docs/decisions.md D455).
   */
  readonly named?: boolean;
}

/** The stores of one run. */
export interface RunStores {
  /** The session store, with the load layers and (for a runtime) the tool journal. */
  readonly sessions: FlowerSessionStore;
  /** Where the transcripts are, safe to print and record: the `sessions.db` path, or the redacted URL. */
  readonly location: string;
  /** The run's name (see {@link runNameFor}). */
  readonly runName: string;
  /** SQLite in the run directory, or a PostgreSQL server. */
  readonly kind: RunStoreKind;
  /** The server, for the run's other stores; null for SQLite. */
  readonly server: RunStoreServer | null;
  /**
   * Makes one round trip to the server (creating its tables on first use). For SQLite it opens a file that
   * waits for its first use (`openOnFirstUse`), else resolves at once.
   *
   * @throws FlowerError (`STORE_UNREADABLE`) naming the redacted location.
   */
  ready(): Promise<void>;
  /** Closes every store opened here. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the stores of a run, without a round trip (a server is first contacted by {@link RunStores.ready}
 * or the first use; {@link openCheckedRunStores} does both). The SQLite default is a `PruningSessionStore`
 * on `<runDir>/sessions.db`; a `postgres://` location a {@link PgFlowerStore} with the same layers and the
 * tool journal on the server.
 *
 * @throws FlowerError (`USAGE`) for a location that is neither a PostgreSQL URL nor this run's `sessions.db`
 *   (the message shows it with its password replaced by `***`).
 */
export function openRunStores(options: OpenRunStoresOptions): RunStores {
  const runDir = resolve(options.runDir);
  const workspace = resolve(options.workspace);
  const location = (options.location ?? '').trim();
  const layers = options.layers ?? {};
  const prune = new PrunePolicy({ keepDenials: layers.keepDenials ?? 1 });
  const runName = runNameFor(location === '' ? null : location, workspace, options.env ?? {});
  if (location !== '' && isPgLocation(location)) {
    const parsed = parsePgLocation(location);
    const sessions = new PgFlowerStore(location, workspace, {
      trim: layers.trim ?? false,
      ephemeral: layers.ephemeral ?? true,
      prune,
      journal: true,
      deferSpills: true,
    });
    return {
      sessions,
      location: parsed.redacted,
      runName,
      kind: 'postgres',
      server: {
        location,
        schema: parsed.schema,
        run: runName,
        named: givenRunName(location, options.env ?? {}) !== null,
      },
      ready: () => sessions.ready(),
      close: () => sessions.close(),
    };
  }
  storeKindOf(location, runDir);
  const path = join(runDir, SESSIONS_DB);
  // Made as `Runtime` makes it (a new one in a git work tree ignores itself) before the file is created in it.
  createRunDirectory(runDir);
  const sessions = new PruningSessionStore(path, workspace, {
    trim: layers.trim ?? false,
    ephemeral: layers.ephemeral ?? true,
    prune,
    journal: true,
    deferSpills: true,
    openOnFirstUse: options.openOnFirstUse === true,
  });
  return {
    sessions,
    location: path,
    runName,
    kind: 'sqlite',
    server: null,
    // A file made to open on first use opens here; its error (a damaged file, no driver) rejects.
    ready: () =>
      new Promise<void>((resolve) => {
        sessions.open();
        resolve();
      }),
    close: () => {
      sessions.close();
      return Promise.resolve();
    },
  };
}

/**
 * Which kind of store `location` names, without opening anything: `postgres` for a PostgreSQL URL, `sqlite`
 * for nothing (null or empty) or the path of `<runDir>/sessions.db`.
 *
 * @throws FlowerError (`USAGE`) for anything else, or a PostgreSQL URL that does not parse (shown with its
 *   password replaced by `***`).
 */
export function storeKindOf(location: string | null | undefined, runDir: string): RunStoreKind {
  const given = (location ?? '').trim();
  if (given === '') return 'sqlite';
  if (isPgLocation(given)) {
    parsePgLocation(given);
    return 'postgres';
  }
  const path = join(resolve(runDir), SESSIONS_DB);
  if (resolve(given) !== path) throw notAStore(given, path);
  return 'sqlite';
}

/**
 * {@link openRunStores}, then {@link RunStores.ready}: what a command calls before it writes anything, so an
 * unreachable server or a wrong password stops it with one line and nothing changed. The stores are closed
 * again when the check fails.
 */
export async function openCheckedRunStores(options: OpenRunStoresOptions): Promise<RunStores> {
  const stores = openRunStores(options);
  try {
    await stores.ready();
  } catch (error) {
    await stores.close().catch(() => undefined);
    throw error;
  }
  return stores;
}

/**
 * The run's name in a shared server: several hosts share one run through the server although their run
 * directories differ, so the server's rows of a run are scoped by it. `?run=<name>` in the location, else
 * `FLOWER_RUN`, else the workspace folder's base name.
 */
export function runNameFor(location: string | null, workspace: string, env: StoreEnv): string {
  return givenRunName(location, env) ?? basename(resolve(workspace));
}

/** The run's name as the user gave it (`?run=`, else `FLOWER_RUN`), or null when none was given. */
function givenRunName(location: string | null, env: StoreEnv): string | null {
  if (location !== null && isPgLocation(location)) {
    try {
      const given = new URL(location).searchParams.get('run')?.trim() ?? '';
      if (given !== '') return given;
    } catch {
      // A malformed location is refused where it is parsed; here it only names no run.
    }
  }
  return runSetting(env);
}

function notAStore(location: string, path: string): FlowerError {
  const shown = redactPgLocation(location);
  return new FlowerError(
    'USAGE',
    `The store ${shown} is neither a PostgreSQL URL nor this run's ${SESSIONS_DB}: write ` +
      `postgres://user:password@host:5432/database, or leave it out to keep the transcripts in ${path}.`,
  );
}

/**
 * The store's tool journal, for the permission gate to write each call to before it runs, or null when the
 * store keeps none. Asked of the store rather than of its class, so a store on any database serves.
 */
export function journalOf(store: FlowerSessionStore): CallRecorder | null {
  const journal = (store as { toolJournal?: unknown }).toolJournal;
  return typeof journal === 'object' &&
    journal !== null &&
    typeof (journal as CallRecorder).record === 'function'
    ? (journal as CallRecorder)
    : null;
}

/** The store's "spill files written" wait (trim with deferred spills), or null when it has none. */
export function spillsOf(store: FlowerSessionStore): (() => Promise<void>) | null {
  const wait = (store as { spillsWritten?: unknown }).spillsWritten;
  return typeof wait === 'function' ? () => (wait as () => Promise<void>).call(store) : null;
}
