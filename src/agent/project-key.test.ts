import { describe, expect, test } from 'vitest';
import { projectKey } from './project-key.js';

// Expected values were computed with the functions copied from the SDK 0.3.334 bundle (decisions.md D19).
describe('projectKey', () => {
  test('replaces every non-alphanumeric character, a space included, with a dash', () => {
    expect(projectKey('/home/user/my project')).toBe('-home-user-my-project');
  });

  test('replaces a non-ASCII character with one dash per UTF-16 code unit', () => {
    expect(projectKey('/home/user/café/ws')).toBe('-home-user-caf--ws');
    expect(projectKey('/tmp/😀')).toBe('-tmp---');
  });

  test('keeps a key of exactly 200 characters as it is', () => {
    const path = `/${'a'.repeat(199)}`;
    expect(projectKey(path)).toBe(`-${'a'.repeat(199)}`);
  });

  test('cuts a path over 200 characters and appends the base-36 hash of the original path', () => {
    const path = `/home/user/${'deeply-nested-folder/'.repeat(10)}project`;
    expect(path.length).toBe(228);
    const key = projectKey(path);
    expect(key).toBe(
      '-home-user-deeply-nested-folder-deeply-nested-folder-deeply-nested-folder-deeply-nested-folder-' +
        'deeply-nested-folder-deeply-nested-folder-deeply-nested-folder-deeply-nested-folder-deeply-nested-folder--tskt4a',
    );
    expect(key.length).toBe(207);
  });
});
