import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { isGitWorkTree } from './git-work-tree.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('isGitWorkTree', () => {
  test('is true inside a real repository and its subdirectories, false elsewhere', () => {
    dir = mkdtempSync(join(tmpdir(), 'flower-git-'));
    const repo = join(dir, 'repo');
    const plain = join(dir, 'plain');
    mkdirSync(join(repo, 'src'), { recursive: true });
    mkdirSync(plain);
    execFileSync('git', ['init', '-q', repo]);
    expect(isGitWorkTree(repo)).toBe(true);
    expect(isGitWorkTree(join(repo, 'src'))).toBe(true);
    // Inside .git is a repository but not a work tree.
    expect(isGitWorkTree(join(repo, '.git'))).toBe(false);
    expect(isGitWorkTree(join(dir, 'missing'))).toBe(false);
    expect(isGitWorkTree(plain)).toBe(false);
  });
});
