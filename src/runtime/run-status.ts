/**
 * Where a run stands, read from its files alone: the manifest's steps and cost, the judge's verdicts and the
 * last context size from the event log, the brief and goal from the workbench, and whether a flower process
 * is driving it now (`processes.json`, else the event log's last writer). `flower status` prints it.
 *
 * Strictly read-only, like {@link wakeState}: no file or folder is created, no lock taken, nothing
 * quarantined, and the session store is read through an in-memory copy, so looking leaves no `-wal`/`-shm`
 * files behind. A person may look at a run as often as they like without changing it.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CostBreakdown } from './cost-breakdown.js';
import { eventLogStatus, readRecentEvents, type LoggedEvent } from './event-log.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';
import { isLive, PROCESSES_FILE, RunProcesses } from './run-processes.js';
import { runCostBreakdown } from './run-cost.js';
import type { RunRecordsSnapshot } from './run-records.js';
import { readParked, type ParkedState } from './usage-limit.js';
import { wakeState } from './wake-state.js';

/** One step of the manifest, as `status` shows it. */
export interface StepStatus {
  step: string;
  /** `running`: the row was written while the step was still going (a rescue, or a live run). */
  state: 'ok' | 'failed' | 'running';
  costUsd: number;
  turns: number;
  /** Context in tokens when the step ended; 0 when unknown. */
  context: number;
  error: string | null;
  sessionId: string | null;
  /** Epoch seconds. */
  startedAt: number;
  /** Epoch seconds; 0 while running. */
  endedAt: number;
}

/** One verdict of the judge, from the event log. */
export interface VerdictStatus {
  round: number;
  state: string;
  reason: string;
  /** Epoch seconds. */
  at: number;
}

/** The flower process driving the run now. */
export interface LiveHolder {
  pid: number;
  host: string | null;
  /** Epoch seconds it started, when known. */
  since: number | null;
  /** It drives the `go` workflow. */
  go: boolean;
}

/** What {@link runStatus} found. */
export interface RunStatus {
  workspace: string;
  runDir: string;
  /** The run directory holds a run (a manifest, an event log, a process record or a session store). */
  found: boolean;
  /** A flower process is driving the run now. */
  live: boolean;
  holder: LiveHolder | null;
  /** Epoch seconds of the event log's last line, else of the manifest's latest step time (`once` keeps no log), or null. */
  lastActivity: number | null;
  /** The brief is confirmed (all four sections). */
  briefConfirmed: boolean;
  /** Checks in the goal's checklist. */
  goalChecks: number;
  /** Wakes so far. */
  wakes: number;
  steps: StepStatus[];
  verdicts: VerdictStatus[];
  /** The manifest's total: the sum of its rows. */
  costUsd: number;
  /** The last known context: tokens and, when the log says, the window. */
  context: { tokens: number; window: number | null } | null;
  /** The run is parked at a usage limit (`parked.json`): until when, and which step; else null. */
  parked: ParkedState | null;
  /**
   * Where the money went, from the session store: every priced response once, by role, step, session and
   * subagent dispatch (largest first); null when the run has no readable store.
   */
  spend: CostBreakdown | null;
}

/** Options of {@link runStatus}. */
export interface RunStatusOptions {
  /** The role of a step label (the workflow's naming); by default the label before its first `#` or `/`. */
  roleOf?: (step: string) => string;
  /**
   * The run's records read from where they live (`readRunRecords(records)`): PostgreSQL's rows and lineage
   * instead of `manifest.json` and `lineage.json`. The run directory's files by default.
   */
  records?: RunRecordsSnapshot;
  /**
   * The live holder of the run's lease on a server, when the run is there: another host's driver, which this
   * host's process records cannot show. Used when they show none.
   */
  serverHolder?: LiveHolder | null;
}

/** The files whose presence means a run has been here. */
const RUN_FILES = [MANIFEST_FILE, 'events.jsonl', PROCESSES_FILE, 'sessions.db'];

/** How many verdicts are kept (the latest). */
const SHOWN_VERDICTS = 20;

/** Where the run of `workspace` (its run directory `runDir`) stands. Never writes, never throws. */
export function runStatus(workspace: string, runDir: string, options: RunStatusOptions = {}): RunStatus {
  const records = options.records;
  const found =
    RUN_FILES.some((file) => existsSync(join(runDir, file))) ||
    (records !== undefined && (records.rows.length > 0 || records.lineage !== null));
  const wake = wakeState(workspace, {
    runDir,
    ...(records === undefined ? {} : { lineage: records.lineage }),
  });
  const rows = records?.rows ?? readManifest(runDir);
  const steps: StepStatus[] = rows.map((row) => ({
    step: row.step,
    state: row.ended_at === 0 ? 'running' : row.ok ? 'ok' : 'failed',
    costUsd: row.cost_usd,
    turns: row.num_turns,
    context: row.context,
    error: row.error,
    sessionId: row.session_id,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  }));
  const log = eventLogStatus(runDir);
  const holder = liveHolder(runDir, log) ?? options.serverHolder ?? null;
  const verdicts = readRecentEvents(runDir, {
    limit: SHOWN_VERDICTS,
    accept: (event) => event.kind === 'verdict',
  }).flatMap(verdictOf);
  return {
    workspace,
    runDir,
    found,
    live: holder !== null,
    holder,
    lastActivity: log.lastAt ?? latestStepTime(steps),
    briefConfirmed: wake.waking,
    goalChecks: wake.checks,
    wakes: wake.woke,
    steps,
    verdicts,
    costUsd: rows.reduce((sum, row) => sum + (Number.isFinite(row.cost_usd) ? row.cost_usd : 0), 0),
    context: lastContext(runDir, steps, wake.context),
    parked: readParked(runDir),
    spend: runCostBreakdown(runDir, {
      ...(options.roleOf === undefined ? {} : { roleOf: options.roleOf }),
      ...(records === undefined ? {} : { rows }),
    }),
  };
}

/** The live process driving the run: the `go` driver first, any live recorded process next, the log's writer last. */
function liveHolder(runDir: string, log: ReturnType<typeof eventLogStatus>): LiveHolder | null {
  const live = new RunProcesses(runDir, 'status').records().filter((record) => isLive(record));
  const record = live.find((candidate) => candidate.go) ?? live[0];
  if (record !== undefined) return { pid: record.pid, host: record.host, since: record.since, go: record.go };
  if (log.live && log.pid !== null) return { pid: log.pid, host: null, since: null, go: false };
  return null;
}

function latestStepTime(steps: readonly StepStatus[]): number | null {
  const times = steps.map((step) => Math.max(step.startedAt, step.endedAt)).filter((time) => time > 0);
  return times.length === 0 ? null : Math.max(...times);
}

function verdictOf(event: LoggedEvent): VerdictStatus[] {
  if (event.kind !== 'verdict') return [];
  return [{ round: event.round, state: event.state, reason: event.reason, at: event.at }];
}

/** The last `context` event in the log; else the work session's or the last step's size. */
function lastContext(
  runDir: string,
  steps: readonly StepStatus[],
  workContext: number,
): RunStatus['context'] {
  const [event] = readRecentEvents(runDir, {
    limit: 1,
    accept: (candidate) => candidate.kind === 'context',
  });
  if (event !== undefined && event.kind === 'context' && event.tokens > 0)
    return { tokens: event.tokens, window: event.window };
  if (workContext > 0) return { tokens: workContext, window: null };
  const last = [...steps].reverse().find((step) => step.context > 0);
  return last === undefined ? null : { tokens: last.context, window: null };
}
