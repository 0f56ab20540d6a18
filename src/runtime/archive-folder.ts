/**
 * Archive folders `<into>/<YYYYmmdd-HHMMSS>[-n]/` (decisions.md D1, docs/continuity.md): where `--new` moves
 * the old lineage, brief, goal and Q&A log. Files are moved, never deleted, and names never collide (the
 * reference's one-second names overwrote each other, decisions.md D315).
 *
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** `YYYYmmdd-HHMMSS` in local time. */
export function archiveStamp(now: Date = new Date()): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return (
    `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-` +
    `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`
  );
}

/**
 * Creates and returns `<into>/<YYYYmmdd-HHMMSS>`, or `…-2`, `-3`… when taken. Each candidate is claimed
 * with a non-recursive `mkdir`, so two processes archiving in the same second never share a folder.
 */
export function claimArchiveFolder(into: string, now: Date = new Date()): string {
  const parent = resolve(into);
  mkdirSync(parent, { recursive: true });
  const stamp = archiveStamp(now);
  for (let counter = 1; ; counter++) {
    const folder = join(parent, counter === 1 ? stamp : `${stamp}-${counter}`);
    try {
      mkdirSync(folder);
      return folder;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Moves `file` into `folder` under its own name (`name-2`, `-3`… when taken) and returns the new path, or
 * `null` when `file` does not exist. Across file systems it copies, then removes the original.
 */
export function moveIntoFolder(file: string, folder: string): string | null {
  const source = resolve(file);
  if (!existsSync(source)) return null;
  const wanted = join(folder, basename(source));
  let target = wanted;
  for (let counter = 2; existsSync(target); counter++) target = `${wanted}-${counter}`;
  try {
    renameSync(source, target);
  } catch (error) {
    // An isolated workbench may sit on another disk than the run directory.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(source, target);
    unlinkSync(source);
  }
  return target;
}
