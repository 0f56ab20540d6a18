/**
 * The one rule for which file a fixed note is read from, used by the workbench and by wake detection alike,
 * so the two can never pick different files for the same note.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NotesFile } from './workbench.js';
import { NOTES, NOTES_ZH } from './workbench-path.js';

/**
 * The path of a fixed note in `notesDir`: the English name, or the Python flower's Chinese name when only
 * that file exists. The English path when neither exists, so new files are always written under it.
 */
export function notesFile(notesDir: string, which: NotesFile): string {
  const english = join(notesDir, NOTES[which]);
  if (existsSync(english)) return english;
  const chinese = join(notesDir, NOTES_ZH[which]);
  return existsSync(chinese) ? chinese : english;
}
