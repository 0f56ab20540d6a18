import { describe, expect, test } from 'vitest';
import { isNewerVersion } from './newer-version.js';

describe('isNewerVersion', () => {
  test.each([
    ['0.2.0', '0.1.0'],
    ['0.1.1', '0.1.0'],
    ['1.0.0', '0.9.9'],
    ['0.10.0', '0.9.0'],
    ['1.0.0', '1.0.0-rc.1'],
    ['1.0.0-rc.2', '1.0.0-rc.1'],
    ['1.0.0-rc.10', '1.0.0-rc.9'],
    ['1.0.0-beta', '1.0.0-alpha'],
    ['1.0.0-alpha.1', '1.0.0-alpha'],
  ])('%s is newer than %s', (candidate, current) => {
    expect(isNewerVersion(candidate, current)).toBe(true);
    expect(isNewerVersion(current, candidate)).toBe(false);
  });

  test.each([
    ['0.1.0', '0.1.0'],
    ['0.1.0+build.5', '0.1.0'],
    ['not a version', '0.1.0'],
    ['0.2.0', 'garbage'],
    ['', '0.1.0'],
  ])('%s is not newer than %s', (candidate, current) => {
    expect(isNewerVersion(candidate, current)).toBe(false);
  });
});
