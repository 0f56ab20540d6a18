/**
 * Just enough reading of the frozen brief and goal for {@link wakeState}: is the brief complete, how many
 * checks has the goal. The full `Brief` and `Goal` documents (roles-and-mechanisms.md §2.2, §3.1) build on
 * the same section parser and headings.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listItems, parseSections } from '../roles/parse-sections.js';
import { NOTES, NOTES_ZH } from '../workbench/workbench-path.js';

/** Brief headings: English (decision 1), then the Python flower's Chinese ones (rm §2.2). */
export const BRIEF_HEADINGS = {
  goal: ['Goal', '目标'],
  accept: ['Acceptance criteria', 'Acceptance', '验收标准', '验收条件', '验收'],
  bounds: ['Boundaries', 'Out of scope', '边界', '范围边界', '不做什么'],
  unknowns: [
    'Unknowns and assumptions',
    'Unknowns & assumptions',
    'Unknowns',
    'Assumptions',
    '未知与假设',
    '未知项与假设',
    '未知项',
    '已知未知',
    '假设',
    '未知',
  ],
} as const satisfies Record<string, readonly string[]>;

/** Goal headings (rm §3.1). */
export const GOAL_HEADINGS = {
  statement: ['Goal', '目标', '完成标志'],
  checks: ['Checklist', 'Checks', '判定清单', '判定条件', '验收清单', '检查项', '判定'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The path of a note in `notesDir`: the English file, or the Chinese one when only it exists (decision 1).
 * The English path when neither exists.
 */
export function noteFile(notesDir: string, which: 'brief' | 'goal' | 'qaLog'): string {
  const english = join(notesDir, NOTES[which]);
  if (existsSync(english)) return english;
  const chinese = join(notesDir, NOTES_ZH[which]);
  return existsSync(chinese) ? chinese : english;
}

/** True when the brief at `path` exists and has all four sections with content. */
export function briefComplete(path: string): boolean {
  const text = readText(path);
  if (text === null) return false;
  const sections = parseSections(text, mutable(BRIEF_HEADINGS));
  return (Object.keys(BRIEF_HEADINGS) as Array<keyof typeof BRIEF_HEADINGS>).every(
    (key) => (sections[key] ?? '') !== '',
  );
}

/** The number of items in the goal's checklist at `path`; 0 when it is missing or has no checklist. */
export function goalCheckCount(path: string): number {
  const text = readText(path);
  if (text === null) return 0;
  const checks = parseSections(text, mutable(GOAL_HEADINGS)).checks;
  return checks === undefined ? 0 : listItems(checks).length;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function mutable<K extends string>(headings: Record<K, readonly string[]>): Record<K, string[]> {
  return headings as Record<K, string[]>;
}
