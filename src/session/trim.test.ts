import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  deepFreeze,
  toolResultIds,
  TranscriptBuilder,
} from '../../test/fixtures/transcripts/transcript-builder.js';
import { isFlowerError } from '../errors.js';
import { blocksOf, type Entry } from './entry-content.js';
import { SpillNames, trim } from './trim.js';
import { TrimPolicy } from './trim-policy.js';

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'flower-trim-'));
});
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
});

function contentOf(entries: readonly Entry[], id: string): unknown {
  for (const entry of entries) {
    for (const block of blocksOf(entry) ?? []) if (block['tool_use_id'] === id) return block['content'];
  }
  throw new Error(`no result for ${id}`);
}

const sha16 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

describe('trim', () => {
  test('spills old large results to .flower/spill and keeps the newest keepRecent', () => {
    const transcript = new TranscriptBuilder();
    const big = ['a', 'b', 'c'].map((letter) => letter.repeat(3000));
    const ids = big.map((text) => transcript.read('/w/f.txt', text));
    const small = transcript.bash('npm test', 'ok');
    const { entries, report } = trim(deepFreeze(transcript.entries), new TrimPolicy({ keepRecent: 1 }), {
      workspace,
    });
    expect(report).toEqual({ cleared: 2, kept: 1, charsSaved: expect.any(Number) as unknown });
    const path = join(workspace, '.flower', 'spill', `${sha16(big[0]!)}.txt`);
    expect(readFileSync(path, 'utf8')).toBe(big[0]);
    expect(contentOf(entries, ids[0]!)).toBe(
      `[Tool result archived: 3000 characters. The full text is in ${path}; Read it if you need it.]`,
    );
    expect(contentOf(entries, ids[1]!)).toContain(`${sha16(big[1]!)}.txt`);
    expect(contentOf(entries, ids[2]!)).toBe(big[2]);
    expect(contentOf(entries, small)).toBe('ok');
    const pointer = String(contentOf(entries, ids[0]!));
    expect(report.charsSaved).toBe(2 * (3000 - pointer.length));
  });

  test('is idempotent: the same content maps to one file, written once', () => {
    const transcript = new TranscriptBuilder();
    transcript.bash('cat log', 'z'.repeat(5000));
    transcript.bash('cat log', 'z'.repeat(5000));
    transcript.bash('cat other', 'y'.repeat(5000));
    const policy = new TrimPolicy({ keepRecent: 1 });
    const first = trim(transcript.entries, policy, { workspace });
    const directory = join(workspace, '.flower', 'spill');
    const file = join(directory, `${sha16('z'.repeat(5000))}.txt`);
    const written = statSync(file).mtimeMs;
    const second = trim(transcript.entries, policy, { workspace });
    expect(second).toEqual(first);
    expect(readdirSync(directory)).toEqual([`${sha16('z'.repeat(5000))}.txt`]);
    expect(statSync(file).mtimeMs).toBe(written);
  });

  test('trims at minChars or more, counted in code points', () => {
    const transcript = new TranscriptBuilder();
    const exact = transcript.bash('cat a', 'a'.repeat(2000));
    const under = transcript.bash('cat b', 'b'.repeat(1999));
    // 1,999 emoji are 3,998 UTF-16 units but 1,999 characters: below the boundary.
    const emoji = transcript.bash('cat c', '😀'.repeat(1999));
    const { entries, report } = trim(transcript.entries, new TrimPolicy({ keepRecent: 0 }), { workspace });
    expect(report.cleared).toBe(1);
    expect(contentOf(entries, exact)).toMatch(/^\[Tool result archived: 2000 characters/);
    expect(contentOf(entries, under)).toBe('b'.repeat(1999));
    expect(contentOf(entries, emoji)).toBe('😀'.repeat(1999));
  });

  test('joins text blocks with a newline and leaves image results alone', () => {
    const transcript = new TranscriptBuilder();
    const id = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id, name: 'Bash', input: { command: 'x' } }]);
    const blocks = [
      { type: 'text', text: 'p'.repeat(1500) },
      { type: 'text', text: 'q'.repeat(1500) },
    ];
    transcript.results([{ id, content: blocks }]);
    const image = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: image, name: 'Read', input: { file_path: 'a.png' } }]);
    transcript.results([
      {
        id: image,
        content: [
          { type: 'image', source: {} },
          { type: 'text', text: 'r'.repeat(3000) },
        ],
      },
    ]);
    const { entries } = trim(transcript.entries, new TrimPolicy({ keepRecent: 0 }), { workspace });
    const joined = `${'p'.repeat(1500)}\n${'q'.repeat(1500)}`;
    expect(readFileSync(join(workspace, '.flower', 'spill', `${sha16(joined)}.txt`), 'utf8')).toBe(joined);
    expect(contentOf(entries, id)).toMatch(/^\[Tool result archived: 3001 characters/);
    expect(Array.isArray(contentOf(entries, image))).toBe(true);
  });

  test('never touches compact summaries or meta entries and never removes a tool_result block', () => {
    const transcript = new TranscriptBuilder();
    const meta = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: meta, name: 'Bash', input: { command: 'x' } }]);
    transcript.results([{ id: meta, content: 'm'.repeat(4000), extra: { isMeta: true } }]);
    const summary = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: summary, name: 'Bash', input: { command: 'x' } }]);
    transcript.results([{ id: summary, content: 's'.repeat(4000), extra: { isCompactSummary: true } }]);
    const plain = transcript.bash('x', 'p'.repeat(4000));
    const { entries, report } = trim(deepFreeze(transcript.entries), new TrimPolicy({ keepRecent: 0 }), {
      workspace,
    });
    expect(report.cleared).toBe(1);
    expect(contentOf(entries, meta)).toBe('m'.repeat(4000));
    expect(contentOf(entries, summary)).toBe('s'.repeat(4000));
    expect(contentOf(entries, plain)).toMatch(/^\[Tool result archived/);
    expect(toolResultIds(entries)).toEqual(toolResultIds(transcript.entries));
  });

  test('records a spill it cannot write and leaves that result in place instead of failing', () => {
    writeFileSync(join(workspace, '.flower'), 'a file where the directory should be');
    const transcript = new TranscriptBuilder();
    const id = transcript.bash('cat x', 'x'.repeat(3000));
    const { entries, report } = trim(transcript.entries, new TrimPolicy({ keepRecent: 0 }), { workspace });
    expect(report.cleared).toBe(0);
    expect(report.kept).toBe(1);
    expect(report.errors).toHaveLength(1);
    expect(report.errors?.[0]).toMatch(/^trim: could not write a spill file/);
    expect(contentOf(entries, id)).toBe('x'.repeat(3000));
  });

  test('reports kept sites when nothing is old enough to trim', () => {
    const transcript = new TranscriptBuilder();
    transcript.bash('cat x', 'x'.repeat(3000));
    expect(trim(transcript.entries, new TrimPolicy(), { workspace }).report).toEqual({
      cleared: 0,
      kept: 1,
      charsSaved: 0,
    });
  });
});

describe('TrimPolicy', () => {
  test('has the reference defaults', () => {
    const policy = new TrimPolicy();
    expect([policy.enabled, policy.keepRecent, policy.minChars, policy.spillDirname]).toEqual([
      true,
      20,
      2000,
      '.flower/spill',
    ]);
  });

  test('rejects a spill directory outside the workspace with a clear error', () => {
    for (const spillDirname of ['/tmp/spill', '../spill', '']) {
      let caught: unknown;
      try {
        new TrimPolicy({ spillDirname });
      } catch (error) {
        caught = error;
      }
      expect(isFlowerError(caught)).toBe(true);
      expect((caught as Error).message).toMatch(/spillDirname must be a directory inside the workspace/);
    }
  });

  test('rejects a fractional count', () => {
    expect(() => new TrimPolicy({ keepRecent: 1.5 })).toThrow(/keepRecent must be a whole number/);
  });
});

describe('SpillNames', () => {
  const counting = () => {
    const hashed: string[] = [];
    const hash = (text: string): string => {
      hashed.push(text);
      return `${sha16(text)}.txt`;
    };
    return { hashed, hash };
  };

  test('hashes a block once, then reuses the name while the text is the same', () => {
    const { hashed, hash } = counting();
    const names = new SpillNames({ hash });
    const text = 'x'.repeat(3000);
    expect(names.nameOf(text, 'u1#0')).toBe(`${sha16(text)}.txt`);
    expect(names.nameOf('x'.repeat(3000), 'u1#0')).toBe(`${sha16(text)}.txt`);
    expect(hashed).toHaveLength(1);
  });

  test('never reuses a name for a different text under the same block, nor without an id', () => {
    const { hashed, hash } = counting();
    const names = new SpillNames({ hash });
    names.nameOf('a'.repeat(3000), 'u1#0');
    expect(names.nameOf('b'.repeat(3000), 'u1#0')).toBe(`${sha16('b'.repeat(3000))}.txt`);
    names.nameOf('c', null);
    names.nameOf('c', null);
    expect(hashed).toHaveLength(4);
  });

  test('forgets the oldest names past its size limit', () => {
    const { hashed, hash } = counting();
    const names = new SpillNames({ hash, maxChars: 5000 });
    names.nameOf('a'.repeat(3000), 'u1#0');
    names.nameOf('b'.repeat(3000), 'u2#0');
    names.nameOf('b'.repeat(3000), 'u2#0');
    names.nameOf('a'.repeat(3000), 'u1#0');
    expect(hashed).toEqual(['a', 'b', 'a'].map((letter) => letter.repeat(3000)));
  });

  test('trim with remembered names returns what trim without them returns', () => {
    const transcript = new TranscriptBuilder();
    for (const letter of ['a', 'b', 'c']) transcript.read('/w/f.txt', letter.repeat(3000));
    const policy = new TrimPolicy({ keepRecent: 1 });
    const plain = trim(deepFreeze(transcript.entries), policy, { workspace });
    const names = new SpillNames();
    const first = trim(deepFreeze(transcript.entries), policy, { workspace, names });
    const again = trim(deepFreeze(transcript.entries), policy, { workspace, names });
    expect(first).toEqual(plain);
    expect(again).toEqual(plain);
  });
});
