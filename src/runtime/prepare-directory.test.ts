import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isFlowerError } from '../errors.js';
import { prepareDirectory } from './prepare-directory.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-prepare-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function failure(work: () => void): Error {
  try {
    work();
  } catch (error) {
    expect(isFlowerError(error) && error.code).toBe('CONFIG_INVALID');
    return error as Error;
  }
  throw new Error('expected a FlowerError');
}

describe('prepareDirectory', () => {
  test('creates a missing directory with its parents', () => {
    prepareDirectory(join(dir, 'a', 'b'), 'workspace', 'en');
    expect(existsSync(join(dir, 'a', 'b'))).toBe(true);
  });

  test('a file at the path or above it is named in one line, for the workspace and the run directory', () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'x');
    expect(failure(() => prepareDirectory(file, 'workspace', 'en')).message).toBe(
      `The workspace (-w) ${file} cannot be a directory: it, or a folder above it, is a file (EEXIST). ` +
        'Give a directory path; it is created when missing.',
    );
    expect(failure(() => prepareDirectory(join(file, 'runs'), 'runDir', 'en')).message).toContain(
      `The run directory (-r) ${join(file, 'runs')} cannot be a directory`,
    );
  });
});
