import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { codePointLength, shrinkToolResponse } from './spill-output.js';

const big = 'x'.repeat(5000);
const stashed: string[] = [];
const stash = (text: string): string => {
  stashed.push(text);
  return `P${stashed.length}`;
};
const shrink = (tool: string, response: unknown, threshold = 4000): unknown =>
  shrinkToolResponse(tool, response, threshold, stash);

afterEach(() => {
  stashed.length = 0;
});

describe('codePointLength', () => {
  test('counts a surrogate pair once and a lone surrogate once', () => {
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(codePointLength('')).toBe(0);
  });
});

describe('shrinkToolResponse', () => {
  test('spills at the threshold, not below, counting code points', () => {
    expect(shrink('Bash', { stdout: 'a'.repeat(3999), stderr: '' })).toBeUndefined();
    expect(shrink('Bash', { stdout: 'a'.repeat(4000), stderr: '' })).toEqual({ stdout: 'P1', stderr: '' });
    // 2000 emoji are 4000 UTF-16 units but only 2000 characters.
    expect(shrink('Bash', { stdout: '😀'.repeat(2000), stderr: '' })).toBeUndefined();
    expect(shrink('Bash', { stdout: '😀'.repeat(4000), stderr: '' })).toEqual({ stdout: 'P2', stderr: '' });
  });

  test('Bash: replaces stdout and stderr, keeping every other key, and never mutates the input', () => {
    const response = {
      stdout: big,
      stderr: `${big}e`,
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    };
    const copy = structuredClone(response);
    expect(shrink('Bash', response)).toEqual({
      stdout: 'P1',
      stderr: 'P2',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
    expect(response).toEqual(copy);
  });

  test('Bash: leaves image output alone', () => {
    expect(shrink('Bash', { stdout: big, stderr: '', isImage: true })).toBeUndefined();
  });

  describe('Bash output the binary truncated', () => {
    let dir = '';
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    test('spills the full saved output and drops the keys that would show the binary preview', () => {
      dir = mkdtempSync(join(tmpdir(), 'flower-persisted-'));
      const full = `${'y'.repeat(30_000)}TAIL`;
      writeFileSync(join(dir, 'out.txt'), full);
      const response = {
        stdout: full.slice(0, 30_000),
        stderr: '',
        interrupted: false,
        persistedOutputPath: join(dir, 'out.txt'),
        persistedOutputSize: 30_004,
      };
      expect(shrink('Bash', response)).toEqual({ stdout: 'P1', stderr: '', interrupted: false });
      expect(stashed).toEqual([full]);
      // Above the truncated part's length, the full text still decides.
      stashed.length = 0;
      expect(shrink('Bash', response, 30_002)).toEqual({ stdout: 'P1', stderr: '', interrupted: false });
    });

    test('falls back to the truncated stdout when the saved file is gone', () => {
      const response = {
        stdout: big,
        stderr: '',
        persistedOutputPath: '/nonexistent/out.txt',
        persistedOutputSize: 9,
      };
      expect(shrink('Bash', response)).toEqual({ stdout: 'P1', stderr: '' });
      expect(stashed).toEqual([big]);
    });
  });

  test('Read: replaces the text content only', () => {
    const file = { filePath: 'big.txt', content: big, numLines: 1, startLine: 1, totalLines: 1 };
    expect(shrink('Read', { type: 'text', file })).toEqual({
      type: 'text',
      file: { ...file, content: 'P1' },
    });
    const image = { type: 'image', file: { base64: big, type: 'image/png', originalSize: 9000 } };
    expect(shrink('Read', image)).toBeUndefined();
    expect(shrink('Read', { type: 'notebook', file: { filePath: 'n.ipynb', cells: [big] } })).toBeUndefined();
  });

  test('Grep: content mode and file lists (joined by newlines into one pointer element)', () => {
    expect(
      shrink('Grep', { mode: 'content', numFiles: 0, filenames: [], content: big, numLines: 9 }),
    ).toEqual({
      mode: 'content',
      numFiles: 0,
      filenames: [],
      content: 'P1',
      numLines: 9,
    });
    const names = Array.from({ length: 400 }, (_, index) => `src/deep/path/file-${index}.ts`);
    expect(shrink('Grep', { mode: 'files_with_matches', filenames: names, numFiles: 400 })).toEqual({
      mode: 'files_with_matches',
      filenames: ['P2'],
      numFiles: 400,
    });
    expect(stashed[1]).toBe(names.join('\n'));
    expect(shrink('Grep', { mode: 'files_with_matches', filenames: ['a.ts'], numFiles: 1 })).toBeUndefined();
  });

  test('Glob: the file list', () => {
    const names = Array.from({ length: 100 }, (_, index) => `${'d/'.repeat(20)}f${index}`);
    expect(shrink('Glob', { filenames: names, durationMs: 3, numFiles: 100, truncated: false })).toEqual({
      filenames: ['P1'],
      durationMs: 3,
      numFiles: 100,
      truncated: false,
    });
    expect(stashed).toEqual([names.join('\n')]);
  });

  test('Glob: a truncated list says how many it holds, since the binary would count one', () => {
    const names = Array.from({ length: 100 }, (_, index) => `${'d/'.repeat(20)}f${index}`);
    const response = { filenames: names, durationMs: 3, numFiles: 100, truncated: true, totalMatches: 120 };
    const note =
      '(The list holds the first 100 of 120 matching files; narrow the pattern or path to see the rest.)';
    expect(shrink('Glob', { ...response, countIsComplete: true })).toEqual({
      ...response,
      countIsComplete: true,
      filenames: [`P1\n${note}`],
      truncated: false,
    });
    expect(shrink('Glob', { ...response, countIsComplete: false })).toMatchObject({
      filenames: [
        'P2\n(The list holds the first 100 of more than 120 matching files; ' +
          'narrow the pattern or path to see the rest.)',
      ],
    });
    const { totalMatches: _, ...old } = response;
    expect(shrink('Glob', old)).toMatchObject({
      filenames: [
        'P3\n(The list holds the first 100 matching files; narrow the pattern or path to see the rest.)',
      ],
    });
  });

  test('WebFetch: the result', () => {
    const response = {
      bytes: 9,
      code: 200,
      codeText: 'OK',
      result: big,
      durationMs: 5,
      url: 'https://x.invalid',
    };
    expect(shrink('WebFetch', response)).toEqual({ ...response, result: 'P1' });
  });

  test('MCP: an all-text block array becomes one pointer block, texts joined by newlines', () => {
    const blocks = [
      { type: 'text', text: 'a'.repeat(2500) },
      { type: 'text', text: 'b'.repeat(2500) },
    ];
    expect(shrink('mcp__fw__dump', blocks)).toEqual([{ type: 'text', text: 'P1' }]);
    expect(stashed).toEqual([`${'a'.repeat(2500)}\n${'b'.repeat(2500)}`]);
    expect(shrink('mcp__fw__dump', [{ type: 'text', text: 'short' }])).toBeUndefined();
  });

  test('MCP: with an image among the blocks only the long text blocks change', () => {
    const image = { type: 'image', data: big, mimeType: 'image/png' };
    const blocks = [
      image,
      { type: 'text', text: big, annotations: { a: 1 } },
      { type: 'text', text: 'short' },
    ];
    expect(shrink('mcp__fw__shot', blocks)).toEqual([
      image,
      { type: 'text', text: 'P1', annotations: { a: 1 } },
      { type: 'text', text: 'short' },
    ]);
    expect(shrink('mcp__fw__shot', [image])).toBeUndefined();
  });

  test('MCP: a plain string result', () => {
    expect(shrink('mcp__fw__dump', big)).toBe('P1');
  });

  test('Agent: the report blocks only, never the prompt', () => {
    const response = {
      status: 'completed',
      prompt: big,
      agentId: 'a1',
      content: [{ type: 'text', text: big }],
    };
    expect(shrink('Agent', response)).toEqual({ ...response, content: [{ type: 'text', text: 'P1' }] });
    expect(shrink('Agent', { ...response, content: [{ type: 'text', text: 'short' }] })).toBeUndefined();
  });

  test('other tools: string fields recursively, arrays, non-strings and base64 objects untouched', () => {
    const response = {
      top: big,
      small: 'ok',
      count: 5,
      nested: { deeper: { text: big }, list: [big] },
      image: { base64: big, text: big },
    };
    expect(shrink('WebSearch', response)).toEqual({
      top: 'P1',
      small: 'ok',
      count: 5,
      nested: { deeper: { text: 'P2' }, list: [big] },
      image: { base64: big, text: big },
    });
    expect(shrink('Custom', big)).toBe('P3');
    expect(shrink('Custom', [{ type: 'image', data: big }])).toBeUndefined();
    expect(shrink('Custom', null)).toBeUndefined();
    expect(shrink('Custom', 42)).toBeUndefined();
  });
});
