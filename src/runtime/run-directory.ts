/**
 * Creating a run directory. It holds full transcripts (`sessions.db`), the event log and tool output — far
 * too much, and too private, for a commit — and by default it sits inside the user's workspace, which is
 * often a git work tree. So when flower creates it inside a work tree, it also writes a `.gitignore` of `*`
 * there: `git add -A` then leaves the whole folder out (the `.gitignore` itself included). A run directory
 * that already exists is left as it is: a user who removed that file meant to.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGitWorkTree } from '../workbench/git-work-tree.js';

/** The file written, and what it says: ignore everything in this folder. */
export const RUN_DIRECTORY_IGNORE = '.gitignore';
const IGNORE_EVERYTHING = '*\n';

/**
 * Makes `runDir` (and its parents) when missing; when this call created it and it lies inside a git work
 * tree, writes `<runDir>/.gitignore` with `*`. Never throws: a directory that cannot be made is reported
 * later, with a message that says what to do, by whoever writes into it first.
 *
 * @returns whether the `.gitignore` was written.
 */
export function createRunDirectory(runDir: string): boolean {
  let created: string | undefined;
  try {
    created = mkdirSync(runDir, { recursive: true });
  } catch {
    return false;
  }
  if (created === undefined || !isGitWorkTree(runDir)) return false;
  try {
    // 'wx': a file someone put there in the meantime is theirs.
    writeFileSync(join(runDir, RUN_DIRECTORY_IGNORE), IGNORE_EVERYTHING, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}
