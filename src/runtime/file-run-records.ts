/**
 * `FileRunRecords`: a run's records as files in its run directory — `manifest.json` and `lineage.json`,
 * each changed under its lock file, re-read, written to a temporary file that is renamed into place, and
 * quarantined (renamed aside, never overwritten) when unreadable. The default, and what every run without a
 * PostgreSQL store keeps (docs/runtime.md).
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { isRecord } from '../internal/is-record.js';
import { LockedJsonFile, type JsonFileState, type LockTiming } from '../internal/locked-json-file.js';
import { LINEAGE_FILE } from './lineage.js';
import { MANIFEST_FILE, readManifest, type ManifestRow } from './manifest.js';
import type { LineageChange, RecordsUpdate, RowsChange, RunRecords } from './run-records.js';

/** The records of the run directory `runDir`, in its files. Synchronous throughout. */
export class FileRunRecords implements RunRecords {
  readonly kind = 'file';
  /** The run directory, resolved. */
  readonly location: string;
  readonly #manifest: LockedJsonFile;
  readonly #lineage: LockedJsonFile;

  constructor(runDir: string, timing: LockTiming = {}) {
    this.location = resolve(runDir);
    this.#manifest = new LockedJsonFile(join(this.location, MANIFEST_FILE), {
      ...timing,
      accepts: Array.isArray,
    });
    this.#lineage = new LockedJsonFile(join(this.location, LINEAGE_FILE), { ...timing, accepts: isRecord });
  }

  readRows(): ManifestRow[] {
    return readManifest(this.location);
  }

  /** An unreadable manifest is moved to `manifest.json.corrupt-<tag>` first (its rows then start empty). */
  updateRows(tag: string, change: RowsChange): RecordsUpdate<ManifestRow[]> {
    const { written, quarantined } = this.#manifest.update(tag, (current) =>
      change([...((current ?? []) as ManifestRow[])]),
    );
    return { written, quarantined };
  }

  readLineage(): JsonFileState {
    return this.#lineage.read();
  }

  updateLineage(tag: string, change: LineageChange): RecordsUpdate<Record<string, unknown>> {
    const { written, quarantined } = this.#lineage.update(tag, change);
    return { written, quarantined };
  }

  close(): void {
    // Nothing stays open between calls.
  }
}
