import picocolors from 'picocolors';
import { describe, expect, test } from 'vitest';
import { displayWidth } from './display-width.js';
import { markdownLines } from './markdown-lines.js';

const plain = picocolors.createColors(false);
const colored = picocolors.createColors(true);
const BOLD = '\x1b[1m';

describe('markdownLines', () => {
  test('draws headings, bold, lists and code without colour (NO_COLOR): no stray markers', () => {
    const text = [
      '## Plan',
      'Write **wc.js** and `wc.test.js`.',
      '',
      '- one item',
      '- a second item that is long enough to wrap under its own bullet',
      '',
      '```js',
      "console.log('a line of code that is longer than the screen and must never be wrapped or cut')",
      '```',
    ].join('\n');
    expect(markdownLines(text, { width: 40, first: '  ', next: '  ', colors: plain })).toEqual([
      '  ## Plan',
      '  Write wc.js and `wc.test.js`.',
      '',
      '  - one item',
      '  - a second item that is long enough to',
      '    wrap under its own bullet',
      '',
      "      console.log('a line of code that is longer than the screen and must never be wrapped or cut')",
    ]);
  });

  test('styles with colour: a heading and bold words in bold, word by word, and no ** or ## left of bold', () => {
    const lines = markdownLines('# Done\nIt is **really done** now.', {
      width: 60,
      first: '  ',
      next: '  ',
      colors: colored,
    });
    expect(lines[0]).toContain(`${BOLD}Done`);
    expect(lines[1]).toContain(`${BOLD}really\x1b[22m ${BOLD}done`);
    expect(lines.join('\n')).not.toContain('**');
  });

  test('wraps CJK at character boundaries and keeps a long path whole', () => {
    const path = `/home/someone/projects/${'deep/'.repeat(10)}notes.md`;
    const lines = markdownLines(`${'这是一段很长的中文说明，'.repeat(4)}\n\nSee ${path} for details.`, {
      width: 30,
      first: '  ',
      next: '  ',
      colors: plain,
    });
    for (const line of lines.filter((line) => !line.includes(path))) {
      expect(displayWidth(line)).toBeLessThanOrEqual(30);
    }
    expect(lines).toContain(`  ${path}`);
    expect(lines.some((line) => line.startsWith('  ，'))).toBe(false);
  });

  test('puts the caller first-line prefix on the first line only', () => {
    expect(
      markdownLines('one two three four', { width: 12, first: '  = ', next: '    ', colors: plain }),
    ).toEqual(['  = one two', '    three', '    four']);
  });
});
