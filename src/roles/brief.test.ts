import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Brief, EMPTY_SECTION, type BriefFields } from './brief.js';

const FULL = {
  goal: 'A CLI that prints the date, for shell scripts.',
  accept: '- run `date-cli` → see today in ISO form',
  bounds: 'No network access.',
  unknowns: '- Time zone: not asked; assume UTC.',
};

const parseCases: Array<{ name: string; text: string; expected: BriefFields }> = [
  {
    name: 'English headings',
    text: [
      '## Goal',
      FULL.goal,
      '## Acceptance criteria',
      FULL.accept,
      '## Boundaries',
      FULL.bounds,
      '## Unknowns and assumptions',
      FULL.unknowns,
    ].join('\n'),
    expected: FULL,
  },
  {
    name: 'the Python flower’s Chinese headings',
    text: [
      '## 目标',
      '做一个日期工具',
      '## 验收标准',
      '- 运行 → 看到日期',
      '## 边界',
      '不联网',
      '## 未知与假设',
      '假设 UTC',
    ].join('\n'),
    expected: { goal: '做一个日期工具', accept: '- 运行 → 看到日期', bounds: '不联网', unknowns: '假设 UTC' },
  },
  {
    name: 'Chinese alias variants, bold and numbered',
    text: ['**目标**:x', '2. **验收条件**', 'y', '### 3、不做什么', 'z', '**未知项**：w'].join('\n'),
    expected: { goal: 'x', accept: 'y', bounds: 'z', unknowns: 'w' },
  },
  {
    name: 'the clarifier rule text’s "&" spelling',
    text: '## Goal\ng\n## Unknowns & assumptions\nu',
    expected: { goal: 'g', unknowns: 'u' },
  },
  {
    name: 'pasted code with fake headings',
    text: [
      '## Goal',
      'real goal',
      '```markdown',
      '## Boundaries',
      'fake',
      '```',
      '## Acceptance criteria',
      'a',
    ].join('\n'),
    expected: { goal: 'real goal', accept: 'a' },
  },
  {
    name: 'an unclosed fence, which drops the rest (truncated output)',
    text: [
      '## Goal',
      'g',
      '## Acceptance criteria',
      'a',
      '```',
      '## Boundaries',
      'b',
      '## Unknowns and assumptions',
      'u',
    ].join('\n'),
    expected: { goal: 'g', accept: 'a' },
  },
  {
    name: 'a plain sentence that starts with a label (decisions.md D109)',
    text: '## Goal\nBoundaries: none really.\nGoal: ship it',
    expected: { goal: 'Boundaries: none really.\nGoal: ship it' },
  },
  {
    name: 'appendices after the last section, which stay in its body',
    text: [
      '## Goal',
      'g',
      '## Unknowns and assumptions',
      'u',
      '',
      '## Added during the run (12:00:00)',
      'Also Windows.',
      '',
      '## 唤醒时追加(13:00:00)',
      '要支持 ARM。',
    ].join('\n'),
    expected: {
      goal: 'g',
      unknowns:
        'u\n\n## Added during the run (12:00:00)\nAlso Windows.\n\n## 唤醒时追加(13:00:00)\n要支持 ARM。',
    },
  },
];

describe('Brief', () => {
  test.each(parseCases)('parses $name', ({ text, expected }) => {
    const brief = Brief.parse(text);
    expect({
      goal: brief.goal,
      accept: brief.accept,
      bounds: brief.bounds,
      unknowns: brief.unknowns,
    }).toEqual({
      goal: '',
      accept: '',
      bounds: '',
      unknowns: '',
      ...expected,
    });
  });

  test.each([
    { fields: FULL, missing: [] },
    { fields: {}, missing: ['Goal', 'Acceptance criteria', 'Boundaries', 'Unknowns and assumptions'] },
    { fields: { goal: 'g', bounds: 'b' }, missing: ['Acceptance criteria', 'Unknowns and assumptions'] },
    { fields: { ...FULL, unknowns: '  \n ' }, missing: ['Unknowns and assumptions'] },
  ])('lists the empty sections in order: $missing', ({ fields, missing }) => {
    const brief = new Brief(fields);
    expect(brief.missing()).toEqual(missing);
    expect(brief.complete()).toBe(missing.length === 0);
  });

  test('writes the four English headings under a header saying the file is frozen', () => {
    const text = new Brief(FULL).toMarkdown();
    expect(text).toMatch(/^# Brief\n\n> Frozen by flower/);
    expect(text).toContain('delete it to clarify again');
    const headings = text.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## Goal',
      '## Acceptance criteria',
      '## Boundaries',
      '## Unknowns and assumptions',
    ]);
    expect(text.endsWith('\n')).toBe(true);
  });

  test.each([
    { name: 'a complete brief', fields: FULL },
    { name: 'a brief with empty sections', fields: { goal: 'only a goal', unknowns: 'u' } },
    { name: 'an empty brief', fields: {} },
  ])('round-trips $name through toMarkdown and parse', ({ fields }) => {
    const brief = new Brief(fields);
    expect(Brief.parse(brief.toMarkdown())).toEqual(brief);
  });

  test('writes a placeholder in empty sections and reads it back as empty', () => {
    const text = new Brief({ goal: 'g' }).toMarkdown();
    expect(text).toContain(`## Boundaries\n\n${EMPTY_SECTION}\n`);
    expect(Brief.parse(text).bounds).toBe('');
  });

  test('keeps text appended after a placeholder', () => {
    const text = `${new Brief({ goal: 'g' }).toMarkdown()}\n## Added on wake (10:00:00)\nMake it fast.\n`;
    expect(Brief.parse(text).unknowns).toBe('## Added on wake (10:00:00)\nMake it fast.');
  });

  test('puts only the sections with content, and the appendices, in the prompt block', () => {
    const brief = Brief.parse(
      '## Goal\ng\n## Boundaries\n\n## Unknowns and assumptions\nu\n## Added during the run (1)\nx',
    );
    expect(brief.promptBlock()).toBe(
      '## Goal\ng\n\n## Unknowns and assumptions\nu\n## Added during the run (1)\nx',
    );
    expect(brief.promptBlock()).not.toContain('Frozen');
  });

  describe('load', () => {
    let directory: string;
    beforeEach(() => {
      directory = mkdtempSync(join(tmpdir(), 'flower-brief-'));
    });
    afterEach(() => {
      rmSync(directory, { recursive: true, force: true });
    });

    test('reads back the file toMarkdown wrote, placeholders as empty', () => {
      const brief = new Brief({ goal: 'g', accept: 'a' });
      const path = join(directory, 'brief.md');
      writeFileSync(path, brief.toMarkdown());
      expect(Brief.load(path)).toEqual(brief);
    });

    test('reads a Chinese brief written by the Python flower', () => {
      const path = join(directory, '需求.md');
      writeFileSync(path, '# 需求\n\n## 目标\ng\n\n## 验收\na\n\n## 范围边界\nb\n\n## 已知未知\nu\n');
      expect(Brief.load(path)?.complete()).toBe(true);
    });

    test.each([
      { name: 'a missing file', make: (dir: string) => join(dir, 'absent.md') },
      {
        name: 'an unreadable path (a directory)',
        make: (dir: string) => {
          const path = join(dir, 'brief.md');
          mkdirSync(path);
          return path;
        },
      },
    ])('returns null for $name', ({ make }) => {
      expect(Brief.load(make(directory))).toBeNull();
    });
  });
});
