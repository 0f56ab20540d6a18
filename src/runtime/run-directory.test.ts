import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createRunDirectory } from './run-directory.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-run-directory-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

describe('createRunDirectory', () => {
  test('a run directory created inside a git work tree ignores everything in it, itself included', () => {
    git(root, 'init', '-q');
    writeFileSync(join(root, 'README.md'), 'hello\n');
    const runDir = join(root, 'runs');

    expect(createRunDirectory(runDir)).toBe(true);
    writeFileSync(join(runDir, 'sessions.db'), 'transcripts');
    mkdirSync(join(runDir, 'claude'));
    writeFileSync(join(runDir, 'claude', 'x.json'), '{}');

    expect(readFileSync(join(runDir, '.gitignore'), 'utf8')).toBe('*\n');
    git(root, 'add', '-A');
    // Only the user's own file is staged: nothing of the run directory.
    expect(git(root, 'diff', '--cached', '--name-only').trim()).toBe('README.md');
    expect(git(root, 'status', '--porcelain')).not.toContain('runs');
  });

  test('outside a git work tree no .gitignore is written', () => {
    const runDir = join(root, 'runs');
    expect(createRunDirectory(runDir)).toBe(false);
    expect(existsSync(runDir)).toBe(true);
    expect(existsSync(join(runDir, '.gitignore'))).toBe(false);
  });

  test('a run directory that already exists is left as it is (a removed .gitignore stays removed)', () => {
    git(root, 'init', '-q');
    const runDir = join(root, 'runs');
    mkdirSync(runDir);
    expect(createRunDirectory(runDir)).toBe(false);
    expect(existsSync(join(runDir, '.gitignore'))).toBe(false);
  });

  test('a file in the way is not overwritten and nothing throws', () => {
    const blocked = join(root, 'runs');
    writeFileSync(blocked, 'mine');
    expect(createRunDirectory(blocked)).toBe(false);
    expect(readFileSync(blocked, 'utf8')).toBe('mine');
  });
});
