/**
 * `flower verify`'s work (docs/goal-checks.md): run every check of the current goal against the current tree
 * — in a clean copy, with no model and no credentials — and hold the run's last verdict to it: a failing
 * verify marks an ACHIEVED verdict stale in the manifest (the next wake says so), a passing one clears the
 * mark.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CheckRecord } from '../runtime/check-record.js';
import { MANIFEST_FILE, markVerdictStale } from '../runtime/manifest.js';
import { goalChecks } from '../roles/goal-checks.js';
import { Goal } from '../roles/goal.js';
import { benchFor } from '../workbench/bench-for.js';
import { isFailing, runGoalChecks } from './goal-check-round.js';
import { STEP_NAMES } from './step-names.js';

/** The git ref of the tree `flower verify` checked last. */
export const VERIFY_REF = 'refs/flower/verify';

/** Options of {@link verifyGoal}. */
export interface VerifyGoalOptions {
  /** The workspace whose tree is checked. */
  workspace: string;
  /** Its run directory; `<workspace>/runs` by default. */
  runDir?: string;
  /** The goal file; the workbench's `notes/goal.md` by default. */
  goalPath?: string;
  /** Clock in epoch seconds, for the stale mark. */
  now?: () => number;
}

/** What {@link verifyGoal} found. */
export type VerifyOutcome =
  | { kind: 'no-goal'; goalPath: string }
  | { kind: 'no-checks'; goalPath: string }
  | {
      kind: 'checked';
      goalPath: string;
      record: CheckRecord;
      /** True when every automated check passed (and none is malformed). */
      passed: boolean;
      /** The items whose checks failed or are malformed. */
      failed: string[];
      /** True when the last verdict's stale mark was set (failed) or cleared (passed) just now. */
      markChanged: boolean;
    };

/** Runs the goal's checks on the workspace's tree as it is now. Never asks a model; never throws for a bad goal. */
export async function verifyGoal(options: VerifyGoalOptions): Promise<VerifyOutcome> {
  const workspace = resolve(options.workspace);
  const runDir = resolve(options.runDir ?? join(workspace, 'runs'));
  const bench = benchFor(workspace);
  const goalPath = options.goalPath ?? bench.notesFile('goal');
  const goal = Goal.load(goalPath);
  if (goal === null || !goal.complete()) return { kind: 'no-goal', goalPath };
  if (!goalChecks(goal).active && goal.unverifiable.length === 0) return { kind: 'no-checks', goalPath };
  const record = await runGoalChecks(
    goal,
    // In memory: verify leaves the rounds' state (base, counter) alone.
    { workspace, runDir: null, exclude: [runDir, bench.root] },
    { negativeControl: false, ref: VERIFY_REF },
  );
  if (record === null) return { kind: 'no-checks', goalPath };
  const failed = record.items.filter(isFailing).map((item) => item.item);
  const passed = failed.length === 0;
  record.judge = '';
  record.result = passed ? 'PASSED' : 'FAILED';
  const now = options.now ?? (() => Date.now() / 1000);
  const markChanged =
    existsSync(join(runDir, MANIFEST_FILE)) &&
    markVerdictStale(runDir, STEP_NAMES.work, passed ? null : { at: now(), failed });
  return { kind: 'checked', goalPath, record, passed, failed, markChanged };
}
