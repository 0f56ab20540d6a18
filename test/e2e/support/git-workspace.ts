/**
 * A small git repository for end-to-end tests: one commit, a README and a folder `x` that must survive.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Turns `workspace` into a git repository with one commit ("first commit of the fixture"). */
export function gitWorkspace(workspace: string): void {
  writeFileSync(join(workspace, 'README.md'), 'hello\n');
  mkdirSync(join(workspace, 'x'), { recursive: true });
  writeFileSync(join(workspace, 'x', 'keep.txt'), 'keep\n');
  git(workspace, 'init', '-q');
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-qm', 'first commit of the fixture');
}

/** Runs git in `cwd` with a fixed identity and returns its output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  });
}
