import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { excludeWorktrees } from './exclude-worktrees.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flower-exclude-'));
  made.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

function status(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

describe('excludeWorktrees', () => {
  test('hides Claude Code worktrees from the main checkout, once, without touching tracked files', () => {
    const dir = repository();
    mkdirSync(join(dir, '.claude', 'worktrees', 'agent-1'), { recursive: true });
    writeFileSync(join(dir, '.claude', 'worktrees', 'agent-1', 'made.txt'), 'x');
    expect(status(dir)).toContain('.claude/worktrees/agent-1/made.txt');

    expect(excludeWorktrees(dir)).toBe(true);
    expect(excludeWorktrees(dir)).toBe(true);
    expect(status(dir)).toBe('');
    const exclude = readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((line) => line === '/.claude/worktrees/')).toHaveLength(1);
  });

  test('anchors the pattern at the workspace when it is a folder inside the repository', () => {
    const dir = repository();
    const workspace = join(dir, 'app');
    mkdirSync(join(workspace, '.claude', 'worktrees', 'agent-2'), { recursive: true });
    writeFileSync(join(workspace, '.claude', 'worktrees', 'agent-2', 'made.txt'), 'x');
    expect(excludeWorktrees(workspace)).toBe(true);
    expect(status(dir)).toBe('');
  });

  test('says false outside a repository and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flower-exclude-'));
    made.push(dir);
    expect(excludeWorktrees(dir)).toBe(false);
  });
});
