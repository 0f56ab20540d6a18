import { describe, expect, test } from 'vitest';
import { Goal } from './goal.js';
import { checkKey, describeCheck, goalChecks, parseCheckBlock, type CommandCheck } from './goal-checks.js';

const GOAL = [
  '## Goal',
  'sum.js adds two numbers.',
  '',
  '## Checklist',
  '- `node sum.js 2 3` prints 5',
  '  ```check',
  '  run: node sum.js 2 3',
  '  stdout: ^5$',
  '  timeout: 10',
  '  ```',
  '- Runs in a macOS terminal',
  '  ```check',
  '  manual: the binary must be started on a Mac',
  '  needs: macOS',
  '  ```',
  '- The README names the command',
  '  ```check',
  '  file: README.md',
  '  contains: node sum\\.js',
  '  ```',
].join('\n');

describe('check blocks in the goal', () => {
  test('each block stays with its item, and the items read as before', () => {
    const goal = Goal.parse(GOAL);
    expect(goal.checks).toEqual([
      '`node sum.js 2 3` prints 5',
      'Runs in a macOS terminal',
      'The README names the command',
    ]);
    expect(goal.blocks[0]).toBe('run: node sum.js 2 3\nstdout: ^5$\ntimeout: 10');
    expect(goal.blocks[1]).toBe('manual: the binary must be started on a Mac\nneeds: macOS');
    expect(goal.hasBlocks()).toBe(true);
  });

  test('the file form keeps the blocks: frozen and read back, the same goal', () => {
    const goal = Goal.parse(GOAL);
    const again = Goal.parse(goal.toMarkdown());
    expect(again.checks).toEqual(goal.checks);
    expect(again.blocks).toEqual(goal.blocks);
    expect(goal.toMarkdown()).toContain('- `node sum.js 2 3` prints 5\n  ```check\n  run: node sum.js 2 3\n');
  });

  test('reads commands, manual items and file checks, with defaults', () => {
    const { active, items, problems } = goalChecks(Goal.parse(GOAL));
    expect(active).toBe(true);
    expect(problems).toEqual([]);
    expect(items[0]?.check).toEqual({
      kind: 'command',
      run: 'node sum.js 2 3',
      cwd: '.',
      timeoutS: 10,
      exit: 0,
      stdout: '^5$',
      file: null,
      sha256: null,
      contains: null,
    });
    expect(items[1]?.check).toEqual({
      kind: 'manual',
      reason: 'the binary must be started on a Mac',
      needs: 'macOS',
    });
    expect(items[2]?.check).toMatchObject({ kind: 'command', run: '', file: 'README.md', timeoutS: 60 });
    expect(describeCheck(items[1]?.check ?? null)).toBe('needs macOS');
  });

  test('a checklist of prose is inactive: no problems, nothing for flower to run', () => {
    const checks = goalChecks(new Goal({ statement: 's', checks: ['a', 'b'] }));
    expect(checks.active).toBe(false);
    expect(checks.problems).toEqual([]);
  });

  test('once one item has a block, an item without one is reported, not skipped', () => {
    const goal = new Goal({ statement: 's', checks: ['a', 'b'], blocks: ['run: true', ''] });
    expect(goalChecks(goal).problems).toEqual([
      { index: 1, item: 'b', problem: expect.stringContaining('no check block') as unknown },
    ]);
  });

  test('an item marked unverifiable needs no block: it is manual, needing what the marker says', () => {
    const goal = new Goal({
      statement: 's',
      checks: ['a', 'runs on an iPhone [unverifiable here: needs an iPhone]'],
      blocks: ['run: true'],
    });
    expect(goalChecks(goal).items[1]?.check).toEqual({
      kind: 'manual',
      reason: 'needs an iPhone',
      needs: 'needs an iPhone',
    });
  });
});

describe('parseCheckBlock: malformed blocks say what is wrong', () => {
  test.each([
    ['unknown key', 'run: true\ncommand: x', /unknown key "command"/],
    ['no command', 'cwd: src', /no command/],
    ['empty manual reason', 'manual:', /needs a reason/],
    ['manual with a command', 'manual: eyes\nrun: true', /cannot also have run/],
    ['needs without manual', 'run: true\nneeds: macOS', /belongs to a manual check/],
    ['timeout not a number', 'run: true\ntimeout: soon', /"timeout" is whole seconds/],
    ['timeout of zero', 'run: true\ntimeout: 0', /"timeout" is whole seconds/],
    ['exit out of range', 'run: true\nexit: 300', /"exit"/],
    ['bad regex', 'run: true\nstdout: (', /not a valid regular expression/],
    ['sha256 without a file', 'run: true\nsha256: ' + 'a'.repeat(64), /describe a file/],
    ['sha256 not hex', 'file: a\nsha256: xyz', /64 hex digits/],
    ['cwd outside the workspace', 'run: true\ncwd: ../elsewhere', /inside the workspace/],
    ['absolute file', 'file: /etc/passwd', /inside the workspace/],
    ['twice', 'run: true\nrun: false', /given twice/],
    ['a line without a key', 'run: true\njust words', /one `key: value` per line/],
  ])('%s', (_name, body, problem) => {
    const read = parseCheckBlock(body);
    expect(typeof read).toBe('string');
    expect(read).toMatch(problem);
  });

  test('comments and blank lines are skipped; keys are case-insensitive', () => {
    expect(parseCheckBlock('# the test suite\n\nRUN: npm test\nExit: 1')).toMatchObject({
      kind: 'command',
      run: 'npm test',
      exit: 1,
    });
  });

  test('the key of a check changes with its definition', () => {
    const one = parseCheckBlock('run: true') as CommandCheck;
    const two = parseCheckBlock('run: true\nexit: 1') as CommandCheck;
    expect(checkKey(one)).not.toBe(checkKey(two));
    expect(checkKey(one)).toBe(checkKey(parseCheckBlock('run: true') as CommandCheck));
  });
});
