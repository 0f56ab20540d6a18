/**
 * The handoff document on disk (docs/handoff.md, decisions.md D1 and D23):
 * `notes/handoff-<step>.md` in the workbench, one live document per step (the base name, so a chain of
 * reruns keeps one file), older generations moved to `notes/archive/handoff/<step>-<YYYYmmdd-HHMMSS>[-n].md`.
 * Nothing is overwritten or deleted: the reference's one-second archive names let two handoffs in the same
 * second erase each other (decisions.md D315), so a taken name gets `-1`, `-2`…
 *
 * The SHA-256 of what was written is returned so the runtime can record it in lineage; when a human edits
 * the document before the successor resumes, {@link handoffEdited} notices and the edited version prevails.
 *
 * @module
 */
import { randomBytes, createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { NOTES, NOTES_ZH } from '../workbench/workbench-path.js';
import { archiveStamp } from './archive-folder.js';
import { STEP_ALIASES } from './lineage-record.js';

/** Where older generations go, relative to the notes folder. */
export const HANDOFF_ARCHIVE = join('archive', 'handoff');

/** A handoff document just written. */
export interface SavedHandoff {
  /** Absolute path of `notes/handoff-<safe>.md`. */
  path: string;
  /** SHA-256 (hex) of the bytes written, for lineage (decisions.md D23). */
  sha256: string;
  /** Where the previous documents of this step were moved (empty when there were none). */
  archived: string[];
}

/** A handoff document read from disk. */
export interface LoadedHandoff {
  /** Absolute path of the file read (the English name, or the Python flower's Chinese one). */
  path: string;
  /** Its content. */
  text: string;
  /** SHA-256 (hex) of its bytes. */
  sha256: string;
}

/** Options of {@link saveHandoff}. */
export interface SaveHandoffOptions {
  /** The time in the archive name of a previous document; now by default. */
  now?: Date;
}

// A rerun or judge round of a step belongs to the step's one chain: `work#round2`, `work#retry1`,
// `work/verdict#3` and the Python flower's `干活·判定#3` all name the document of their step.
const ATTEMPT_SUFFIX = /(?:#round\d+|#retry\d+|\/verdict#\d+|·判定#\d+)$/u;
const UNSAFE = /[/\\:*?"<>|]/g;

/** The base step name: `name` without its `#round<N>`, `#retry<N>` and `/verdict#<N>` suffixes. */
export function handoffBaseName(step: string): string {
  let name = step;
  while (ATTEMPT_SUFFIX.test(name)) name = name.replace(ATTEMPT_SUFFIX, '');
  return name;
}

/** The file-name part for `step`: its base name minus `/\:*?"<>|`, trimmed; `step` when nothing is left. */
export function handoffSafeName(step: string): string {
  const safe = handoffBaseName(step).replace(UNSAFE, '').trim();
  return safe !== '' ? safe : 'step';
}

/** `handoff-<safe>.md`. */
export function handoffFileName(step: string): string {
  return `${NOTES.handoffPrefix}${handoffSafeName(step)}.md`;
}

/** SHA-256 (hex) of a text's UTF-8 bytes. */
export function sha256Of(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Writes `markdown` as `<notesDir>/handoff-<safe>.md`. A previous document of the step — the English one,
 * and a Chinese `交接-<safe>.md` left by the Python flower — is first moved to
 * `<notesDir>/archive/handoff/<safe>-<YYYYmmdd-HHMMSS>.md` (`-1`, `-2`… when taken). The new file appears
 * atomically (temporary file + rename), so a reader sees the old or the new document, never half of one.
 *
 * @throws the file-system error when the notes folder cannot be written; the previous document is then
 * still in place (or already safe in the archive).
 */
export function saveHandoff(
  notesDir: string,
  step: string,
  markdown: string,
  options: SaveHandoffOptions = {},
): SavedHandoff {
  const notes = resolve(notesDir);
  const safe = handoffSafeName(step);
  const path = join(notes, handoffFileName(step));
  mkdirSync(notes, { recursive: true });
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const bytes = Buffer.from(markdown, 'utf8');
  writeFileSync(temporary, bytes, { flag: 'wx' });
  const archived: string[] = [];
  try {
    const previous = [path, ...chineseCandidates(notes, step)].filter((file) => existsSync(file));
    if (previous.length > 0) {
      const archive = join(notes, HANDOFF_ARCHIVE);
      mkdirSync(archive, { recursive: true });
      const stamp = archiveStamp(options.now ?? new Date());
      for (const file of previous) archived.push(moveUnclaimed(file, archive, `${safe}-${stamp}`));
    }
    renameSync(temporary, path);
  } catch (error) {
    removeQuietly(temporary);
    throw error;
  }
  return { path, sha256: sha256Of(bytes), archived };
}

/**
 * The live handoff document of `step`: `<notesDir>/handoff-<safe>.md`, else the Python flower's
 * `交接-<safe>.md` (for the built-in steps also under their Chinese names, `交接-干活.md`), else `null`.
 */
export function loadHandoff(notesDir: string, step: string): LoadedHandoff | null {
  const notes = resolve(notesDir);
  for (const path of [join(notes, handoffFileName(step)), ...chineseCandidates(notes, step)]) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      continue;
    }
    return { path, text: bytes.toString('utf8'), sha256: sha256Of(bytes) };
  }
  return null;
}

/**
 * True when the document at `path` no longer has the hash recorded when flower wrote it: a human edited it,
 * and the successor must re-read it (decisions.md D23). A missing file is not an edit (there is nothing to
 * re-read); an unreadable one is treated as unchanged for the same reason.
 */
export function handoffEdited(path: string, sha256: string): boolean {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return false;
  }
  return sha256Of(bytes) !== sha256.toLowerCase();
}

// The Python flower's names for the step's document: `交接-<safe>.md`, and for the built-in steps the name it
// used for them (`work` was `干活`).
function chineseCandidates(notes: string, step: string): string[] {
  const safe = handoffSafeName(step);
  const names = [safe];
  for (const [chinese, english] of Object.entries(STEP_ALIASES)) if (english === safe) names.push(chinese);
  return names.map((name) => join(notes, `${NOTES_ZH.handoffPrefix}${name}.md`));
}

// Moves `file` to `<folder>/<stem>.md`, or `<stem>-1.md`, `-2`… when taken. The target is claimed with an
// exclusive create before the rename replaces the placeholder, so two writers in the same second never
// overwrite each other's archive copy.
function moveUnclaimed(file: string, folder: string, stem: string): string {
  for (let counter = 0; ; counter++) {
    const target = join(folder, counter === 0 ? `${stem}.md` : `${stem}-${counter}.md`);
    try {
      closeSync(openSync(target, 'wx'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      renameSync(file, target);
    } catch (error) {
      removeQuietly(target);
      throw error;
    }
    return target;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
