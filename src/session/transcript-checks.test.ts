// A corpus of broken transcripts made from one recorded by Claude Code 2.1.334 (the fixture), by cutting,
// duplicating, reordering and emptying entries: checkTranscript must name each problem, and nothing else.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Entry } from './entry-content.js';
import { API_REQUEST_LIMIT_BYTES, checkTranscript, type TranscriptCheckRule } from './transcript-checks.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/transcripts/claude-code-2.1.334.json', import.meta.url), 'utf8'),
) as { main: Entry[]; subagent: Entry[]; retry: Entry[] };

/** The recorded main transcript up to its last model reply (before the resumed prompt that failed with 529). */
function recorded(): Entry[] {
  const copy = structuredClone(fixture.main);
  const last = copy.findIndex(
    (entry) =>
      entry.type === 'user' && typeof entry['uuid'] === 'string' && entry['uuid'].startsWith('03d94f'),
  );
  return copy.slice(0, last);
}

function at(entries: Entry[], prefix: string): number {
  const index = entries.findIndex(
    (entry) => typeof entry['uuid'] === 'string' && entry['uuid'].startsWith(prefix),
  );
  if (index === -1) throw new Error(`no entry ${prefix}`);
  return index;
}

function content(entry: Entry): Array<Record<string, unknown>> {
  return (entry['message'] as { content: Array<Record<string, unknown>> }).content;
}

function rules(entries: Entry[]): Array<[TranscriptCheckRule, string]> {
  return checkTranscript(entries).map((finding) => [finding.rule, (finding.uuid ?? '').slice(0, 6)]);
}

/** A corpus case: how the recorded transcript is broken, and the findings (rule, uuid prefix) expected. */
interface Case {
  name: string;
  breakIt: (entries: Entry[]) => Entry[];
  expected: Array<[TranscriptCheckRule, string]>;
}

const corpus: Case[] = [
  {
    name: 'cut: the tool_result of the last Bash call',
    breakIt: (entries) => entries.filter((_, index) => index !== at(entries, 'a80d4f')),
    // The next reply hangs off the removed result: its parent is gone too.
    expected: [
      ['unanswered-tool-use', '0b1e8c'],
      ['broken-parent', 'c52e39'],
    ],
  },
  {
    name: 'cut: everything after a tool call (killed before the result was written)',
    breakIt: (entries) => entries.slice(0, at(entries, '0b1e8c') + 1),
    expected: [['unanswered-tool-use', '0b1e8c']],
  },
  {
    name: 'cut: the assistant entry holding a call (its result is orphaned)',
    breakIt: (entries) => entries.filter((_, index) => index !== at(entries, 'c52e39')),
    expected: [
      ['broken-parent', '0a9154'],
      ['orphan-tool-result', '0a9154'],
    ],
  },
  {
    name: 'cut: the first prompt (the chain has no root)',
    breakIt: (entries) => entries.filter((_, index) => index !== at(entries, 'f5d4d0')),
    expected: [['broken-parent', 'b914e3']],
  },
  {
    name: 'cut: one of two parallel calls, its result kept',
    breakIt: (entries) => {
      const out = entries.filter((_, index) => index !== at(entries, '1d8115'));
      out[at(out, '8cdced')]!['parentUuid'] = out[at(out, '884384')]!['uuid'];
      return out;
    },
    expected: [['orphan-tool-result', '8cdced']],
  },
  {
    name: 'duplicated: a whole assistant entry',
    breakIt: (entries) => {
      const index = at(entries, 'c52e39');
      return [...entries.slice(0, index + 1), structuredClone(entries[index]!), ...entries.slice(index + 1)];
    },
    expected: [
      ['duplicate-uuid', 'c52e39'],
      ['duplicate-tool-use-id', 'c52e39'],
      // Both copies hang off the same result: the chain forks there too.
      ['forked-chain', 'c52e39'],
    ],
  },
  {
    name: 'duplicated: a tool_result entry',
    breakIt: (entries) => {
      const index = at(entries, '0a9154');
      return [...entries.slice(0, index + 1), structuredClone(entries[index]!), ...entries.slice(index + 1)];
    },
    expected: [
      ['duplicate-uuid', '0a9154'],
      ['duplicate-tool-result', '0a9154'],
    ],
  },
  {
    name: 'duplicated: a tool_use id reused by a later call',
    breakIt: (entries) => {
      const first = content(entries[at(entries, '0b1e8c')]!)[0]!['id'];
      content(entries[at(entries, 'c52e39')]!)[0]!['id'] = first;
      content(entries[at(entries, '0a9154')]!)[0]!['tool_use_id'] = first;
      return entries;
    },
    expected: [
      ['duplicate-tool-use-id', 'c52e39'],
      ['duplicate-tool-result', '0a9154'],
    ],
  },
  {
    name: 'duplicated: a uuid given to two different entries',
    breakIt: (entries) => {
      entries[at(entries, '68654c')]!['uuid'] = entries[at(entries, '5389e7')]!['uuid'] as string;
      return entries;
    },
    // The reply after the attachment now names a uuid that no entry has.
    expected: [
      ['duplicate-uuid', '5389e7'],
      ['broken-parent', '0b1e8c'],
    ],
  },
  {
    name: 'not a problem: two replies sharing a message.id are read as one reply',
    breakIt: (entries) => {
      const id = (entries[at(entries, '0b1e8c')]!['message'] as { id: string }).id;
      (entries[at(entries, 'c52e39')]!['message'] as { id: string }).id = id;
      return entries;
    },
    // The harness merges entries by message.id, and every call of that reply is still answered.
    expected: [],
  },
  {
    name: 'reordered: a result moved before its call',
    breakIt: (entries) => {
      const call = at(entries, 'c52e39');
      const result = at(entries, '0a9154');
      const out = [...entries];
      const [moved] = out.splice(result, 1);
      out.splice(call, 0, moved!);
      return out;
    },
    expected: [
      ['result-out-of-place', '0a9154'],
      ['unanswered-tool-use', 'c52e39'],
    ],
  },
  {
    name: 'reordered: a result moved two turns later',
    breakIt: (entries) => {
      const out = [...entries];
      const [moved] = out.splice(at(out, 'a80d4f'), 1);
      out.splice(at(out, '0a9154') + 1, 0, moved!);
      return out;
    },
    expected: [
      ['unanswered-tool-use', '0b1e8c'],
      ['result-out-of-place', 'a80d4f'],
    ],
  },
  {
    name: 'reordered: thinking after the text of the same reply',
    breakIt: (entries) => {
      const thinking = at(entries, '3f045c');
      const out = [...entries];
      const [moved] = out.splice(thinking, 1);
      out.splice(at(out, 'f5fa15') + 1, 0, moved!);
      return out;
    },
    expected: [['thinking-not-first', '3f045c']],
  },
  {
    name: 'reordered: thinking after a text block inside one entry',
    breakIt: (entries) => {
      const entry = entries[at(entries, 'f5fa15')]!;
      content(entry).push({ type: 'thinking', thinking: 'late', signature: 'sig' });
      return entries;
    },
    expected: [['thinking-not-first', 'f5fa15']],
  },
  {
    name: 'emptied: an assistant entry',
    breakIt: (entries) => {
      (entries[at(entries, 'dd5a10')]!['message'] as { content: unknown }).content = [];
      return entries;
    },
    expected: [['empty-content', 'dd5a10']],
  },
  {
    name: 'emptied: a user prompt (string content)',
    breakIt: (entries) => {
      (entries[at(entries, 'f5d4d0')]!['message'] as { content: unknown }).content = '';
      return entries;
    },
    expected: [['empty-content', 'f5d4d0']],
  },
  {
    name: 'emptied: a tool_result entry loses its blocks',
    breakIt: (entries) => {
      (entries[at(entries, '60df58')]!['message'] as { content: unknown }).content = [];
      return entries;
    },
    expected: [
      ['unanswered-tool-use', '1bc9f3'],
      ['empty-content', '60df58'],
    ],
  },
  {
    name: 'forked: a second prompt hanging off an earlier reply',
    breakIt: (entries) => {
      const prompt = structuredClone(entries[at(entries, 'f5d4d0')]!);
      prompt['uuid'] = '99999999-0000-4000-8000-000000000001';
      prompt['parentUuid'] = entries[at(entries, '68654c')]!['uuid'];
      return [...entries, prompt];
    },
    expected: [['forked-chain', '999999']],
  },
  {
    name: 'forked: the last reply re-parented onto an earlier entry',
    breakIt: (entries) => {
      entries[at(entries, 'dd5a10')]!['parentUuid'] = entries[at(entries, '884384')]!['uuid'];
      return entries;
    },
    expected: [['forked-chain', 'dd5a10']],
  },
  {
    name: 'oversized: a tool result over the request limit',
    breakIt: (entries) => {
      content(entries[at(entries, 'a80d4f')]!)[0]!['content'] = 'x'.repeat(API_REQUEST_LIMIT_BYTES + 1);
      return entries;
    },
    expected: [['oversized-entry', 'a80d4f']],
  },
  {
    name: 'synthetic leaf: the resumed prompt that failed with 529 (as recorded)',
    breakIt: () => structuredClone(fixture.main),
    expected: [['synthetic-leaf', 'aa267f']],
  },
  {
    name: 'broken parent: a uuid typo in the middle of the chain',
    breakIt: (entries) => {
      entries[at(entries, '1bc9f3')]!['parentUuid'] = '00000000-dead-4000-8000-000000000000';
      return entries;
    },
    expected: [['broken-parent', '1bc9f3']],
  },
];

describe('checkTranscript on the recorded transcripts', () => {
  test('the recorded transcripts as they were written have no finding', () => {
    expect(rules(recorded())).toEqual([]);
    expect(rules(structuredClone(fixture.subagent))).toEqual([]);
    expect(rules(structuredClone(fixture.retry))).toEqual([]);
  });

  test('the corpus holds at least 20 broken transcripts', () => {
    expect(corpus.filter((entry) => entry.expected.length > 0).length).toBeGreaterThanOrEqual(20);
  });

  test.each(corpus)('$name', ({ breakIt, expected }) => {
    expect(rules(breakIt(recorded()))).toEqual(expected);
  });

  test('each finding says its severity: healed-on-load rules are warnings, API rejections errors', () => {
    const entries = recorded().slice(0, at(recorded(), '0b1e8c') + 1);
    expect(checkTranscript(entries)[0]).toMatchObject({ rule: 'unanswered-tool-use', severity: 'warning' });
    const emptied = recorded();
    (emptied[at(emptied, 'dd5a10')]!['message'] as { content: unknown }).content = [];
    expect(checkTranscript(emptied)[0]).toMatchObject({ rule: 'empty-content', severity: 'error' });
  });
});
