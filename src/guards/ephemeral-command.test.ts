import { describe, expect, test } from 'vitest';
import { isReadOnlyAwkProgram } from './awk-program.js';
import { expansionsAllowed, parseArguments, usesAnyOption } from './command-options.js';
import { isEphemeral, MAX_GLANCE_LENGTH } from './ephemeral-command.js';
import { EPHEMERAL_CORPUS, EPHEMERAL_HOLES, type EphemeralHole } from './ephemeral-corpus.js';
import { GIT_SUBCOMMANDS } from './git-commands.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';
import { isReadOnlySedScript } from './sed-script.js';
import { parseShellCommand, type ShellWord } from './shell-words.js';

describe('isEphemeral', () => {
  test.each(EPHEMERAL_CORPUS)('classifies $command as $ephemeral', (row) => {
    expect(isEphemeral(row.command), row.why).toBe(row.ephemeral);
  });

  test('has a corpus of at least 150 commands, both allowed and denied', () => {
    expect(EPHEMERAL_CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(EPHEMERAL_CORPUS.filter((row) => row.ephemeral).length).toBeGreaterThanOrEqual(50);
    expect(EPHEMERAL_CORPUS.filter((row) => !row.ephemeral).length).toBeGreaterThanOrEqual(50);
  });

  test('has no duplicate commands in the corpus', () => {
    const commands = EPHEMERAL_CORPUS.map((row) => row.command);
    expect(commands.filter((command, index) => commands.indexOf(command) !== index)).toEqual([]);
  });

  test('keeps a denied row for every hole, and an allowed one for holes that over-denied', () => {
    const holes = Object.keys(EPHEMERAL_HOLES) as EphemeralHole[];
    const overDenied: EphemeralHole[] = ['quote-blind-split', 'find-newer'];
    for (const hole of holes) {
      const rows = EPHEMERAL_CORPUS.filter((row) => row.hole === hole);
      const expected = overDenied.includes(hole) ? true : false;
      expect(
        rows.some((row) => row.ephemeral === expected),
        hole,
      ).toBe(true);
    }
  });

  test('keeps an allowed row for every allowlisted verb and every git subcommand', () => {
    const verbs = new Set<string>();
    const gitSubcommands = new Set<string>();
    for (const row of EPHEMERAL_CORPUS.filter((candidate) => candidate.ephemeral)) {
      const parsed = parseShellCommand(row.command);
      if (!parsed.ok) continue;
      for (const command of parsed.commands) {
        const words = command.words.map((word) => word.text).filter((text) => !/^[A-Z_]+=/.test(text));
        verbs.add(words[0]?.toLowerCase() ?? '');
        const subcommand = words
          .slice(1)
          .find((text, index, rest) => !text.startsWith('-') && rest[index - 1] !== '-C');
        if (words[0]?.toLowerCase() === 'git' && subcommand !== undefined) gitSubcommands.add(subcommand);
      }
    }
    expect([...READ_ONLY_COMMANDS.keys()].filter((verb) => !verbs.has(verb))).toEqual([]);
    expect(GIT_SUBCOMMANDS.filter((subcommand) => !gitSubcommands.has(subcommand))).toEqual([]);
  });

  test('refuses a command longer than the limit even when it is a read', () => {
    const padded = `ls ${'a'.repeat(MAX_GLANCE_LENGTH)}`;
    expect(isEphemeral('ls a')).toBe(true);
    expect(isEphemeral(padded)).toBe(false);
  });

  test('refuses input that is not a string', () => {
    expect(isEphemeral(undefined as unknown as string)).toBe(false);
    expect(isEphemeral(42 as unknown as string)).toBe(false);
  });

  test('agrees with itself on a glance and the same glance behind a harmful segment', () => {
    const reads = EPHEMERAL_CORPUS.filter((row) => row.ephemeral).map((row) => row.command);
    for (const read of reads) {
      // After a comment only a newline starts the next command.
      for (const connector of read.includes('#') ? ['\n'] : ['&&', '||', ';', '|', '\n']) {
        expect(isEphemeral(`${read.trimEnd().replace(/;$/, '')} ${connector} rm -rf x`), read).toBe(false);
      }
    }
  });
});

describe('isReadOnlySedScript', () => {
  test('accepts print-only scripts', () => {
    for (const script of ['p', '1,20p', '$!N', ':a;N;$!ba;s/\\n/ /g', '/x/I,+3d', 'y/abc/xyz/', '0~2p']) {
      expect(isReadOnlySedScript(script), script).toBe(true);
    }
  });

  test('refuses writes, execution and unknown commands', () => {
    for (const script of ['w out', '1W out', 's/a/b/w out', 's/a/b/gw out', 'e ls', 's/a/b/e', '5 e', 'K']) {
      expect(isReadOnlySedScript(script), script).toBe(false);
    }
  });

  test('reads text and file arguments to the end of the line, not further', () => {
    expect(isReadOnlySedScript('a hello; w out')).toBe(true);
    expect(isReadOnlySedScript('a hello\nw out')).toBe(false);
    expect(isReadOnlySedScript('r notes.txt')).toBe(true);
  });
});

describe('isReadOnlyAwkProgram', () => {
  test('tells comparisons and regex alternation from redirections and pipes', () => {
    expect(isReadOnlyAwkProgram('$3 > 100 { print $1 }')).toBe(true);
    expect(isReadOnlyAwkProgram('/a|b/ || /c/')).toBe(true);
    expect(isReadOnlyAwkProgram('{ print "a > b" }')).toBe(true);
    expect(isReadOnlyAwkProgram('{ print $1 > "out" }')).toBe(false);
    expect(isReadOnlyAwkProgram('{ print $1 | "sort" }')).toBe(false);
  });

  test('reads a slash after an increment as a division', () => {
    expect(isReadOnlyAwkProgram('{ n++ / 2; m = 1 / 3 }')).toBe(true);
  });

  test('refuses a regex whose bracket expression holds a slash', () => {
    expect(isReadOnlyAwkProgram('/[/]/ { print }')).toBe(false);
  });

  test('refuses unterminated strings and regexes', () => {
    expect(isReadOnlyAwkProgram('{ print "a }')).toBe(false);
    expect(isReadOnlyAwkProgram('/abc')).toBe(false);
  });
});

function words(command: string): ShellWord[] {
  const parsed = parseShellCommand(command);
  if (!parsed.ok) throw new Error(parsed.reason);
  return [...(parsed.commands[0]?.words ?? [])];
}

describe('parseArguments', () => {
  test('takes a value only for listed letters, so an unknown option never swallows an operand', () => {
    const parsed = parseArguments(words('-c in out'), { valueLetters: 'f' });
    expect(parsed.positionals.map((word) => word.text)).toEqual(['in', 'out']);
  });

  test('reads attached and separate values and stops at --', () => {
    const parsed = parseArguments(words('-k2 -t , -- -o'), { valueLetters: 'kt' });
    expect(parsed.options).toEqual([
      { name: 'k', long: false, value: '2' },
      { name: 't', long: false, value: ',' },
    ]);
    expect(parsed.positionals.map((word) => word.text)).toEqual(['-o']);
  });

  test('matches a forbidden long option by any prefix, as getopt_long does', () => {
    expect(usesAnyOption(parseArguments(words('--out=f')), { names: ['output'] })).toBe(true);
    expect(usesAnyOption(parseArguments(words('--outputs')), { names: ['output'] })).toBe(false);
  });
});

describe('expansionsAllowed', () => {
  test('lets anchored globs through and refuses leading globs and parameters', () => {
    expect(expansionsAllowed(words('src/*.ts'), 'anchored')).toBe(true);
    expect(expansionsAllowed(words('*.ts'), 'anchored')).toBe(false);
    expect(expansionsAllowed(words('-- *.ts'), 'anchored')).toBe(true);
    expect(expansionsAllowed(words('src/$X'), 'anchored')).toBe(false);
    expect(expansionsAllowed(words('src/*.ts'), 'none')).toBe(false);
    expect(expansionsAllowed(words('$X *'), 'any')).toBe(true);
  });
});
