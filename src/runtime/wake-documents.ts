/**
 * What {@link wakeState} reads of the frozen brief and goal: is the brief complete, how many checks has the
 * goal — through the `Brief` and `Goal` documents themselves (docs/go-path.md), so wake
 * detection and the clarify step never disagree on whether a brief is complete.
 *
 * @module
 */
import { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';

/** True when the brief at `path` exists and has all four sections with content (`Brief.complete()`). */
export function briefComplete(path: string): boolean {
  return Brief.load(path)?.complete() ?? false;
}

/** The number of items in the goal's checklist at `path`; 0 when it is missing or has no checklist. */
export function goalCheckCount(path: string): number {
  return Goal.load(path)?.checks.length ?? 0;
}
