/**
 * `TrimmingSessionStore`: the SQLite session store with layers 4a (expire) and 4b (trim) applied to what
 * `load()` returns. Storage is never changed; only the copy handed to the SDK for a resume is rewritten.
 *
 * @module
 */
import { resolve } from 'node:path';
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { expireLayer } from './expire-layer.js';
import type { LoadReport } from './load-report.js';
import { LoadPipeline } from './load-pipeline.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import type { StoreLayer } from './store-layer.js';
import { trimLayer } from './trim-layer.js';
import { TrimPolicy } from './trim-policy.js';

/** Layer settings shared by the rewriting stores. A boolean turns a layer on or off with default settings. */
export interface LayerOptions {
  /** Layer 4b (default on in the class; `Runtime` passes its own choice). */
  trim?: TrimPolicy | boolean;
  /** Layer 4a (default on). */
  ephemeral?: EphemeralPolicy | boolean;
  /** As for {@link SqliteSessionStore}. */
  busyTimeoutMs?: number;
  /** As for {@link SqliteSessionStore} (default false). */
  openOnFirstUse?: boolean;
  /**
   * Write spill files after `load()` returns instead of before (default false). Whoever lets the model run
   * tools must then await {@link TrimmingSessionStore.spillsWritten} first: the runtime does, in its gate.
   */
  deferSpills?: boolean;
}

/**
 * A {@link SqliteSessionStore} whose `load()` first expires stale ephemeral Bash results, then spills old
 * large tool results to `<workspace>/<spillDirname>/` and points at them (docs/context-economy.md). A thin
 * preset: the layers are {@link expireLayer} and {@link trimLayer}, run by the same engine as
 * `layeredStore()`. What they did is kept per store key and read with {@link TrimmingSessionStore.reportFor}.
 */
export class TrimmingSessionStore extends SqliteSessionStore {
  /** Absolute workspace path; spill files go under it so the agent's `Read` reaches them. */
  readonly workspace: string;
  /** The trim layer's settings. */
  readonly trimPolicy: TrimPolicy;
  /** The expiry layer's settings. */
  readonly ephemeralPolicy: EphemeralPolicy;

  readonly #deferSpills: boolean;
  /** Built on first use, so a subclass's {@link TrimmingSessionStore.presetLayers} sees its own fields. */
  #pipeline: LoadPipeline | null = null;

  constructor(path: string, workspace: string, options: LayerOptions = {}) {
    super(path, {
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
      openOnFirstUse: options.openOnFirstUse === true,
    });
    this.workspace = resolve(workspace);
    this.trimPolicy = asPolicy(options.trim, TrimPolicy);
    this.ephemeralPolicy = asPolicy(options.ephemeral, EphemeralPolicy);
    this.#deferSpills = options.deferSpills === true;
  }

  /** The layers each `load()` runs, in order. */
  get layers(): readonly StoreLayer[] {
    return this.#layered().layers;
  }

  /**
   * Resolves once every spill file an earlier `load()` pointed at is on disk (at once without
   * `deferSpills`). A file that could not be written is named in that load's report; this never rejects.
   */
  spillsWritten(): Promise<void> {
    return this.#pipeline === null ? Promise.resolve() : this.#pipeline.settled();
  }

  /** What the last `load()` of `key` did, or `null` when `key` was not loaded through this store. */
  override reportFor(key: SessionKey): LoadReport | null {
    return this.#pipeline === null ? null : this.#pipeline.reportFor(key);
  }

  /**
   * This preset's layers, in order: expire, then trim (expire first, so a small glance result is expired
   * rather than spilled). Called once, on first use.
   */
  protected presetLayers(): StoreLayer[] {
    return [
      expireLayer(this.ephemeralPolicy),
      trimLayer(this.trimPolicy, { workspace: this.workspace, deferSpills: this.#deferSpills }),
    ];
  }

  /** Runs the preset's layers over what the base store's `transform` returns. */
  protected override async transform(
    key: SessionKey,
    entries: SessionStoreEntry[],
  ): Promise<SessionStoreEntry[]> {
    const stored = await super.transform(key, entries);
    return this.#layered().run(key, stored, this);
  }

  #layered(): LoadPipeline {
    this.#pipeline ??= new LoadPipeline(this.presetLayers());
    return this.#pipeline;
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
