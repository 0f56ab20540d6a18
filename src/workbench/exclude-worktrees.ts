/**
 * Keeps the worktrees of isolated workers out of the main checkout's `git status`. Claude Code creates a
 * worker's worktree under `<workspace>/.claude/worktrees/agent-<id>` (observed with the bundled CLI), which
 * the main checkout would otherwise list as untracked: the coordinator's next `git status` glance would show
 * it, and a careless `git add -A` would stage it. The rule goes into the repository's own
 * `info/exclude` — never into a tracked `.gitignore` — so no file of the user's changes.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

/** The pattern Claude Code's worktrees match, relative to the repository root. */
export const WORKTREES_PATTERN = '/.claude/worktrees/';

/**
 * Adds {@link WORKTREES_PATTERN} to `<git dir>/info/exclude` of the repository holding `workspace`, once.
 * Returns false when it could not (not a repository, unwritable); isolation still works then, only the
 * main checkout's status shows the worktrees.
 */
export function excludeWorktrees(workspace: string): boolean {
  try {
    const root = git(workspace, ['rev-parse', '--show-toplevel']);
    const relative = git(workspace, ['rev-parse', '--git-path', 'info/exclude']);
    const file = isAbsolute(relative) ? relative : join(workspace, relative);
    const prefix = git(workspace, ['rev-parse', '--show-prefix']);
    // The workspace may be a folder inside the repository: the pattern is anchored at the repository root.
    const pattern = `/${prefix}${WORKTREES_PATTERN.slice(1)}`;
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current.split(/\r?\n/).includes(pattern)) return true;
    mkdirSync(dirname(file), { recursive: true });
    const separator = current === '' || current.endsWith('\n') ? '' : '\n';
    appendFileSync(file, `${separator}# worktrees of flower's isolated workers\n${pattern}\n`);
    return root !== '';
  } catch {
    return false;
  }
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
}
