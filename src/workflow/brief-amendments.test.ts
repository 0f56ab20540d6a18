import { describe, expect, test } from 'vitest';
import { amendmentsMarkdown, briefAmendments } from './brief-amendments.js';

const BRIEF = [
  '# Brief',
  '',
  '## Goal',
  '',
  'A date CLI.',
  '',
  '## Unknowns and assumptions',
  '',
  '- assume UTC',
  '',
  '## Added during the run (10:00:00)',
  '',
  'Also print the week.',
  '',
  '## Added on wake (11:00:00)',
  '',
  'Use ISO weeks.',
  '### Detail',
  'Monday first.',
  '',
  '## 唤醒时追加(12:00:00)',
  '',
  '周日不算。',
  '## Added during the run (13:00:00)',
  '',
].join('\n');

describe('briefAmendments', () => {
  test('finds the English and Chinese amendments, each up to the next one, skipping empty ones', () => {
    expect(briefAmendments(BRIEF)).toEqual([
      { kind: 'run', heading: 'Added during the run (10:00:00)', text: 'Also print the week.' },
      {
        kind: 'wake',
        heading: 'Added on wake (11:00:00)',
        text: 'Use ISO weeks.\n### Detail\nMonday first.',
      },
      { kind: 'wake', heading: '唤醒时追加(12:00:00)', text: '周日不算。' },
    ]);
  });

  test('finds nothing in a brief without amendments, and does not take section headings for them', () => {
    expect(briefAmendments('## Goal\nAdded on wake is a phrase here.\n## Boundaries\nnone')).toEqual([]);
  });

  test('renders amendments back under their headings', () => {
    expect(amendmentsMarkdown(briefAmendments(BRIEF).slice(0, 1))).toBe(
      '## Added during the run (10:00:00)\n\nAlso print the week.',
    );
  });
});
