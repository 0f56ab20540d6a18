/**
 * The run manifest, `<runDir>/manifest.json`: one row per finished step, across processes
 * (docs/continuity.md, decisions.md D5). Written synchronously, so the signal rescue can use it: lock,
 * re-read, merge by `run`, write a temp file and rename. An unreadable file is quarantined, never overwritten
 * (the reference treated it as empty and erased the history). The protocol itself is the shared
 * `LockedJsonFile` (src/internal), also behind `lineage.json`.
 *
 * @module
 */
import { join } from 'node:path';
import { LockedJsonFile, type LockTiming } from '../internal/locked-json-file.js';
import type { CheckRecord, StaleMark } from './check-record.js';
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
  /** On a verdict row whose goal has machine checks: flower's own result (docs/goal-checks.md). */
  checks?: CheckRecord;
  /** Only on a row a budget stopped: the cap's scope, its size and what was spent against it (additive). */
  budget_stop?: { scope: 'step' | 'run'; cap_usd: number; spent_usd: number };
  /**
   * Where the row's spend went (additive): responses priced as stored, on the main thread and in each
   * subagent with the dispatch that started it. Absent on a row that stored no response.
   */
  cost_by?: {
    main_usd: number;
    subagents: Array<{ agent: string; type: string; description: string; task: string; cost_usd: number }>;
  };
}

/** Lock timing: a lock older than `staleMs` is taken over; after `waitMs` the write goes ahead unlocked. */
export type ManifestLockOptions = LockTiming;

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
    ...(result.checks === undefined ? {} : { checks: result.checks }),
    ...(result.budgetStop
      ? {
          budget_stop: {
            scope: result.budgetStop.scope,
            cap_usd: result.budgetStop.capUsd,
            spent_usd: Math.round(result.budgetStop.spentUsd * 1e6) / 1e6,
          },
        }
      : {}),
    ...(result.costBy === undefined
      ? {}
      : {
          cost_by: {
            main_usd: result.costBy.mainUsd,
            subagents: result.costBy.subagents.map(({ usd, ...dispatch }) => ({
              ...dispatch,
              cost_usd: usd,
            })),
          },
        }),
  };
}

/**
 * Marks the last verdict row of step `work` (its name before `/verdict#`) stale when its recorded conclusion
 * is ACHIEVED and `stale` is given, or clears the mark when `stale` is null; rows without a check record are
 * left alone. Returns true when a row was changed. Never quarantines: an unreadable manifest changes nothing.
 */
export function markVerdictStale(runDir: string, work: string, stale: StaleMark | null): boolean {
  const file = manifestFile(runDir);
  if (file.read().kind !== 'parsed') return false;
  let changed = false;
  file.update('verify', (current) => {
    const rows = [...((current ?? []) as ManifestRow[])];
    const at = lastVerdictIndex(rows, work);
    const row = at === -1 ? undefined : rows[at];
    if (row?.checks === undefined) return undefined;
    if (stale !== null && row.checks.result === 'ACHIEVED') {
      rows[at] = { ...row, checks: { ...row.checks, stale } };
      changed = true;
    } else if (stale === null && row.checks.stale !== undefined) {
      const { stale: _cleared, ...kept } = row.checks;
      rows[at] = { ...row, checks: kept };
      changed = true;
    }
    return changed ? rows : undefined;
  });
  return changed;
}

/** The index of the last verdict row of step `work` (`<work>/verdict#<n>`), or -1. */
export function lastVerdictIndex(rows: readonly ManifestRow[], work: string): number {
  const prefix = `${work}/verdict#`;
  for (let index = rows.length - 1; index >= 0; index--) {
    if (rows[index]?.step.startsWith(prefix) === true) return index;
  }
  return -1;
}

/** The manifest's rows; [] when the file is missing or unreadable (this never quarantines). */
export function readManifest(runDir: string): ManifestRow[] {
  const state = manifestFile(runDir).read();
  return state.kind === 'parsed' ? (state.value as ManifestRow[]) : [];
}

/**
 * Writes this run's rows into `<runDir>/manifest.json`: rows of other runs keep their order, this run's
 * rows (in `results` order) replace any it wrote before. An unparseable file is first moved to
 * `manifest.json.corrupt-<runId>`. Returns the manifest path. Throws only on I/O failure of the write itself.
 */
export function writeManifest(
  runDir: string,
  runId: string,
  results: readonly StepResult[],
  options: ManifestLockOptions = {},
): string {
  const file = manifestFile(runDir, options);
  file.update(runId, (current) => mergeRunRows((current ?? []) as unknown[], runId, results));
  return file.path;
}

/**
 * The rows after the run `runId` recorded `results`: rows of other runs keep their order, this run's rows
 * (in `results` order) replace any it wrote before. What every manifest write does, in either record store.
 */
export function mergeRunRows(
  current: readonly unknown[],
  runId: string,
  results: readonly StepResult[],
): ManifestRow[] {
  return mergeRows(
    current,
    runId,
    results.map((result) => manifestRow(result, runId)),
  );
}

/** The rows after the run `runId` recorded `rows` (see {@link mergeRunRows}). */
export function mergeRows(
  current: readonly unknown[],
  runId: string,
  rows: readonly ManifestRow[],
): ManifestRow[] {
  const others = current.filter((row) => !isRowOf(row, runId)) as ManifestRow[];
  return [...others, ...rows];
}

function manifestFile(runDir: string, options: ManifestLockOptions = {}): LockedJsonFile {
  return new LockedJsonFile(join(runDir, MANIFEST_FILE), { ...options, accepts: Array.isArray });
}

function isRowOf(row: unknown, runId: string): boolean {
  return typeof row === 'object' && row !== null && (row as { run?: unknown }).run === runId;
}

/**
 * The stale mark on the last verdict of step `work`, with that verdict's check record; null when the last
 * verdict is not marked stale (or there is none). What the next wake reports.
 */
export function staleVerdict(runDir: string, work: string): { record: CheckRecord; stale: StaleMark } | null {
  const rows = readManifest(runDir);
  const row = rows[lastVerdictIndex(rows, work)];
  const record = row?.checks;
  if (record?.stale === undefined) return null;
  return { record, stale: record.stale };
}
