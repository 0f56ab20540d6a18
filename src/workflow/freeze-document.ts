/**
 * Writing a frozen document (brief, goal) to the workbench: whole or not at all, through a temp file and a
 * rename, so a crash mid-write never leaves half a brief that the next run would read as the requirement.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Writes `text` to `path` atomically, creating the directory. Throws the file-system error. */
export function freezeDocument(path: string, text: string): void {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const temporary = join(
    directory,
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeFileSync(temporary, text, 'utf8');
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
