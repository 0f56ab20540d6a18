import { describe, expect, test } from 'vitest';

import { DECLINED_TEXT, INVALID_TEXT, OVER_BUDGET_TEXT, TIMEOUT_TEXT } from './channel-texts.js';
import { INBOX_EMPTY } from './human-tools.js';

// The texts live in src/roles/prompts/*.md; pinned whole here so a stray edit, or a file read short, shows.
describe("the ask tool's fall-through texts", () => {
  test('TIMEOUT_TEXT reads as written', () => {
    expect(TIMEOUT_TEXT).toBe(
      'Nobody answered. Decide for yourself: write the question and the assumption you adopted under "Unknowns and assumptions", then carry on. Do not ask this again and do not stop to wait.',
    );
  });

  test('OVER_BUDGET_TEXT reads as written', () => {
    expect(OVER_BUDGET_TEXT).toBe(
      'The question quota is used up: stop asking. Put any remaining doubts, each with the assumption you adopted, under "Unknowns and assumptions", and continue.',
    );
  });

  test('DECLINED_TEXT reads as written', () => {
    expect(DECLINED_TEXT).toBe(
      'The human skipped this question. Decide for yourself: write the question and the assumption you adopted under "Unknowns and assumptions", then carry on. Do not ask this again.',
    );
  });

  test('INVALID_TEXT reads as written', () => {
    expect(INVALID_TEXT).toBe(
      'The question was empty, so nothing was asked. To ask, put one concrete question in `question`.',
    );
  });

  test('INBOX_EMPTY reads as written', () => {
    expect(INBOX_EMPTY).toBe('Inbox empty; carry on.');
  });
});
