/**
 * Whether a directory is inside a git work tree: worktree isolation needs one (docs/workbench.md).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';

/**
 * True when `git -C dir rev-parse --is-inside-work-tree` prints `true`. False on any failure: git missing,
 * not a repository, inside `.git`, or an unreadable directory.
 */
export function isGitWorkTree(dir: string): boolean {
  try {
    const output = execFileSync('git', ['-C', dir, 'rev-parse', '--is-inside-work-tree'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
    return output.trim() === 'true';
  } catch {
    return false;
  }
}
