/**
 * `PgFlowerStore`: the store a run on PostgreSQL uses, with the same load layers as the SQLite default
 * (`PruningSessionStore`): expire, trim with spills, prune (relink, heal), and journal recovery from a tool
 * journal kept on the same server.
 *
 * @module
 */
import { resolve } from 'node:path';

import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import type { EphemeralPolicy } from './ephemeral-policy.js';
import { EphemeralPolicy as EphemeralPolicyClass } from './ephemeral-policy.js';
import { expireLayer } from './expire-layer.js';
import type { FlowerSessionStore } from './flower-session-store.js';
import { agentOf, journalLayer } from './journal-layer.js';
import { toolUseIds } from './journal-recovery.js';
import { LoadPipeline } from './load-pipeline.js';
import type { LoadReport } from './load-report.js';
import { PgSessionStore } from './pg-session-store.js';
import type { PgSessionStoreOptions } from './pg-session-store.js';
import { PgToolJournal } from './pg-tool-journal.js';
import { pruneLayer } from './prune-layer.js';
import { PrunePolicy } from './prune-policy.js';
import type { LayerBase, StoreLayer } from './store-layer.js';
import type { ToolJournalReader } from './tool-journal.js';
import { trimLayer } from './trim-layer.js';
import { TrimPolicy } from './trim-policy.js';
import { asPolicy } from './trimming-session-store.js';

/** Options for {@link PgFlowerStore}: the layers' settings, as for `PruningSessionStore`, and the server's. */
export interface PgFlowerStoreOptions extends PgSessionStoreOptions {
  /** Trim (default on, as in the SQLite preset; `Runtime` passes its own choice). */
  trim?: TrimPolicy | boolean;
  /** Expire stale ephemeral results (default on). */
  ephemeral?: EphemeralPolicy | boolean;
  /** Prune (default on). */
  prune?: PrunePolicy | boolean;
  /** Keep the tool journal on the server and recover from it (default false, as in the SQLite preset). */
  journal?: boolean;
  /** Write spill files after `load()` returns (see `TrimmingSessionStore`); default false. */
  deferSpills?: boolean;
}

/**
 * A {@link FlowerSessionStore} on PostgreSQL. Composed, not inherited: a {@link PgSessionStore} holds the
 * transcripts, a {@link PgToolJournal} (with `journal: true`) the gate's calls, and a {@link LoadPipeline}
 * runs the layers, in the SQLite preset's order (expire → trim → prune → journal), over what the store
 * returns. Storage is never changed by a load. Every answer to flower's own questions is a promise
 * (docs/decisions.md D430).
 */
export class PgFlowerStore implements FlowerSessionStore {
  /** The transcripts, as stored. */
  readonly base: PgSessionStore;
  /** The journal of calls the gate let through, or null without `journal: true`. */
  readonly toolJournal: PgToolJournal | null;
  /** The location with every credential replaced by `***`. */
  readonly location: string;
  /** Absolute workspace path; spill files go under it. */
  readonly workspace: string;
  /** The trim layer's settings. */
  readonly trimPolicy: TrimPolicy;
  /** The expiry layer's settings. */
  readonly ephemeralPolicy: EphemeralPolicy;
  /** The prune layer's settings. */
  readonly prunePolicy: PrunePolicy;

  readonly #pipeline: LoadPipeline;

  /**
   * Connects lazily; {@link PgFlowerStore.ready} makes the first round trip.
   *
   * @throws FlowerError (`USAGE`) when `location` is not a PostgreSQL URL or names an invalid schema.
   */
  constructor(location: string, workspace: string, options: PgFlowerStoreOptions = {}) {
    const { trim, ephemeral, prune, journal, deferSpills, ...server } = options;
    this.base = new PgSessionStore(location, server);
    this.location = this.base.location;
    this.workspace = resolve(workspace);
    this.trimPolicy = asPolicy(trim, TrimPolicy);
    this.ephemeralPolicy = asPolicy(ephemeral, EphemeralPolicyClass);
    this.prunePolicy = asPolicy(prune, PrunePolicy);
    this.toolJournal = journal === true ? new PgToolJournal(location, { schema: this.base.schema }) : null;
    this.#pipeline = new LoadPipeline([
      expireLayer(this.ephemeralPolicy),
      trimLayer(this.trimPolicy, { workspace: this.workspace, deferSpills: deferSpills === true }),
      pruneLayer(this.prunePolicy),
      journalLayer(this.prunePolicy.orphanText),
    ]);
  }

  /** The layers each `load()` runs, in order. */
  get layers(): readonly StoreLayer[] {
    return this.#pipeline.layers;
  }

  // ---- SDK SessionStore protocol ------------------------------------------------------------------------

  /** Stores a batch of transcript entries (see {@link PgSessionStore.append}). */
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    return this.base.append(key, entries);
  }

  /**
   * The transcript at `key` as the model should see it on resume: the stored one passed through every layer.
   * The journal's rows for the transcript's thread are read first (the layers run synchronously); a journal
   * that cannot be read costs this load its recovery, named in the load report, never the resume.
   */
  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const stored = await this.base.load(key);
    if (stored === null) return null;
    let reader: ToolJournalReader | null = null;
    let failure: string | null = null;
    const agentId = agentOf(key);
    if (this.toolJournal !== null && agentId !== undefined) {
      try {
        reader = await this.toolJournal.readerFor(key.sessionId, agentId, toolUseIds(stored));
      } catch (error) {
        failure = `journal: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    const base: LayerBase = {
      append: (at, entries) => this.base.append(at, entries),
      load: (at) => this.base.load(at),
      toolJournal: reader,
    };
    const entries = this.#pipeline.run(key, stored, base);
    if (failure !== null) this.#pipeline.note(key, { errors: [failure] });
    return entries;
  }

  /** Main transcripts of a project with their storage mtime (epoch ms). */
  listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    return this.base.listSessions(projectKey);
  }

  /** The summary of every main transcript of a project. */
  listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]> {
    return this.base.listSessionSummaries(projectKey);
  }

  /** Deletes the transcript at `key` (a main key cascades to its subagents and summary). */
  delete(key: SessionKey): Promise<void> {
    return this.base.delete(key);
  }

  /** The subpaths stored under a session, sorted. */
  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.base.listSubkeys(key);
  }

  // ---- flower's own questions ---------------------------------------------------------------------------

  /** True when the main transcript `projectKey/sessionId` exists. */
  hasSession(projectKey: string, sessionId: string): Promise<boolean> {
    return this.base.hasSession(projectKey, sessionId);
  }

  /** The main transcript's last context size in tokens, or 0. */
  lastContext(projectKey: string, sessionId: string, scan?: number): Promise<number> {
    return this.base.lastContext(projectKey, sessionId, scan);
  }

  /** Every project key with a stored transcript, sorted. */
  projects(): Promise<string[]> {
    return this.base.projects();
  }

  /** What the last `load()` of `key` did, or `null` when `key` was not loaded through this store. */
  reportFor(key: SessionKey): LoadReport | null {
    return this.#pipeline.reportFor(key);
  }

  /** Moves every session of one project key to another (see {@link PgSessionStore.rekey}). */
  rekey(fromProjectKey: string, toProjectKey: string): Promise<number> {
    return this.base.rekey(fromProjectKey, toProjectKey);
  }

  /** Nothing to fold on a server. */
  checkpoint(): Promise<void> {
    return this.base.checkpoint();
  }

  /** Resolves once every spill file an earlier `load()` pointed at is on disk; never rejects. */
  spillsWritten(): Promise<void> {
    return this.#pipeline.settled();
  }

  /**
   * One round trip to the server (creating the tables on first use), so a command learns that the server is
   * unreachable or refuses the credentials before it writes anything.
   *
   * @throws FlowerError (`STORE_UNREADABLE`) naming the redacted location.
   */
  async ready(): Promise<void> {
    await this.base.ready();
    await this.toolJournal?.ready();
  }

  /** Waits for pending writes and spill files, then closes every connection. Idempotent. */
  async close(): Promise<void> {
    await this.#pipeline.settled();
    await Promise.all([this.base.close(), this.toolJournal?.close()]);
  }
}
