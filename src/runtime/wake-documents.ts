/**
 * What {@link wakeState} reads of the frozen brief and goal: is the brief complete, how many checks has the
 * goal — through the `Brief` and `Goal` documents themselves (docs/go-path.md), so wake
 * detection and the clarify step never disagree on whether a brief is complete.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import { NOTES, NOTES_ZH } from '../workbench/workbench-path.js';

/**
 * The path of a note in `notesDir`: the English file, or the Chinese one when only it exists
 * (decisions.md D1). The English path when neither exists.
 */
export function noteFile(notesDir: string, which: 'brief' | 'goal' | 'qaLog'): string {
  const english = join(notesDir, NOTES[which]);
  if (existsSync(english)) return english;
  const chinese = join(notesDir, NOTES_ZH[which]);
  return existsSync(chinese) ? chinese : english;
}

/** True when the brief at `path` exists and has all four sections with content (`Brief.complete()`). */
export function briefComplete(path: string): boolean {
  return Brief.load(path)?.complete() ?? false;
}

/** The number of items in the goal's checklist at `path`; 0 when it is missing or has no checklist. */
export function goalCheckCount(path: string): number {
  return Goal.load(path)?.checks.length ?? 0;
}
