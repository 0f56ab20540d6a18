/**
 * `RunRecords`: the one seam a run's records go through — the manifest rows (one per step and verdict) and
 * the lineage document (which session each step last used). Files in the run directory by default
 * (`manifest.json`, `lineage.json`, see {@link FileRunRecords}); tables in the PostgreSQL store's schema
 * when the sessions live there (`PgRunRecords`), so a run shared by several hosts is one place
 * (docs/scaling.md, docs/decisions.md D440, D441).
 *
 * Methods return `T | Promise<T>`: the file implementation stays synchronous (the manifest is written from
 * signal handlers, where awaiting is impossible), PostgreSQL is asynchronous; callers that serve both
 * `await` (docs/decisions.md D440).
 *
 * @module
 */
import { isRecord } from '../internal/is-record.js';
import type { JsonFileState } from '../internal/locked-json-file.js';
import { FileRunRecords } from './file-run-records.js';
import { manifestRow, mergeRows, type ManifestRow } from './manifest.js';
import { PgRunRecords, type PgRecordsTarget } from './pg-run-records.js';
import type { StepResult } from './step-result.js';

/** A change to the manifest rows: the new rows, or `undefined` to write nothing. */
export type RowsChange = (rows: ManifestRow[]) => ManifestRow[] | undefined;

/** A change to the lineage document: the new document, or `undefined` to write nothing. */
export type LineageChange = (current: unknown) => Record<string, unknown> | undefined;

/** What an update did. */
export interface RecordsUpdate<T> {
  /** The value written, or `undefined` when the change chose not to write. */
  written: T | undefined;
  /** Where unreadable content was set aside before the change ran, and why; or `null`. */
  quarantined: { path: string; reason: string } | null;
}

/** Where a run's records live and how they are read and changed, atomically against other processes. */
export interface RunRecords {
  /** `file`: `manifest.json`/`lineage.json` in the run directory; `postgres`: tables in the store's schema. */
  readonly kind: 'file' | 'postgres';
  /** Where the records are, safe to print: the run directory, or the redacted location with the run name. */
  readonly location: string;
  /**
   * A server's records of a run whose name was given: its lineage is the run's whatever path a host sees the
   * workspace at (docs/decisions.md D455). Absent or false otherwise.
   */
  readonly named?: boolean;
  /** The manifest rows in order; `[]` when there are none or they cannot be read. Never changes anything. */
  readRows(): ManifestRow[] | Promise<ManifestRow[]>;
  /**
   * Re-reads the rows under a lock no other process or host can hold at the same time, passes them to
   * `change` and stores what it returns, all or nothing. `tag` (the caller's run id) names a quarantine copy.
   */
  updateRows(
    tag: string,
    change: RowsChange,
  ): RecordsUpdate<ManifestRow[]> | Promise<RecordsUpdate<ManifestRow[]>>;
  /** The lineage document as stored (`missing`, `parsed`, or `unreadable` with the reason). Never changes anything. */
  readLineage(): JsonFileState | Promise<JsonFileState>;
  /** Like {@link RunRecords.updateRows}, for the lineage document (`undefined` passed when there is none). */
  updateLineage(
    tag: string,
    change: LineageChange,
  ): RecordsUpdate<Record<string, unknown>> | Promise<RecordsUpdate<Record<string, unknown>>>;
  /** Releases what the records hold open (a connection pool it created). Idempotent. */
  close(): void | Promise<void>;
}

/** A run's records read at one moment: what status, analyze, the dashboard and the wake state take. */
export interface RunRecordsSnapshot {
  /** The manifest rows. */
  rows: ManifestRow[];
  /** The lineage document, or `null` when there is none (or it cannot be read). */
  lineage: Record<string, unknown> | null;
}

/**
 * The records of a run: its files in `runDir` when `pg` is null (the default, SQLite runs), else the rows
 * of the run `pg.run` in the server's schema `pg.schema`. The one factory the run's opener calls.
 *
 * @throws FlowerError (`USAGE`) when `pg.location` is not a `postgres://` URL.
 */
export function runRecordsFor(runDir: string, pg: PgRecordsTarget | null): RunRecords {
  return pg === null ? new FileRunRecords(runDir) : new PgRunRecords(pg);
}

/** Records this run's rows (see `mergeRunRows`) through `records`. */
export function writeRunRows(
  records: RunRecords,
  runId: string,
  results: readonly StepResult[],
): RecordsUpdate<ManifestRow[]> | Promise<RecordsUpdate<ManifestRow[]>> {
  // The rows of this moment: an asynchronous store runs the change later, when the results may have moved on.
  const rows = results.map((result) => manifestRow(result, runId));
  return records.updateRows(runId, (current) => mergeRows(current, runId, rows));
}

/** Reads the rows and the lineage of `records` (never changes anything). */
export async function readRunRecords(records: RunRecords): Promise<RunRecordsSnapshot> {
  const [rows, lineage] = await Promise.all([records.readRows(), records.readLineage()]);
  return {
    rows,
    lineage: lineage.kind === 'parsed' && isRecord(lineage.value) ? lineage.value : null,
  };
}
