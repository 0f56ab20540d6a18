import { describe, expect, test } from 'vitest';
import { isInspectCommand } from './inspect-command.js';

/** [command, expected, why]. */
const TABLE: Array<[string, boolean, string]> = [
  // The glance set comes along.
  ['git status', true, 'a glance'],
  ['ls -la dist && cat README.md', true, 'a compound glance'],
  ['uname -a', true, 'where am I'],
  ['file dist/app', true, 'file is a glance already'],
  // Inspection commands.
  ['ldd dist/app', true, 'shared libraries'],
  ['ldd -v dist/app', true, 'verbose ldd'],
  ['otool -L dist/app', true, 'macOS libraries'],
  ['lipo -info dist/app', true, 'macOS architectures'],
  ['lipo -archs dist/app', true, 'another lipo query'],
  ['readelf -h dist/app', true, 'ELF header'],
  ['readelf -d dist/app', true, 'readelf never writes'],
  ['sha256sum dist/app', true, 'checksum'],
  ['shasum -a 256 dist/*.tar.gz', true, 'checksum of a glob'],
  ['md5sum dist/app', true, 'checksum'],
  ['sha256sum -c SHA256SUMS', true, 'verifying is a read'],
  ['node --version', true, 'a version'],
  ['./dist/app --version', true, 'the artifact’s version'],
  ['python3 --version 2>&1', true, 'version on stderr'],
  ['ldd --version', true, 'ldd’s own version'],
  // Mixed compounds.
  ['file dist/app && ldd dist/app', true, 'two inspections'],
  ['uname -m; file dist/app | head -1', true, 'glance, inspection, glance'],
  ['ldd dist/app 2>&1 | grep "not found"', true, 'inspection into a filter'],
  ["cat 'it''s' && readelf -h x", true, 'quoted words in a glance beside an inspection'],
  ['git status 2>&1 && sha256sum dist/* > /dev/null', true, 'descriptor duplication and /dev/null'],
  // Refused.
  ['', false, 'empty'],
  ['rm -rf dist', false, 'a write'],
  ['make && file dist/app', false, 'a build before the look'],
  ['file dist/app && rm dist/app', false, 'a harmless first command never excuses the second'],
  ['file dist/app\nrm dist/app', false, 'newline separates commands'],
  ['sha256sum dist/app > sums.txt', false, 'writes a file'],
  ['ldd dist/app > libs.txt', false, 'writes a file'],
  ['lipo dist/app -output thin', false, 'lipo writing'],
  ['lipo -create a b -output c', false, 'lipo creating'],
  ['lipo dist/app', false, 'lipo without a query'],
  ['otool -L -X dist/app', false, 'an option outside the display set'],
  ['ldd --nonsense dist/app', false, 'an unknown ldd option'],
  ['LD_PRELOAD=evil.so ldd dist/app', false, 'an assignment prefix runs code'],
  ['ldd $TARGET', false, 'a parameter may split into options'],
  ['./dist/app --version --install', false, 'anything besides --version'],
  ['./dist/app', false, 'running the artifact plainly'],
  ['$APP --version', false, 'an expanded program name'],
  ['eval --version', false, 'a builtin that evaluates'],
  ['source --version', false, 'a builtin that reads a file as commands'],
  ['exec --version', false, 'a builtin that replaces the shell'],
  ['r --version', false, 'zsh re-runs the last command'],
  ['node -version', false, 'single-dash is not the version form'],
  ['ls *.o; sha256sum dist/app', false, 'a glob inside a mixed line (fails closed)'],
  ['echo $(rm x); file y', false, 'command substitution'],
  ['file dist/app &', false, 'a background job'],
  ['cd dist && file app', false, 'no cd'],
  ['sha256sum dist/app 2> err.txt', false, 'writes stderr to a file'],
];

describe('isInspectCommand', () => {
  test.each(TABLE)('%j → %s (%s)', (command, expected) => {
    expect(isInspectCommand(command)).toBe(expected);
  });
});
