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
}

/**
 * A {@link SqliteSessionStore} whose `load()` first expires stale ephemeral Bash results, then spills old
 * large tool results to `<workspace>/<spillDirname>/` and points at them (cs §6). What it did is kept per
 * store key and read with {@link TrimmingSessionStore.reportFor}.
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

  constructor(path: string, workspace: string, options: LayerOptions = {}) {
    super(path, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs });
    this.workspace = resolve(workspace);
    this.trimPolicy = asPolicy(options.trim, TrimPolicy);
    this.ephemeralPolicy = asPolicy(options.ephemeral, EphemeralPolicy);
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
    if (this.ephemeralPolicy.enabled) {
      current = this.applyLayer(key, 'expire', current, (input) => expire(input, this.ephemeralPolicy));
    }
    if (this.trimPolicy.enabled) {
      current = this.applyLayer(key, 'trim', current, (input) =>
        trim(input, this.trimPolicy, { workspace: this.workspace, names: this.#spillNames }),
      );
    }
    return current;
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
