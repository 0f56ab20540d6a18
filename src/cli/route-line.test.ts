import { describe, expect, test } from 'vitest';

import { routeLine, type LineRoute, type RouteState } from './route-line.js';

const question = { id: 'q1', options: ['red', 'blue'] };
const interruptPending: RouteState = { interruptPending: true, questions: [question] };
const questionPending: RouteState = {
  interruptPending: false,
  questions: [question, { id: 'q2', options: [] }],
};
const nothingPending: RouteState = { interruptPending: false, questions: [] };

// One row per cell of docs/human-channel.md: line × (interrupt pending, question pending, nothing pending).
const table: Array<[string, string | null, LineRoute, LineRoute, LineRoute]> = [
  [
    'an empty line',
    '',
    { kind: 'interrupt', message: '' },
    { kind: 'decline', askId: 'q1' },
    { kind: 'ignore' },
  ],
  [
    'a blank line',
    '   ',
    { kind: 'interrupt', message: '' },
    { kind: 'decline', askId: 'q1' },
    { kind: 'ignore' },
  ],
  [
    'a side question',
    ' ? what is it doing ',
    { kind: 'interrupt', message: '? what is it doing' },
    { kind: 'oracle', question: 'what is it doing' },
    { kind: 'oracle', question: 'what is it doing' },
  ],
  [
    'a full-width side question',
    '？进度如何',
    { kind: 'interrupt', message: '？进度如何' },
    { kind: 'oracle', question: '进度如何' },
    { kind: 'oracle', question: '进度如何' },
  ],
  ['a bare side mark', '?', { kind: 'interrupt', message: '?' }, { kind: 'ignore' }, { kind: 'ignore' }],
  [
    'a bare full-width side mark',
    ' ？ ',
    { kind: 'interrupt', message: '？' },
    { kind: 'ignore' },
    { kind: 'ignore' },
  ],
  [
    'an option number',
    ' 2 ',
    { kind: 'interrupt', message: '2' },
    { kind: 'answer', askId: 'q1', text: 'blue' },
    { kind: 'inbox', text: '2' },
  ],
  [
    'the first option number',
    '1',
    { kind: 'interrupt', message: '1' },
    { kind: 'answer', askId: 'q1', text: 'red' },
    { kind: 'inbox', text: '1' },
  ],
  [
    'a number past the options',
    '3',
    { kind: 'interrupt', message: '3' },
    { kind: 'answer', askId: 'q1', text: '3' },
    { kind: 'inbox', text: '3' },
  ],
  [
    'zero',
    '0',
    { kind: 'interrupt', message: '0' },
    { kind: 'answer', askId: 'q1', text: '0' },
    { kind: 'inbox', text: '0' },
  ],
  [
    'other text',
    '  use tabs  ',
    { kind: 'interrupt', message: 'use tabs' },
    { kind: 'answer', askId: 'q1', text: 'use tabs' },
    { kind: 'inbox', text: 'use tabs' },
  ],
  [
    'text with a question mark inside',
    'tabs?',
    { kind: 'interrupt', message: 'tabs?' },
    { kind: 'answer', askId: 'q1', text: 'tabs?' },
    { kind: 'inbox', text: 'tabs?' },
  ],
  [
    'end of input',
    null,
    { kind: 'eof', interrupt: true, decline: ['q1'] },
    { kind: 'eof', interrupt: false, decline: ['q1', 'q2'] },
    { kind: 'eof', interrupt: false, decline: [] },
  ],
];

describe('routeLine', () => {
  test.each(table)('routes %s', (_name, line, whenInterrupt, whenQuestion, whenNothing) => {
    expect(routeLine(line, interruptPending)).toEqual(whenInterrupt);
    expect(routeLine(line, questionPending)).toEqual(whenQuestion);
    expect(routeLine(line, nothingPending)).toEqual(whenNothing);
  });

  test('settles an interrupt at end of input even with no question waiting', () => {
    expect(routeLine(null, { interruptPending: true, questions: [] })).toEqual({
      kind: 'eof',
      interrupt: true,
      decline: [],
    });
  });

  test('takes digits as text for a question without options', () => {
    expect(routeLine('1', { interruptPending: false, questions: [{ id: 'q7', options: [] }] })).toEqual({
      kind: 'answer',
      askId: 'q7',
      text: '1',
    });
  });
});
