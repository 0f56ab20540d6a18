/**
 * The run manifest, `<runDir>/manifest.json`: one row per finished step, across processes (runtime.md §4,
 * decision 5). Written synchronously, so the signal rescue can use it: lock, re-read, merge by `run`, write
 * a temp file and rename. An unreadable file is quarantined, never overwritten (the reference treated it as
 * empty and erased the history).
 *
 * @module
 */
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { durationS, type StepResult } from './step-result.js';

/** The manifest's file name inside the run directory. */
export const MANIFEST_FILE = 'manifest.json';

/** One manifest row: the step result in snake_case, plus the derived `duration_s` and the `run` marker. */
export interface ManifestRow {
  step: string;
  session_id: string | null;
  ok: boolean;
  cost_usd: number;
  num_turns: number;
  text: string;
  error: string | null;
  started_at: number;
  ended_at: number;
  attempts: number;
  errors: string[];
  resumed: boolean;
  retired: string[];
  context: number;
  duration_s: number;
  run: string;
}

/** Lock timing: a lock older than `staleMs` is taken over; after `waitMs` the write goes ahead unlocked. */
export interface ManifestLockOptions {
  staleMs?: number;
  waitMs?: number;
}

/** The row for `result` written by the run `runId`. */
export function manifestRow(result: StepResult, runId: string): ManifestRow {
  return {
    step: result.step,
    session_id: result.sessionId,
    ok: result.ok,
    cost_usd: result.costUsd,
    num_turns: result.numTurns,
    text: result.text,
    error: result.error,
    started_at: result.startedAt,
    ended_at: result.endedAt,
    attempts: result.attempts,
    errors: [...result.errors],
    resumed: result.resumed,
    retired: [...result.retired],
    context: result.context,
    duration_s: durationS(result),
    run: runId,
  };
}

/** The manifest's rows; [] when the file is missing or unreadable (this never quarantines). */
export function readManifest(runDir: string): ManifestRow[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(runDir, MANIFEST_FILE), 'utf8'));
    return Array.isArray(parsed) ? (parsed as ManifestRow[]) : [];
  } catch {
    return [];
  }
}

/**
 * Writes this run's rows into `<runDir>/manifest.json`: rows of other runs keep their order, this run's
 * rows (in `results` order) replace any it wrote before. Returns the manifest path. Throws only on I/O
 * failure of the write itself.
 */
export function writeManifest(
  runDir: string,
  runId: string,
  results: readonly StepResult[],
  options: ManifestLockOptions = {},
): string {
  const path = join(runDir, MANIFEST_FILE);
  const lock = acquireLock(`${path}.lock`, options.staleMs ?? 30_000, options.waitMs ?? 2_000);
  try {
    const others = readOthers(path, runId);
    const rows = [...others, ...results.map((result) => manifestRow(result, runId))];
    // Unlocked writers (lock wait exceeded) use their own temp file so two of them never share one.
    const temporary = lock === null ? `${path}.tmp-${runId}` : `${path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(rows, null, 2)}\n`, 'utf8');
    renameSync(temporary, path);
    return path;
  } finally {
    if (lock !== null) releaseLock(lock);
  }
}

// Re-read on every write: a cached copy would erase rows a parallel process added meanwhile.
function readOthers(path: string, runId: string): unknown[] {
  if (!existsSync(path)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed)) {
    quarantine(path, runId);
    return [];
  }
  return parsed.filter(
    (row) => !(typeof row === 'object' && row !== null && (row as { run?: unknown }).run === runId),
  );
}

function quarantine(path: string, runId: string): void {
  let target = `${path}.corrupt-${runId}`;
  for (let suffix = 2; existsSync(target); suffix++) target = `${path}.corrupt-${runId}-${suffix}`;
  renameSync(path, target);
}

function acquireLock(lockPath: string, staleMs: number, waitMs: number): string | null {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const descriptor = openSync(lockPath, 'wx', 0o600);
      writeSync(descriptor, `${process.pid}\n`);
      closeSync(descriptor);
      return lockPath;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
    if (isStale(lockPath, staleMs)) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Another writer took it over first; try again.
      }
      continue;
    }
    if (Date.now() >= deadline) return null;
    sleepSync(5);
  }
}

function isStale(lockPath: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(lockPath).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function releaseLock(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone (taken over as stale): nothing to release.
  }
}

// Synchronous on purpose: the manifest write runs inside signal handlers, where awaiting is not possible.
function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}
