import { describe, expect, test } from 'vitest';
import { deepFreeze } from '../../test/fixtures/transcripts/transcript-builder.js';
import {
  codePointLength,
  fillTemplate,
  headByCodePoints,
  resultText,
  resultTextLength,
  withResultContents,
} from './entry-content.js';

describe('entry content helpers', () => {
  test('reads the text of a result: a string, or text blocks joined by a newline', () => {
    expect(resultText('plain')).toBe('plain');
    expect(
      resultText([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('a\nb');
  });

  test('gives no text for images, documents, blockless arrays and other values', () => {
    expect(
      resultText([
        { type: 'text', text: 'a' },
        { type: 'image', source: {} },
      ]),
    ).toBeNull();
    expect(resultText([{ type: 'document', source: {} }])).toBeNull();
    expect(resultText([])).toBeNull();
    expect(resultText({ stdout: 'x' })).toBeNull();
  });

  test('measures a result text without joining it, agreeing with resultText', () => {
    const cases: unknown[] = [
      'plain',
      [
        { type: 'text', text: 'ab' },
        { type: 'text', text: 'cde' },
      ],
      [
        { type: 'text', text: 'a' },
        { type: 'image', source: {} },
      ],
      [],
      { stdout: 'x' },
    ];
    for (const content of cases) expect(resultTextLength(content)).toBe(resultText(content)?.length ?? null);
  });

  test('counts and cuts in code points', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(headByCodePoints('😀😀😀', 2)).toBe('😀😀');
  });

  test('replaces result contents in a copy', () => {
    const entry = deepFreeze({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'old' }] },
    });
    const copy = withResultContents(entry, new Map([[0, 'new']]));
    expect(copy).toEqual({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'new' }] },
    });
    expect(entry.message.content[0]?.content).toBe('old');
  });

  test('fills known template slots and leaves unknown ones', () => {
    expect(fillTemplate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
