import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseDotenv } from './dotenv-parser.js';
import { loadConfig } from './load-config.js';
import {
  envValueProblem,
  formatEnvLine,
  mergeEnvText,
  planSetup,
  settleAfterSetup,
  writeSetupFile,
  type SetupAnswers,
} from './setup-file.js';
import { EN_CATALOG } from './ui-text.js';
import { ZH_CATALOG } from './ui-text-zh.js';

const HEADER = EN_CATALOG['setup.fileHeader'];

// The Python flower's reader, per line: strip; skip blank, '#' and '='-less lines; split at the first '=';
// strip key and value; then strip every leading and trailing ' and " from the value. Python's strip() uses
// str.isspace, emulated here.
const PYTHON_SPACE =
  '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
function pythonStrip(text: string, characters = PYTHON_SPACE): string {
  let start = 0;
  let end = text.length;
  while (start < end && characters.includes(text.charAt(start))) start += 1;
  while (end > start && characters.includes(text.charAt(end - 1))) end -= 1;
  return text.slice(start, end);
}
function pythonRead(line: string): string | null {
  const stripped = pythonStrip(line);
  if (stripped === '' || stripped.startsWith('#') || !stripped.includes('=')) return null;
  return pythonStrip(pythonStrip(stripped.slice(stripped.indexOf('=') + 1)), '\'"');
}

const answers = (partial: Partial<SetupAnswers>): SetupAnswers => ({
  token: { action: 'keep' },
  baseUrl: { action: 'keep' },
  model: { action: 'keep' },
  window: { action: 'keep' },
  ...partial,
});

describe('formatEnvLine', () => {
  test.each([
    ['sk-ant-api03-AbC_dEf-123', 'KEY=sk-ant-api03-AbC_dEf-123'],
    ['https://gw.example.com/base?x=1&y=2', 'KEY=https://gw.example.com/base?x=1&y=2'],
    ['claude-opus-5[1m]', 'KEY=claude-opus-5[1m]'],
    ['pa#ss', 'KEY=pa#ss'],
    ['#leading-hash', 'KEY=#leading-hash'],
    ['a=b', 'KEY=a=b'],
    ["it's", "KEY=it's"],
    ['$HOME', 'KEY=$HOME'],
    ['模型', 'KEY=模型'],
    ['two words', 'KEY=two words'],
    ['say "hi" there', 'KEY=say "hi" there'],
    ['a #b', 'KEY="a #b"'],
    [' leading', 'KEY=" leading"'],
    ['trailing ', 'KEY="trailing "'],
    ['\uFEFFbom', 'KEY="\uFEFFbom"'],
    ['\u3000ideographic', 'KEY="\u3000ideographic"'],
  ])('writes %j so that both parsers read it back unchanged', (value, line) => {
    expect(formatEnvLine('KEY', value)).toBe(line);
    expect(parseDotenv(line).values['KEY']).toBe(value);
    expect(pythonRead(line)).toBe(value);
  });

  test.each([
    ['"quoted"', 'quote'],
    ["'single", 'quote'],
    ['ends"', 'quote'],
    ['line\nbreak', 'control'],
    ['carriage\rreturn', 'control'],
    ['nul\u0000', 'control'],
    ['tab\tinside', 'control'],
    ['next\u0085line', 'control'],
    ['unicode\u2028separator', 'control'],
    ['escape\u001b[31m', 'control'],
  ])('refuses %j, which one of the parsers would read differently', (value, problem) => {
    expect(envValueProblem(value)).toBe(problem);
    expect(() => formatEnvLine('KEY', value)).toThrow(/cannot be stored/);
  });
});

describe('planSetup', () => {
  test.each([
    ['sk-ant-api03-x', 'ANTHROPIC_API_KEY', ['ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN']],
    ['sk-ant-oat01-x', 'CLAUDE_CODE_OAUTH_TOKEN', ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']],
    ['gateway-x', 'ANTHROPIC_AUTH_TOKEN', ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN']],
  ])('stores token %s as %s and removes the other kinds', (token, key, others) => {
    expect(planSetup(answers({ token: { action: 'set', value: token } }))).toEqual({
      set: { [key]: token },
      remove: others,
    });
  });

  test('sets the three model keys together and maps the other answers', () => {
    expect(
      planSetup(
        answers({
          baseUrl: { action: 'set', value: 'http://gw' },
          model: { action: 'set', value: 'opus' },
          window: { action: 'clear' },
        }),
      ),
    ).toEqual({
      set: {
        ANTHROPIC_BASE_URL: 'http://gw',
        ANTHROPIC_MODEL: 'opus',
        ANTHROPIC_DEFAULT_OPUS_MODEL: 'opus',
        ANTHROPIC_DEFAULT_SONNET_MODEL: 'opus',
      },
      remove: ['FLOWER_WINDOW'],
    });
  });

  test('changes nothing when every answer keeps', () => {
    expect(planSetup(answers({}))).toEqual({ set: {}, remove: [] });
  });

  test('clearing the model removes all three model keys', () => {
    expect(planSetup(answers({ model: { action: 'clear' } })).remove).toEqual([
      'ANTHROPIC_MODEL',
      'ANTHROPIC_DEFAULT_OPUS_MODEL',
      'ANTHROPIC_DEFAULT_SONNET_MODEL',
    ]);
  });
});

describe('mergeEnvText', () => {
  test('writes a new file as header, blank line and KEY=VALUE lines', () => {
    const text = mergeEnvText(
      null,
      { set: { ANTHROPIC_API_KEY: 'k', FLOWER_WINDOW: '200000' }, remove: [] },
      HEADER,
    );
    expect(text).toBe(`${HEADER}\n\nANTHROPIC_API_KEY=k\nFLOWER_WINDOW=200000\n`);
  });

  test('replaces managed keys in place, drops duplicates and removed keys, and keeps every other line', () => {
    const existing = [
      '# my project settings',
      'MY_OWN=keep me  # with a comment',
      'export ANTHROPIC_BASE_URL=http://old',
      '',
      'ANTHROPIC_AUTH_TOKEN=old-gateway-token',
      'ANTHROPIC_BASE_URL=http://older',
      'ANTHROPIC_MODEL=',
      'odd line without equals',
    ].join('\n');
    const plan = {
      set: { ANTHROPIC_BASE_URL: 'http://new', ANTHROPIC_API_KEY: 'k' },
      remove: ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_MODEL'],
    };
    expect(mergeEnvText(existing, plan, HEADER)).toBe(
      [
        HEADER,
        '',
        '# my project settings',
        'MY_OWN=keep me  # with a comment',
        'ANTHROPIC_BASE_URL=http://new',
        '',
        'odd line without equals',
        'ANTHROPIC_API_KEY=k',
        '',
      ].join('\n'),
    );
  });

  test('does not add a second header, in either language', () => {
    for (const header of [EN_CATALOG['setup.fileHeader'], ZH_CATALOG['setup.fileHeader']]) {
      const existing = `${header}\n\nANTHROPIC_API_KEY=old\n`;
      expect(mergeEnvText(existing, { set: { ANTHROPIC_API_KEY: 'new' }, remove: [] }, HEADER)).toBe(
        `${header}\n\nANTHROPIC_API_KEY=new\n`,
      );
    }
  });

  test('keeps CRLF line endings and ends with a newline', () => {
    const existing = `${HEADER}\r\nA=1\r\nANTHROPIC_MODEL=old`;
    expect(mergeEnvText(existing, { set: { ANTHROPIC_MODEL: 'new' }, remove: [] }, HEADER)).toBe(
      `${HEADER}\r\nA=1\r\nANTHROPIC_MODEL=new\r\n`,
    );
  });
});

describe('writeSetupFile', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'flower-setup-file-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  test('creates the folders and a file readable only by its owner', () => {
    const file = join(root, 'config', 'flower', '.env');
    writeSetupFile(file, { set: { ANTHROPIC_API_KEY: 'k' }, remove: [] }, HEADER);
    expect(readFileSync(file, 'utf8')).toBe(`${HEADER}\n\nANTHROPIC_API_KEY=k\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(root, 'config', 'flower'))).toEqual(['.env']);
  });

  test('narrows an existing world-readable file to 0600 and keeps its other lines', () => {
    const file = join(root, '.env');
    writeFileSync(file, 'OTHER=1\n');
    chmodSync(file, 0o644);
    writeSetupFile(file, { set: { ANTHROPIC_MODEL: 'm' }, remove: [] }, HEADER);
    expect(readFileSync(file, 'utf8')).toBe(`${HEADER}\n\nOTHER=1\nANTHROPIC_MODEL=m\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('settleAfterSetup', () => {
  let root: string;
  let home: string;
  let work: string;
  let file: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'flower-settle-'));
    home = join(root, 'home');
    work = join(root, 'work');
    mkdirSync(work, { recursive: true });
    file = join(home, '.config', 'flower', '.env');
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const save = (base: Record<string, string>, plan: { set: Record<string, string>; remove: string[] }) => {
    const config = loadConfig({ env: { HOME: home, ...base }, cwd: work, packageRoot: null });
    writeSetupFile(file, plan, HEADER);
    return settleAfterSetup(config, plan, file, 'en');
  };

  test('makes the saved values effective and records their source, with no warning when nothing shadows them', () => {
    mkdirSync(join(home, '.config', 'flower'), { recursive: true });
    writeFileSync(file, 'ANTHROPIC_AUTH_TOKEN=old-gateway\nANTHROPIC_BASE_URL=http://old-gateway\n');
    const { config, warnings } = save(
      {},
      planSetup(
        answers({ token: { action: 'set', value: 'sk-ant-api03-new' }, baseUrl: { action: 'clear' } }),
      ),
    );
    expect(warnings).toEqual([]);
    expect(config.env['ANTHROPIC_API_KEY']).toBe('sk-ant-api03-new');
    expect(config.env).not.toHaveProperty('ANTHROPIC_AUTH_TOKEN');
    expect(config.env).not.toHaveProperty('ANTHROPIC_BASE_URL');
    expect(config.sources['ANTHROPIC_API_KEY']).toBe(file);
  });

  test('warns when the shell exports a saved key, and uses the saved value for this run', () => {
    const { config, warnings } = save(
      { ANTHROPIC_API_KEY: 'sk-ant-api03-shell' },
      planSetup(answers({ token: { action: 'set', value: 'sk-ant-api03-new' } })),
    );
    expect(config.env['ANTHROPIC_API_KEY']).toBe('sk-ant-api03-new');
    expect(warnings).toEqual([
      '! ANTHROPIC_API_KEY is also exported in your shell; that value wins on every later run. Remove or update the export to use the saved one.',
    ]);
  });

  test('warns when a .env read before CFG/.env sets a saved key', () => {
    writeFileSync(join(work, '.env'), 'ANTHROPIC_BASE_URL=http://project');
    const { config, warnings } = save(
      {},
      planSetup(answers({ baseUrl: { action: 'set', value: 'http://saved' } })),
    );
    expect(config.env['ANTHROPIC_BASE_URL']).toBe('http://saved');
    expect(warnings).toEqual([
      `! ANTHROPIC_BASE_URL is also set in ${join(work, '.env')}, which is read first; later runs from here use that value.`,
    ]);
  });

  test('drops a cleared key that a file still sets for this run, keeps a shell export, and warns about both', () => {
    writeFileSync(join(work, '.env'), 'ANTHROPIC_MODEL=project-model');
    const { config, warnings } = save(
      { ANTHROPIC_AUTH_TOKEN: 'shell-gateway' },
      planSetup(answers({ token: { action: 'set', value: 'sk-ant-api03-new' }, model: { action: 'clear' } })),
    );
    expect(config.env).not.toHaveProperty('ANTHROPIC_MODEL');
    expect(config.env['ANTHROPIC_AUTH_TOKEN']).toBe('shell-gateway');
    expect(warnings).toEqual([
      '! ANTHROPIC_AUTH_TOKEN is still set in your shell; later runs will use it.',
      `! ANTHROPIC_MODEL is still set in ${join(work, '.env')}; later runs will use it.`,
    ]);
  });

  test('derives the window from the saved value', () => {
    const { config } = save({}, planSetup(answers({ window: { action: 'set', value: '200000' } })));
    expect(config.window).toBe(200000);
  });
});
