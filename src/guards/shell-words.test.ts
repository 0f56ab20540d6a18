import { parse as shellQuoteParse } from 'shell-quote';
import { describe, expect, test } from 'vitest';
import { parseShellCommand, type ShellParse, type SimpleCommand } from './shell-words.js';

function commands(source: string): SimpleCommand[] {
  const parsed = parseShellCommand(source);
  if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
  return [...parsed.commands];
}

function texts(source: string): string[][] {
  return commands(source).map((command) => command.words.map((word) => word.text));
}

function reason(source: string): string | undefined {
  const parsed: ShellParse = parseShellCommand(source);
  return parsed.ok ? undefined : parsed.reason;
}

describe('parseShellCommand', () => {
  test('splits on every connector and reports them in order', () => {
    const parsed = parseShellCommand('a && b || c; d | e |& f & g');
    expect(parsed.ok && parsed.connectors).toEqual(['&&', '||', ';', '|', '|&', '&']);
    expect(texts('a && b || c; d | e |& f & g')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]);
  });

  test('treats an unquoted newline as a separator and a continuation after && || |', () => {
    expect(texts('a\nb')).toEqual([['a'], ['b']]);
    expect(texts('a &&\n b')).toEqual([['a'], ['b']]);
    expect(texts('a |\n\n b')).toEqual([['a'], ['b']]);
    expect(texts('\n\na\n\n')).toEqual([['a']]);
    expect(texts('a \\\n b')).toEqual([['a', 'b']]);
    expect(texts('a\r\nb')).toEqual([['a'], ['b']]);
  });

  test('refuses a lone carriage return instead of guessing', () => {
    expect(reason('git status\rrm -rf x')).toBe('carriage return outside quotes');
    expect(texts("echo 'a\rb'")).toEqual([['echo', 'a\rb']]);
  });

  test('removes quotes and keeps quoted operators as text', () => {
    expect(texts(`grep -E 'a|b' "x > y" a\\;b "say \\"hi\\"" 'it'"'"'s'`)).toEqual([
      ['grep', '-E', 'a|b', 'x > y', 'a;b', 'say "hi"', "it's"],
    ]);
    expect(texts('echo "a\\nb" \'c\\d\'')).toEqual([['echo', 'a\\nb', 'c\\d']]);
    expect(texts("echo ''")).toEqual([['echo', '']]);
  });

  test('starts a comment only at the start of a word', () => {
    expect(texts('echo a#b; ls # c; rm x')).toEqual([['echo', 'a#b'], ['ls']]);
    expect(texts('ls #c\nrm x')).toEqual([['ls'], ['rm', 'x']]);
    expect(texts('echo "#x" \\#y')).toEqual([['echo', '#x', '#y']]);
  });

  test('refuses command and process substitution, also inside double quotes', () => {
    expect(reason('echo $(id)')).toBe('command substitution');
    expect(reason('echo "$(id)"')).toBe('command substitution');
    expect(reason('echo `id`')).toBe('command substitution');
    expect(reason('echo "`id`"')).toBe('command substitution');
    expect(reason('diff <(a) b')).toBe('process substitution');
    expect(reason('tee >(a)')).toBe('process substitution');
    expect(reason('echo $((1))')).toBe('command substitution');
    expect(reason('echo \'$(id)\' "\\$(id)"')).toBeUndefined();
  });

  test('refuses syntax outside the glance subset', () => {
    expect(reason('(ls)')).toBe('subshell, grouping or function syntax');
    expect(reason('cat <<EOF\nx\nEOF')).toBe('here-document');
    expect(reason('echo "abc')).toBe('unterminated double quote');
    expect(reason("echo 'abc")).toBe('unterminated single quote');
    expect(reason('echo abc\\')).toBe('trailing backslash');
    expect(reason("echo $'a'")).toBe('ANSI-C or locale quoting');
    expect(reason('echo ${X:-y}')).toBe('parameter expansion with operators');
    expect(reason('a ;; b')).toBe('case terminator');
    expect(reason('ls {fd}>f')).toBe('named file descriptor');
    expect(reason('; ls')).toBe("nothing before ';'");
    expect(reason('ls &&')).toBe('command missing after the last connector');
    expect(reason('ls >')).toBe('redirection without a target');
    expect(reason('  ')).toBe('no command');
  });

  test('reads redirections with IO numbers, &> and dup targets', () => {
    const [command] = commands('ls 2>/dev/null >&2 &>f 3<in <<<word a2>x');
    expect(command?.words.map((word) => word.text)).toEqual(['ls', 'a2']);
    expect(command?.redirections.map((r) => [r.descriptor, r.operator, r.target.text])).toEqual([
      [2, '>', '/dev/null'],
      [undefined, '>&', '2'],
      [undefined, '&>', 'f'],
      [3, '<', 'in'],
      [undefined, '<<<', 'word'],
      [undefined, '>', 'x'],
    ]);
    // A quoted number is a word, not an IO number.
    expect(commands('echo "2">f')[0]?.words.map((word) => word.text)).toEqual(['echo', '2']);
    // `& >` with a space is a background job, not &>.
    expect(parseShellCommand('ls & >f').ok && texts('ls & >f')).toEqual([['ls'], []]);
  });

  test('marks words the shell would expand, and whether they start literally', () => {
    const flags = (source: string) =>
      commands(source)[0]?.words.map((word) => [
        word.text,
        word.expands,
        word.hasParameter,
        word.literalStart,
      ]);
    expect(flags('a*.ts "*.ts" *.ts $X "$X" src/$X {a,b} x{1..3} @{u} stash@{0} ~/x')).toEqual([
      ['a*.ts', true, false, true],
      ['*.ts', false, false, true],
      ['*.ts', true, false, false],
      ['$X', true, true, false],
      ['$X', true, true, false],
      ['src/$X', true, true, true],
      ['{a,b}', true, false, false],
      ['x{1..3}', true, false, true],
      ['@{u}', false, false, true],
      ['stash@{0}', false, false, true],
      ['~/x', false, false, true],
    ]);
  });

  test('keeps a lone or trailing dollar literal-ish but never as plain text', () => {
    expect(texts('grep foo$ f')).toEqual([['grep', 'foo$', 'f']]);
    expect(commands('echo $1 $@')[0]?.words.every((word, index) => index === 0 || word.hasParameter)).toBe(
      true,
    );
  });
});

describe('shell-quote 1.8.3 (why shell-words does its own splitting)', () => {
  test('sees one command where bash runs two after a newline', () => {
    expect(shellQuoteParse('git status\nrm -rf x')).toEqual(['git', 'status', 'rm', '-rf', 'x']);
  });

  test('drops the rest of the line after a mid-word #', () => {
    expect(shellQuoteParse('echo a#b; rm -rf x')).toEqual(['echo', 'a', { comment: 'b; rm -rf x' }]);
  });

  test('returns a double-quoted command substitution as plain text', () => {
    expect(shellQuoteParse('echo "`rm x`"')).toEqual(['echo', '`rm x`']);
  });
});
