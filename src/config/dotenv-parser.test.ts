import { describe, expect, test } from 'vitest';
import { dotenvLineKey, parseDotenv, type DotenvProblem } from './dotenv-parser.js';

type Row = {
  form: string;
  text: string;
  /** The value KEY gets, or null when the line does not claim KEY. */
  value: string | null;
  problem?: DotenvProblem['problem'];
};

// Every accepted form of docs/configuration.md + decisions.md D18, and every form that is not accepted.
const accepted: Row[] = [
  { form: 'plain', text: 'KEY=value', value: 'value' },
  { form: 'spaces around =', text: 'KEY = value', value: 'value' },
  { form: 'indented line, trailing spaces', text: '   KEY=value   ', value: 'value' },
  { form: 'inner spaces kept', text: 'KEY=  two words  ', value: 'two words' },
  { form: 'export prefix', text: 'export KEY=value', value: 'value' },
  { form: 'export prefix with several spaces', text: 'export \t KEY=value', value: 'value' },
  { form: 'double quotes', text: 'KEY="value"', value: 'value' },
  { form: 'single quotes', text: "KEY='value'", value: 'value' },
  { form: 'quotes keep surrounding spaces', text: 'KEY="  padded  "', value: '  padded  ' },
  { form: 'quotes keep a # inside', text: 'KEY="a # not a comment"', value: 'a # not a comment' },
  { form: 'quotes keep inner quotes', text: 'KEY="say "hi""', value: 'say "hi"' },
  { form: 'quoted value then a comment', text: 'KEY="value"   # note', value: 'value' },
  { form: 'single-quoted value then a comment', text: "KEY='v w' # note", value: 'v w' },
  { form: 'comment after an unquoted value', text: 'KEY=value # note', value: 'value' },
  { form: 'tab before the comment', text: 'KEY=value\t# note', value: 'value' },
  { form: '# without whitespace stays', text: 'KEY=pa#ss', value: 'pa#ss' },
  { form: 'value starting with #', text: 'KEY=#value', value: '#value' },
  { form: 'split at the first =', text: 'KEY=a=b==c', value: 'a=b==c' },
  { form: 'apostrophe inside', text: "KEY=it's", value: "it's" },
  { form: 'no interpolation ($VAR)', text: 'KEY=$HOME/x', value: '$HOME/x' },
  { form: 'no interpolation (${VAR})', text: 'KEY=${OTHER}', value: '${OTHER}' },
  { form: 'no interpolation in double quotes', text: 'KEY="$HOME"', value: '$HOME' },
  { form: 'no escapes in double quotes', text: 'KEY="a\\nb"', value: 'a\\nb' },
  { form: 'empty value does not claim', text: 'KEY=', value: null },
  { form: 'empty quotes do not claim', text: 'KEY=""', value: null },
  { form: 'only a comment does not claim', text: 'KEY= # note', value: null },
  { form: 'comment line', text: '# KEY=value', value: null },
  { form: 'indented comment line', text: '   # KEY=value', value: null },
  { form: 'blank line', text: '   ', value: null },
];

const odd: Row[] = [
  {
    form: 'unpaired leading quote',
    text: 'KEY="unterminated',
    value: '"unterminated',
    problem: 'unpaired-quote',
  },
  { form: 'unpaired trailing quote', text: 'KEY=trailing"', value: 'trailing"', problem: 'unpaired-quote' },
  { form: 'mismatched quote pair', text: 'KEY="value\'', value: '"value\'', problem: 'unpaired-quote' },
  { form: 'lone quote', text: "KEY='", value: "'", problem: 'unpaired-quote' },
  {
    form: 'unpaired quote before a comment',
    text: 'KEY=value" # note',
    value: 'value"',
    problem: 'unpaired-quote',
  },
  { form: 'no = at all', text: 'KEY', value: null, problem: 'no-equals' },
  { form: 'export without =', text: 'export KEY', value: null, problem: 'no-equals' },
  { form: 'key starting with a digit', text: '1KEY=value', value: null, problem: 'bad-key' },
  { form: 'key with a space', text: 'MY KEY=value', value: null, problem: 'bad-key' },
  { form: 'key with a dash', text: 'MY-KEY=value', value: null, problem: 'bad-key' },
  { form: 'empty key', text: '=value', value: null, problem: 'bad-key' },
];

describe('parseDotenv', () => {
  test.each(accepted)('accepts $form', ({ text, value }) => {
    const parsed = parseDotenv(text, 'f.env');
    expect(parsed.problems).toEqual([]);
    if (value === null) expect(parsed.values).not.toHaveProperty('KEY');
    else expect(parsed.values).toEqual({ KEY: value });
  });

  test.each(odd)('reports $form', ({ text, value, problem }) => {
    const parsed = parseDotenv(`# header\n${text}`, 'f.env');
    expect(parsed.problems).toEqual([{ file: 'f.env', line: 2, problem }]);
    if (value === null) expect(parsed.values).toEqual({});
    else expect(parsed.values).toEqual({ KEY: value });
  });

  test('keeps the first non-empty value of a repeated key', () => {
    expect(parseDotenv('KEY=\nKEY=first\nKEY=second').values).toEqual({ KEY: 'first' });
  });

  test('reads every line ending and skips a byte order mark', () => {
    expect(parseDotenv('\uFEFFA=1\r\nB=2\rC=3\nD=4').values).toEqual({ A: '1', B: '2', C: '3', D: '4' });
  });

  test('reads a multi-line quoted value as an unpaired quote and a skipped line', () => {
    const parsed = parseDotenv('KEY="first\nsecond"\nOTHER=x', 'f.env');
    expect(parsed.values).toEqual({ KEY: '"first', OTHER: 'x' });
    expect(parsed.problems).toEqual([
      { file: 'f.env', line: 1, problem: 'unpaired-quote' },
      { file: 'f.env', line: 2, problem: 'no-equals' },
    ]);
  });

  test('accepts any valid variable name, export included', () => {
    expect(parseDotenv('lower_case=1\n_UNDER=2\nK2=3\nexport=4').values).toEqual({
      lower_case: '1',
      _UNDER: '2',
      K2: '3',
      export: '4',
    });
  });

  test('skips a line holding a NUL byte and reports its number, not its value', () => {
    const parsed = parseDotenv('A=1\nTOKEN=sk-ant-se\0cret\nB=2', 'f.env');
    expect(parsed.values).toEqual({ A: '1', B: '2' });
    expect(parsed.problems).toEqual([{ file: 'f.env', line: 2, problem: 'nul-byte' }]);
  });

  test('never puts a value into a problem', () => {
    const parsed = parseDotenv('TOKEN="sk-ant-secret-value\nsk-ant-other-secret', 'f.env');
    expect(JSON.stringify(parsed.problems)).not.toContain('secret');
  });
});

describe('dotenvLineKey', () => {
  test('finds the key the parser would assign', () => {
    expect(dotenvLineKey('export  KEY = v')).toBe('KEY');
    expect(dotenvLineKey('KEY=')).toBe('KEY');
    expect(dotenvLineKey('# KEY=v')).toBeNull();
    expect(dotenvLineKey('KEY')).toBeNull();
    expect(dotenvLineKey('BAD KEY=v')).toBeNull();
  });
});
