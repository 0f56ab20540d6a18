import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { EMPTY_SECTION } from './brief.js';
import { Goal } from './goal.js';

const parseCases: Array<{ name: string; text: string; statement: string; checks: string[] }> = [
  {
    name: 'English headings with bullets',
    text: '## Goal\n`date-cli` runs here.\n\n## Checklist\n- run `date-cli` → see a date\n- `file date-cli` → ELF x86-64\n',
    statement: '`date-cli` runs here.',
    checks: ['run `date-cli` → see a date', '`file date-cli` → ELF x86-64'],
  },
  {
    name: 'Chinese headings with numbers',
    text: '## 完成标志\n能运行\n## 判定清单\n1. 运行 → 看到日期\n2、`file` → ELF\n3) 版本号正确',
    statement: '能运行',
    checks: ['运行 → 看到日期', '`file` → ELF', '版本号正确'],
  },
  {
    name: 'other Chinese checklist aliases',
    text: '**目标**：x\n**检查项**\n- a\n- b',
    statement: 'x',
    checks: ['a', 'b'],
  },
  {
    name: 'a checklist without list markers, one check per line',
    text: '## Goal\ng\n## Checks\nfirst\n\nsecond',
    statement: 'g',
    checks: ['first', 'second'],
  },
  {
    name: 'pasted code with a fake checklist',
    text: '## Goal\ng\n```\n## Checklist\n- fake\n```\n## Checklist\n- real',
    statement: 'g',
    checks: ['real'],
  },
  {
    name: 'an unclosed fence, which drops the checklist after it',
    text: '## Goal\ng\n~~~\n## Checklist\n- lost',
    statement: 'g',
    checks: [],
  },
];

describe('Goal', () => {
  test.each(parseCases)('parses $name', ({ text, statement, checks }) => {
    const goal = Goal.parse(text);
    expect(goal.statement).toBe(statement);
    expect(goal.checks).toEqual(checks);
  });

  test.each([
    { text: '## Goal\ng\n## Checklist\n- a', complete: true, missing: [] },
    { text: '## Goal\ng', complete: false, missing: ['Checklist'] },
    { text: '## Checklist\n- a', complete: false, missing: ['Goal'] },
    { text: 'no headings at all', complete: false, missing: ['Goal', 'Checklist'] },
  ])('is complete only with a statement and a check: $missing', ({ text, complete, missing }) => {
    const goal = Goal.parse(text);
    expect(goal.complete()).toBe(complete);
    expect(goal.missing()).toEqual(missing);
  });

  test.each([
    { check: 'runs on macOS [unverifiable here: Linux container]', marked: true },
    { check: 'runs on macOS [Unverifiable here]', marked: true },
    { check: 'runs on macOS [unverifiable: no Mac]', marked: true },
    { check: '在真机上运行 [此环境无法验证:没有真机]', marked: true },
    { check: '在真机上运行 [此环境无法验证：没有真机]', marked: true },
    { check: '在真机上运行 [此环境无法验证 没有真机]', marked: true },
    { check: '外部服务可用 [无法验证，需要账号]', marked: true },
    { check: '外部服务可用 【无法验证:需要账号】', marked: true },
    { check: 'the log says unverifiable input rejected', marked: false },
    { check: 'prints [unverified] for unknown files', marked: false },
    { check: 'runs on Linux', marked: false },
  ])('lists "$check" as unverifiable: $marked', ({ check, marked }) => {
    const goal = Goal.parse(`## Goal\ng\n## Checklist\n- ok\n- ${check}`);
    expect(goal.unverifiable).toEqual(marked ? [check] : []);
    expect(goal.checks).toHaveLength(2);
  });

  test('amends the statement with a modified tag, keeps the checks and returns a new goal', () => {
    const goal = new Goal({ statement: 'Ship the CLI.', checks: ['a'] });
    const amended = goal.amend('  Also on Windows. ');
    expect(amended).not.toBe(goal);
    expect(amended.statement).toBe('Ship the CLI.\n\n(modified) Also on Windows.');
    expect(amended.checks).toEqual(['a']);
    expect(goal.statement).toBe('Ship the CLI.');
    expect(goal.amend('').statement).toBe('Ship the CLI.');
    expect(new Goal().amend('x').statement).toBe('(modified) x');
  });

  test('writes the English headings under a frozen header and a placeholder for an empty checklist', () => {
    const text = new Goal({ statement: 'g' }).toMarkdown();
    expect(text).toMatch(/^# Goal and checklist\n\n> Frozen by flower/);
    expect(text).toContain(`## Goal\n\ng\n\n## Checklist\n\n${EMPTY_SECTION}\n`);
  });

  test.each([
    {
      name: 'a complete goal',
      goal: new Goal({ statement: 'g', checks: ['a', 'b [unverifiable here: x]'] }),
    },
    {
      name: 'a multi-line check',
      goal: new Goal({ statement: 'g\nsecond line', checks: ['a\nmore of a', 'b'] }),
    },
    { name: 'an empty goal', goal: new Goal() },
  ])('round-trips $name through toMarkdown and parse', ({ goal }) => {
    expect(Goal.parse(goal.toMarkdown())).toEqual(goal);
  });

  test('puts the statement and checklist, without the header, in the prompt block', () => {
    const goal = new Goal({ statement: 'g', checks: ['a', 'b'] });
    expect(goal.promptBlock()).toBe('## Goal\ng\n\n## Checklist\n- a\n- b');
    expect(new Goal({ statement: 'g' }).promptBlock()).toBe('## Goal\ng');
  });

  describe('load', () => {
    let directory: string;
    beforeEach(() => {
      directory = mkdtempSync(join(tmpdir(), 'flower-goal-'));
    });
    afterEach(() => {
      rmSync(directory, { recursive: true, force: true });
    });

    test('reads back what toMarkdown wrote', () => {
      const goal = new Goal({ statement: 'g', checks: ['a'] });
      const path = join(directory, 'goal.md');
      writeFileSync(path, goal.toMarkdown());
      expect(Goal.load(path)).toEqual(goal);
    });

    test('returns null for a missing file or a directory', () => {
      expect(Goal.load(join(directory, 'absent.md'))).toBeNull();
      expect(Goal.load(directory)).toBeNull();
    });
  });
});
