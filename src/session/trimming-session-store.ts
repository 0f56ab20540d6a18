/**
 * `TrimmingSessionStore`: the SQLite session store with layers 4a (expire) and 4b (trim) applied to what
 * `load()` returns. Storage is never changed; only the copy handed to the SDK for a resume is rewritten.
 *
 * @module
 */
import { resolve } from 'node:path';
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { expire } from './expire.js';
import { emptyLoadReport, type LoadReport } from './load-report.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { storeKey } from './store-key.js';
import { SpillQueue } from './spill-queue.js';
import { indexTools, type ToolIndex } from './tool-index.js';
import { SpillNames, trim } from './trim.js';
import { TrimPolicy } from './trim-policy.js';
import type { Transform } from './transform.js';

/** Layer settings shared by the rewriting stores. A boolean turns a layer on or off with default settings. */
export interface LayerOptions {
  /** Layer 4b (default on in the class; `Runtime` passes its own choice). */
  trim?: TrimPolicy | boolean;
  /** Layer 4a (default on). */
  ephemeral?: EphemeralPolicy | boolean;
  /** As for {@link SqliteSessionStore}. */
  busyTimeoutMs?: number;
  /**
   * Write spill files after `load()` returns instead of before (default false). Whoever lets the model run
   * tools must then await {@link TrimmingSessionStore.spillsWritten} first: the runtime does, in its gate.
   */
  deferSpills?: boolean;
}

/**
 * A {@link SqliteSessionStore} whose `load()` first expires stale ephemeral Bash results, then spills old
 * large tool results to `<workspace>/<spillDirname>/` and points at them (docs/context-economy.md). What it
 * did is kept per store key and read with {@link TrimmingSessionStore.reportFor}.
 */
export class TrimmingSessionStore extends SqliteSessionStore {
  /** Absolute workspace path; spill files go under it so the agent's `Read` reaches them. */
  readonly workspace: string;
  /** The trim layer's settings. */
  readonly trimPolicy: TrimPolicy;
  /** The expiry layer's settings. */
  readonly ephemeralPolicy: EphemeralPolicy;

  readonly #reports = new Map<string, LoadReport>();
  /** Spill names of earlier loads, so a resume of the same transcript does not hash every result again. */
  readonly #spillNames = new SpillNames();
  /** The tool index of each array this store's `transform` returned, for the layers stacked on it. */
  readonly #indexes = new WeakMap<readonly SessionStoreEntry[], ToolIndex>();
  /** Spill files pointed at but not yet written (`deferSpills`), or null when trim writes them itself. */
  readonly #spills: SpillQueue | null;

  constructor(path: string, workspace: string, options: LayerOptions = {}) {
    super(path, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs });
    this.workspace = resolve(workspace);
    this.trimPolicy = asPolicy(options.trim, TrimPolicy);
    this.ephemeralPolicy = asPolicy(options.ephemeral, EphemeralPolicy);
    this.#spills = options.deferSpills === true ? new SpillQueue() : null;
  }

  /**
   * Resolves once every spill file an earlier `load()` pointed at is on disk (at once without
   * `deferSpills`). A file that could not be written is named in that load's report; this never rejects.
   */
  spillsWritten(): Promise<void> {
    return this.#spills === null ? Promise.resolve() : this.#spills.settled();
  }

  /** What the last `load()` of `key` did, or `null` when `key` was not loaded through this store. */
  override reportFor(key: SessionKey): LoadReport | null {
    const report = this.#reports.get(storeKey(key));
    return report === undefined ? null : { ...report, errors: [...report.errors] };
  }

  /** Expire, then trim (expire first, so a small glance result is expired rather than spilled). */
  protected override async transform(
    key: SessionKey,
    entries: SessionStoreEntry[],
  ): Promise<SessionStoreEntry[]> {
    let current = await super.transform(key, entries);
    this.#reports.set(storeKey(key), emptyLoadReport());
    if (!this.ephemeralPolicy.enabled && !this.trimPolicy.enabled) return current;
    // One walk over the tool blocks for both layers; expire keeps every entry in place, so it still holds.
    const index = indexTools(current);
    if (this.ephemeralPolicy.enabled) {
      current = this.applyLayer(key, 'expire', current, (input) =>
        expire(input, this.ephemeralPolicy, index),
      );
    }
    if (this.trimPolicy.enabled) {
      const spills = this.#spills;
      current = this.applyLayer(key, 'trim', current, (input) =>
        trim(input, this.trimPolicy, {
          workspace: this.workspace,
          names: this.#spillNames,
          index,
          ...(spills === null
            ? {}
            : { queue: { spills, onError: (message) => this.mergeReport(key, { errors: [message] }) } }),
        }),
      );
      // Start writing now, off the load's path: the runtime awaits them before the first tool call.
      spills?.flush();
    }
    this.#indexes.set(current, index);
    return current;
  }

  /**
   * The tool index shared by this store's layers for `entries`, an array its `transform` returned, so a
   * layer stacked on it does not walk every block again; undefined for any other array.
   */
  protected toolIndexOf(entries: readonly SessionStoreEntry[]): ToolIndex | undefined {
    return this.#indexes.get(entries);
  }

  /**
   * Runs one layer and records its counters. A layer that throws leaves its input as it was and adds a line
   * to the report's `errors`: a rewriting layer must never be the reason a session cannot be resumed.
   */
  protected applyLayer(
    key: SessionKey,
    name: string,
    entries: SessionStoreEntry[],
    layer: (entries: SessionStoreEntry[]) => Transform,
  ): SessionStoreEntry[] {
    try {
      const result = layer(entries);
      this.mergeReport(key, result.report);
      return result.entries;
    } catch (error) {
      this.mergeReport(key, {
        errors: [`${name}: ${error instanceof Error ? error.message : String(error)}`],
      });
      return entries;
    }
  }

  /** Adds a transform's counters to the report of `key` (for layers stacked on this one). */
  protected mergeReport(key: SessionKey, part: Partial<LoadReport>): void {
    const name = storeKey(key);
    const report = this.#reports.get(name) ?? emptyLoadReport();
    const { errors, ...counts } = part;
    for (const [field, value] of Object.entries(counts) as Array<[keyof typeof counts, number]>) {
      report[field] += value;
    }
    if (errors !== undefined) report.errors.push(...errors);
    this.#reports.set(name, report);
  }
}

/** A policy instance is used as is; a boolean `b` becomes `new Policy({enabled: b})`; nothing, the defaults. */
export function asPolicy<P>(
  value: P | boolean | undefined,
  Policy: new (options?: { enabled?: boolean }) => P,
): P {
  if (value === undefined) return new Policy();
  if (typeof value === 'boolean') return new Policy({ enabled: value });
  return value;
}
