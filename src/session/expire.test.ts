import { describe, expect, test } from 'vitest';
import {
  deepFreeze,
  toolResultIds,
  TranscriptBuilder,
} from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, type Entry } from './entry-content.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { commandLabel, expire } from './expire.js';

function resultOf(entries: readonly Entry[], id: string): Record<string, unknown> {
  for (const entry of entries) {
    for (const block of blocksOf(entry) ?? []) if (block['tool_use_id'] === id) return block;
  }
  throw new Error(`no result for ${id}`);
}

describe('expire', () => {
  test('expires all but the newest keepRecent ephemeral results (six git status, keep 2 → 4 expired)', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const ids = Array.from({ length: 6 }, () =>
      transcript.bash('git status', 'On branch main\nnothing to commit'),
    );
    const { entries, report } = expire(
      deepFreeze(transcript.entries),
      new EphemeralPolicy({ keepRecent: 2 }),
    );
    expect(report).toEqual({ expired: 4 });
    const contents = ids.map((id) => resultOf(entries, id)['content']);
    expect(contents.slice(4)).toEqual([
      'On branch main\nnothing to commit',
      'On branch main\nnothing to commit',
    ]);
    for (const content of contents.slice(0, 4))
      expect(content).toMatch(/^\[Output of `git status` from \d+ turns ago has expired/);
  });

  test('counts age in model turns', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const first = transcript.bash('ls', 'a b');
    transcript.reply([{ type: 'text', text: 'thinking aloud' }]);
    transcript.prompt('more');
    transcript.bash('pwd', '/w');
    const { entries } = expire(transcript.entries, new EphemeralPolicy({ keepRecent: 1 }));
    // After the `ls` result: the text reply, then the `pwd` call → 2 turns.
    expect(resultOf(entries, first)['content']).toContain('from 2 turns ago');
  });

  test('never expires mutating commands, Read results, or results longer than maxChars', () => {
    const transcript = new TranscriptBuilder();
    const mutating = transcript.bash('rm -rf build', 'removed');
    const test_ = transcript.bash('npm test', 'ok');
    const readId = transcript.read('/w/a.txt', 'content');
    const long = transcript.bash('cat big.txt', 'x'.repeat(2001));
    const { entries, report } = expire(transcript.entries, new EphemeralPolicy({ keepRecent: 0 }));
    expect(report.expired).toBe(0);
    expect(resultOf(entries, mutating)['content']).toBe('removed');
    expect(resultOf(entries, test_)['content']).toBe('ok');
    expect(resultOf(entries, readId)['content']).toBe('content');
    expect(resultOf(entries, long)['content']).toBe('x'.repeat(2001));
  });

  test('keepRecent 0 expires every ephemeral result', () => {
    const transcript = new TranscriptBuilder();
    transcript.bash('ls', 'a');
    transcript.bash('ls', 'b');
    expect(expire(transcript.entries, new EphemeralPolicy({ keepRecent: 0 })).report.expired).toBe(2);
  });

  test('leaves protected entries, images and the blocks themselves alone, and never mutates its input', () => {
    const transcript = new TranscriptBuilder();
    const id = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }]);
    transcript.results([{ id, content: 'meta ls', extra: { isMeta: true } }]);
    const image = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: image, name: 'Bash', input: { command: 'ls' } }]);
    transcript.results([
      {
        id: image,
        content: [
          { type: 'image', source: {} },
          { type: 'text', text: 'x' },
        ],
      },
    ]);
    const plain = transcript.bash('ls', 'plain');
    const before = structuredClone(transcript.entries);
    const { entries, report } = expire(
      deepFreeze(transcript.entries),
      new EphemeralPolicy({ keepRecent: 0 }),
    );
    expect(report.expired).toBe(1);
    expect(resultOf(entries, id)['content']).toBe('meta ls');
    expect(Array.isArray(resultOf(entries, image)['content'])).toBe(true);
    expect(resultOf(entries, plain)['content']).toMatch(/^\[Output of `ls`/);
    expect(toolResultIds(entries)).toEqual(toolResultIds(before));
    expect(transcript.entries).toEqual(before);
  });

  test('labels a command by its first line, at most 60 characters', () => {
    expect(commandLabel('git status\nrm -rf x')).toBe('`git status`');
    expect(commandLabel(`echo ${'a'.repeat(80)}`)).toBe(`\`echo ${'a'.repeat(55)}…\``);
  });
});
