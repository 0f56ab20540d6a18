import { describe, expect, test } from 'vitest';
import { listItems, parseSections } from './parse-sections.js';

const BRIEF = {
  goal: ['Goal', '目标'],
  accept: ['Acceptance criteria', '验收标准', '验收'],
  bounds: ['Boundaries', '边界'],
  unknowns: ['Unknowns and assumptions', '未知与假设', '假设', '未知'],
};

describe('parseSections', () => {
  test('reads Markdown headings in English and Chinese', () => {
    const text = [
      '# Brief',
      '',
      '## Goal',
      'A CLI that prints the date.',
      '',
      '## 验收标准',
      '- `date-cli` prints today',
      '',
      '## Boundaries',
      'No network.',
      '## 未知与假设',
      'Assume UTC.',
    ].join('\n');
    expect(parseSections(text, BRIEF)).toEqual({
      goal: 'A CLI that prints the date.',
      accept: '- `date-cli` prints today',
      bounds: 'No network.',
      unknowns: 'Assume UTC.',
    });
  });

  test('matches the longest alias first, whatever order the aliases are listed in', () => {
    const aliases = { unknowns: ['未知', '假设'], both: ['未知与假设'] };
    expect(parseSections('## 未知与假设\nx\n## 未知\ny', aliases)).toEqual({ both: 'x', unknowns: 'y' });
  });

  test('accepts bold, numbered, colon-suffixed and bare-label headings, body on the same line', () => {
    const text = [
      '**Goal:** ship it',
      '2. **Acceptance criteria**: tests pass',
      '### 3、边界：仅本地',
      'Unknowns and assumptions',
      'none',
    ].join('\n');
    expect(parseSections(text, BRIEF)).toEqual({
      goal: 'ship it',
      accept: 'tests pass',
      bounds: '仅本地',
      unknowns: 'none',
    });
  });

  test('does not open a section on a plain sentence that starts with a label (decisions.md D109)', () => {
    const text = '## Goal\nGoal: keep it small\nBoundaries are loose here.\nAcceptance criteria matter';
    expect(parseSections(text, BRIEF)).toEqual({
      goal: 'Goal: keep it small\nBoundaries are loose here.\nAcceptance criteria matter',
    });
  });

  test('ignores headings inside fenced code and drops everything after an unclosed fence', () => {
    const text = [
      '## Goal',
      'real',
      '```md',
      '## Boundaries',
      'fake',
      '```',
      '~~~',
      '## Unknowns and assumptions',
      'cut off',
    ].join('\n');
    expect(parseSections(text, BRIEF)).toEqual({ goal: 'real' });
  });

  test('keeps the first non-empty body of a repeated section', () => {
    expect(parseSections('## Goal\n\n## Goal\nsecond\n## Goal\nthird', BRIEF)).toEqual({
      goal: 'second',
    });
  });

  test('keeps unknown headings inside the section and cleans the body', () => {
    const text = [
      '## Unknowns and assumptions',
      '',
      '---',
      'Assume UTC.',
      '',
      '',
      '',
      '## Added during the run (12:00:00)',
      'Also Windows.',
      '***',
    ].join('\n');
    expect(parseSections(text, BRIEF)).toEqual({
      unknowns: 'Assume UTC.\n\n## Added during the run (12:00:00)\nAlso Windows.',
    });
  });

  test('matches labels without regard to case and returns nothing for text without headings', () => {
    expect(parseSections('## GOAL\nx', BRIEF)).toEqual({ goal: 'x' });
    expect(parseSections('just words', BRIEF)).toEqual({});
    expect(parseSections('## Goals\nx', BRIEF)).toEqual({});
  });
});

describe('listItems', () => {
  test('splits bullets and numbers, joining continuation lines', () => {
    const body = ['- one', '  still one', '* two', '+ three', '1. four', '2、five', '3) six'].join('\n');
    expect(listItems(body)).toEqual(['one\nstill one', 'two', 'three', 'four', 'five', 'six']);
  });

  test('counts nested bullets as part of their parent', () => {
    expect(listItems('- a\n  - a.1\n- b')).toEqual(['a\n- a.1', 'b']);
  });

  test('gives one item per line when there are no markers', () => {
    expect(listItems('first\n\nsecond')).toEqual(['first', 'second']);
    expect(listItems('')).toEqual([]);
  });
});
