import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { isPathInside, isPathInsideAny } from './path-inside.js';

describe('isPathInside', () => {
  test('accepts the directory itself and anything below it', () => {
    expect(isPathInside('/srv/app', '/srv/app')).toBe(true);
    expect(isPathInside('/srv/app/.flower/spill/a.txt', '/srv/app')).toBe(true);
    expect(isPathInside('/srv/app/x/../y', '/srv/app/')).toBe(true);
  });

  test('is a prefix test on path components, not on characters', () => {
    expect(isPathInside('/srv/app-old/file', '/srv/app')).toBe(false);
    expect(isPathInside('/srv/application', '/srv/app')).toBe(false);
  });

  test('rejects parents, siblings and escapes through ..', () => {
    expect(isPathInside('/srv', '/srv/app')).toBe(false);
    expect(isPathInside('/srv/app/../other', '/srv/app')).toBe(false);
  });

  test('accepts a name that merely starts with two dots', () => {
    expect(isPathInside('/srv/app/..hidden', '/srv/app')).toBe(true);
  });
});

describe('isPathInsideAny', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('sees through a symbolic link to the directory', () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-inside-')));
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(isPathInsideAny(join(dir, 'link', 'file.txt'), [join(dir, 'real')])).toBe(true);
    expect(isPathInsideAny(join(dir, 'real', 'file.txt'), [join(dir, 'link')])).toBe(true);
    expect(isPathInsideAny(join(dir, 'other', 'file.txt'), [join(dir, 'link')])).toBe(false);
  });
});
