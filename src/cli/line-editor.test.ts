import { describe, expect, test } from 'vitest';

import { LineEditor, type EditorAction } from './line-editor.js';

const ESC = '\x1b';
const LEFT = `${ESC}[D`;
const RIGHT = `${ESC}[C`;
const UP = `${ESC}[A`;
const DOWN = `${ESC}[B`;

/** Feeds `keys` and shows the buffer with `|` at the cursor. */
function typed(keys: string | Uint8Array | Array<string | Uint8Array>): {
  screen: string;
  actions: EditorAction[];
} {
  const editor = new LineEditor();
  const actions = (Array.isArray(keys) ? keys : [keys]).flatMap((chunk) => editor.feed(chunk));
  return { screen: `${editor.beforeCursor}|${editor.afterCursor}`, actions };
}

const redraw: EditorAction = { kind: 'redraw' };

describe('LineEditor', () => {
  test.each<[string, string | Uint8Array | Array<string | Uint8Array>, string]>([
    ['inserts printable text', 'abc', 'abc|'],
    ['deletes the character before the cursor with DEL', 'abc\x7f', 'ab|'],
    ['deletes with ^H', 'abc\b', 'ab|'],
    ['ignores Backspace on an empty line', '\x7f', '|'],
    ['moves left and inserts at the cursor', `ac${LEFT}b`, 'ab|c'],
    ['moves right up to the end only', `ab${LEFT}${LEFT}${RIGHT}${RIGHT}${RIGHT}`, 'ab|'],
    ['moves left down to the start only', `ab${LEFT}${LEFT}${LEFT}`, '|ab'],
    ['goes home with ESC[H', `abc${ESC}[H`, '|abc'],
    ['goes home with ESC[1~', `abc${ESC}[1~`, '|abc'],
    ['goes home with ESC[7~', `abc${ESC}[7~`, '|abc'],
    ['goes home with ESC O H', `abc${ESC}OH`, '|abc'],
    ['goes home with ^A', 'abc\x01', '|abc'],
    ['goes to the end with ESC[F', `abc${ESC}[H${ESC}[F`, 'abc|'],
    ['goes to the end with ESC[4~', `abc\x01${ESC}[4~`, 'abc|'],
    ['goes to the end with ESC[8~', `abc\x01${ESC}[8~`, 'abc|'],
    ['goes to the end with ^E', 'abc\x01\x05', 'abc|'],
    ['moves with application-mode arrows', `ab${ESC}OD`, 'a|b'],
    ['moves with modified arrows', `ab${ESC}[1;5D`, 'a|b'],
    ['deletes forward with ESC[3~', `abc\x01${ESC}[3~`, '|bc'],
    ['ignores a forward delete at the end', `abc${ESC}[3~`, 'abc|'],
    ['clears the line with ^U', 'abc\x15', '|'],
    ['ignores up and down with no line submitted yet', `ab${ESC}[A${ESC}[B`, 'ab|'],
    ['recalls the previous line with up, cursor at its end', `one\rtwo\r${UP}`, 'two|'],
    ['walks back through the lines with up, stopping at the oldest', `one\rtwo\r${UP}${UP}${UP}`, 'one|'],
    ['brings back the line being typed with down', `one\rdra${LEFT}${UP}${DOWN}`, 'dra|'],
    [
      'walks forward with down, stopping at the line being typed',
      `a\rb\r${UP}${UP}${DOWN}${DOWN}${DOWN}`,
      '|',
    ],
    ['recalls with application-mode arrows', `one\r${ESC}OA`, 'one|'],
    ['skips empty lines in the history', `one\r\r${UP}`, 'one|'],
    ['stores a line sent again unchanged once', `one\r${UP}\rtwo\r${UP}${UP}${UP}${DOWN}`, 'two|'],
    ['edits a recalled line like any other', `one\r${UP}\x7fe`, 'one|'],
    ['cuts to the end with ^K', `abcd${LEFT}${LEFT}\x0b`, 'ab|'],
    ['puts back what ^K cut with ^Y, at the cursor', `abcd${LEFT}${LEFT}\x0b\x01\x19`, 'cd|ab'],
    ['puts back what ^U cleared with ^Y', 'abc\x15x\x19', 'xabc|'],
    ['keeps the cut text across a submit', `ab${LEFT}\x0b\rz\x19`, 'zb|'],
    ['yanks nothing before anything was cut', 'ab\x19', 'ab|'],
    ['does not replace the cut text with nothing: ^K at the end', `abc${LEFT}\x0b\x05\x0b\x19\x19`, 'abcc|'],
    ['consumes unknown sequences', `a${ESC}[15~${ESC}[200~b`, 'ab|'],
    ['consumes Alt+key', `a${ESC}xb`, 'ab|'],
    ['gives up an escape sequence after 8 bytes and types what follows', `a${ESC}[1234567b`, 'a7b|'],
    ['consumes a long sequence that ends within 8 bytes', `a${ESC}[12;45~b`, 'ab|'],
    ['ignores other control bytes', 'a\t\x02\x07\x1a\x9bb', 'ab|'],
    ['ignores ^D on a non-empty line', 'ab\x04', 'ab|'],
    ['keeps an escape sequence split across reads', ['a', ESC, '[', 'D'], '|a'],
    ['deletes a whole CJK character', '你好\x7f', '你|'],
    ['deletes a whole emoji with a modifier', 'a👍🏽\x7f', 'a|'],
    ['deletes a letter with its combining accent', 'ae\u0301\x7f', 'a|'],
    ['moves over a whole grapheme', `a👍🏽${LEFT}b`, 'ab|👍🏽'],
    ['deletes a whole grapheme forward', `a👍🏽\x01${RIGHT}${ESC}[3~`, 'a|'],
    ['decodes UTF-8 split across reads', [Buffer.from([0xe4, 0xbd]), Buffer.from([0xa0, 0x61])], '你a|'],
    ['decodes bytes', Buffer.from('héllo', 'utf8'), 'héllo|'],
  ])('%s', (_name, keys, screen) => {
    expect(typed(keys).screen).toBe(screen);
  });

  test.each<[string, string | Uint8Array | Array<string | Uint8Array>, EditorAction[]]>([
    ['submits on CR and clears the line', 'hi\r', [redraw, { kind: 'submit', line: 'hi' }]],
    ['submits on LF', 'hi\n', [redraw, { kind: 'submit', line: 'hi' }]],
    [
      'takes CRLF as one Enter',
      'a\r\nb\r\n',
      [redraw, { kind: 'submit', line: 'a' }, redraw, { kind: 'submit', line: 'b' }],
    ],
    ['takes CRLF split across reads as one Enter', ['a\r', '\n'], [redraw, { kind: 'submit', line: 'a' }]],
    ['submits an empty line, never end of input', '\r', [{ kind: 'submit', line: '' }]],
    [
      'submits two empty lines',
      '\r\r',
      [
        { kind: 'submit', line: '' },
        { kind: 'submit', line: '' },
      ],
    ],
    ['ends input on ^D with an empty line', '\x04', [{ kind: 'eof' }]],
    ['ends input on ^D after the line was cleared', 'ab\x15\x04', [redraw, { kind: 'eof' }]],
    ['reports Ctrl-C as an interrupt, keeping the text', 'ab\x03', [redraw, { kind: 'interrupt' }]],
    ['reports Ctrl-C from bytes', Buffer.from([0x03]), [{ kind: 'interrupt' }]],
    ['does not redraw for a key that changes nothing', `${LEFT}\x7f`, []],
    ['submits after a lone Escape press', `ab${ESC}\r`, [redraw, { kind: 'submit', line: 'ab' }]],
    ['lets Enter end an abandoned escape sequence', `a${ESC}[12\r`, [redraw, { kind: 'submit', line: 'a' }]],
    ['keeps the text after the cursor on submit', `ab${LEFT}\r`, [redraw, { kind: 'submit', line: 'ab' }]],
  ])('%s', (_name, keys, actions) => {
    expect(typed(keys).actions).toEqual(actions);
  });

  test('starts a fresh line after a submit', () => {
    const editor = new LineEditor();
    editor.feed('first\r');
    expect([editor.text, editor.cursor]).toEqual(['', 0]);
    editor.feed('x');
    expect([editor.text, editor.cursor]).toEqual(['x', 1]);
  });

  test('reports the cursor as an offset into the text', () => {
    const editor = new LineEditor();
    editor.feed(`你好${LEFT}`);
    expect([editor.text, editor.cursor, editor.beforeCursor, editor.afterCursor]).toEqual([
      '你好',
      1,
      '你',
      '好',
    ]);
  });
});
