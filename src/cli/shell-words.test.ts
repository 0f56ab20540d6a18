import { describe, expect, test } from 'vitest';
import { shellWord, shellWords } from './shell-words.js';

describe('shellWords', () => {
  test('leaves plain words alone and quotes the rest so a shell reads them back', () => {
    expect(shellWords(['-w', '/tmp/my-work', 'run', './flows.js:main'])).toBe(
      '-w /tmp/my-work run ./flows.js:main',
    );
    expect(shellWords(['go', 'fix the tests'])).toBe("go 'fix the tests'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('')).toBe("''");
    expect(shellWord('$HOME;rm')).toBe("'$HOME;rm'");
  });
});
