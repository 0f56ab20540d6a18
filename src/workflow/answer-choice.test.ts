import { describe, expect, test } from 'vitest';
import { matchChoice, type Choice } from './answer-choice.js';

const choices: Choice<'accept' | 'amend' | 'misjudged'>[] = [
  { id: 'accept', text: 'Accept and move on' },
  { id: 'amend', text: 'Amend the goal' },
  { id: 'misjudged', text: 'You judged wrong, keep going' },
];

describe('matchChoice', () => {
  test.each([
    ['1', 'accept'],
    [' 2. ', 'amend'],
    ['(3)', 'misjudged'],
    ['#2', 'amend'],
    ['AMEND', 'amend'],
    ['accept and move on', 'accept'],
    ['  You judged wrong, keep going ', 'misjudged'],
  ])('picks %j as %s', (answer, id) => {
    expect(matchChoice(answer, choices)).toBe(id);
  });

  test.each([['4'], ['0'], [''], ['Acce'], ['accept it, I guess'], ['接受']])(
    'takes %j as free text',
    (answer) => {
      // No prefix matching (decisions.md D112): the reference's first-four-characters rule broke under
      // translation.
      expect(matchChoice(answer, choices)).toBeNull();
    },
  );
});
