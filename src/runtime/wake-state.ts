/**
 * `wakeState()`: what a `flower` started in a workspace would continue — a confirmed brief, a goal with
 * checks, the sessions on record, the last context size (docs/continuity.md). The CLI shows it before asking
 * "continue from last time?". Strictly read-only: it creates no file or folder, takes no lock, quarantines
 * nothing and rewrites nothing, even for a moved or damaged run directory.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { notesFile } from '../workbench/notes-file.js';
import { workbenchPath } from '../workbench/workbench-path.js';
import { Lineage } from './lineage.js';
import { realOrResolved } from './lineage-workspace.js';
import { briefComplete, goalCheckCount } from './wake-documents.js';

/** The session store's file name inside the run directory. */
const SESSIONS_FILE = 'sessions.db';

/** Options of {@link wakeState}. */
export interface WakeStateOptions {
  /**
   * Run directory; default `<workspace>/runs` (decisions.md D3, D29); a relative path resolves against the
   * cwd.
   */
  runDir?: string;
  /** Worktree isolation: the workbench is `<parent>/.flower-<name>` instead of `<workspace>/.flower`. */
  isolate?: boolean;
  /** The brief's file name in `notes/`; default `brief.md`, or `需求.md` when only that exists. */
  briefName?: string;
  /** The goal's file name in `notes/`; default `goal.md`, or `目标.md` when only that exists. */
  goalName?: string;
  /**
   * The lineage document read from where the run's records live (PostgreSQL; `null` when it has none),
   * instead of `<runDir>/lineage.json`.
   */
  lineage?: Record<string, unknown> | null;
}

/** What {@link wakeState} found. */
export interface WakeState {
  /** True when the brief exists with all four sections: the run has something to continue. */
  waking: boolean;
  /** Path of the brief (it may not exist). */
  brief: string;
  /** Path of the goal (it may not exist). */
  goal: string;
  /** Number of checks in the goal's checklist; 0 without a goal. */
  checks: number;
  /** Wakes so far, from the lineage. */
  woke: number;
  /** Step → session id, from the lineage. */
  steps: Record<string, string>;
  /** Context size in tokens of the `work` session when last seen; 0 when unknown. */
  context: number;
}

/** The wake state of `workspace` (default: the cwd). Never writes, never throws for a missing directory. */
export function wakeState(workspace = '.', options: WakeStateOptions = {}): WakeState {
  const root = realOrResolved(workspace);
  const runDir = options.runDir === undefined ? join(root, 'runs') : resolve(options.runDir);
  const notes = join(workbenchPath(root, { isolate: options.isolate ?? false }), 'notes');
  const brief = options.briefName === undefined ? notesFile(notes, 'brief') : join(notes, options.briefName);
  const goal = options.goalName === undefined ? notesFile(notes, 'goal') : join(notes, options.goalName);
  const lineage = Lineage.open(runDir, root, {
    readonly: true,
    ...(options.lineage === undefined ? {} : { document: options.lineage }),
  });
  const workSession = lineage.steps['work'];
  const keys = [lineage.projectKey, ...(lineage.rekey === null ? [] : [lineage.rekey.from])];
  return {
    waking: briefComplete(brief),
    brief,
    goal,
    checks: goalCheckCount(goal),
    woke: lineage.woke,
    steps: { ...lineage.steps },
    context: workSession === undefined ? 0 : lastContext(join(runDir, SESSIONS_FILE), keys, workSession),
  };
}

/**
 * The work session's last context size, from the store opened read-only. A moved workspace whose sessions
 * were not re-keyed yet is looked up under its old key too. 0 when the store is missing or unreadable.
 */
function lastContext(path: string, projectKeys: readonly string[], sessionId: string): number {
  if (!existsSync(path)) return 0;
  let store: SqliteSessionStore | null = null;
  try {
    // An in-memory copy when the store was closed cleanly: looking must leave no -wal/-shm file behind.
    store = new SqliteSessionStore(path, { readonly: true, inMemoryCopy: true });
    for (const key of projectKeys) {
      const context = store.lastContext(key, sessionId);
      if (context > 0) return context;
    }
    return 0;
  } catch {
    return 0;
  } finally {
    store?.close();
  }
}
