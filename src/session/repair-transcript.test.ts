// repairTranscript over the corpus of broken transcripts made from a recorded one: each case gets the repairs
// it needs and no other, what stays broken is only what cannot be repaired without losing something, and a
// resume of the repaired copy passes the fake Messages API's structural rules while the broken one (where the
// API enforces the rule broken) does not.
import { describe, expect, test } from 'vitest';
import { at, content, corpus, recorded, requestOf } from '../../test/fixtures/transcripts/broken-corpus.js';
import { findRequestViolation } from '../testing/request-structure.js';
import type { Entry } from './entry-content.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import { repairTranscript } from './repair-transcript.js';

/** Every text a tool result or prompt of `entries` carries. */
function texts(entries: readonly Entry[]): string[] {
  return entries.flatMap((entry) => {
    const value = (entry['message'] as { content?: unknown } | undefined)?.content;
    if (typeof value === 'string') return [value];
    if (!Array.isArray(value)) return [];
    return (value as Array<Record<string, unknown>>).flatMap((block) =>
      [block['text'], block['content'], block['thinking']].filter(
        (item): item is string => typeof item === 'string',
      ),
    );
  });
}

describe('repairTranscript on the corpus', () => {
  test('the corpus holds at least 20 broken transcripts the fake API judges, 13 of them rejected as stored', () => {
    expect(corpus.filter((entry) => entry.expected.length > 0).length).toBeGreaterThanOrEqual(20);
    expect(corpus.filter((entry) => entry.apiRejects).length).toBeGreaterThanOrEqual(13);
  });

  test.each(corpus)('$name', ({ breakIt, repairs, apiRejects, expected }) => {
    const broken = breakIt(recorded());
    const before = JSON.stringify(broken);
    const outcome = repairTranscript(broken, { sessionId: 'ffffffff-ffff-4fff-8fff-ffffffffffff' });
    expect(JSON.stringify(broken)).toBe(before);
    expect(outcome.repairs.map((repair) => repair.kind)).toEqual(repairs);
    // What stays: forks (a warning: a resume follows one branch) and entries too big to ever send.
    const remaining = outcome.remaining.map((finding) => finding.rule);
    expect(remaining.filter((rule) => rule !== 'forked-chain')).toEqual(
      expected.map(([rule]) => rule).filter((rule) => rule === 'oversized-entry'),
    );
    if (remaining.includes('forked-chain')) expect(expected.map(([rule]) => rule)).toContain('forked-chain');
    expect(findRequestViolation(requestOf(broken, 'go on')) !== null).toBe(apiRejects);
    if (!expected.some(([rule]) => rule === 'oversized-entry')) {
      expect(findRequestViolation(requestOf(outcome.entries, 'go on'))).toBeNull();
    }
    // Nothing said is lost: every text of the broken copy is in the repaired one, but for what was dropped.
    const kept = new Set(texts(outcome.entries));
    const dropped = repairs.some((kind) => kind.startsWith('dropped-') && kind !== 'dropped-duplicate-entry');
    if (!dropped) for (const text of texts(broken)) expect(kept.has(text)).toBe(true);
    for (const entry of outcome.entries) {
      if (typeof entry['sessionId'] === 'string')
        expect(entry['sessionId']).toBe('ffffffff-ffff-4fff-8fff-ffffffffffff');
    }
    // A repaired copy needs no further repair.
    expect(repairTranscript(outcome.entries).repairs).toEqual([]);
  });

  test('a call without a result is answered "outcome unknown", off the entry of its call', () => {
    const cut = recorded().slice(0, at(recorded(), '0b1e8c') + 1);
    const { entries } = repairTranscript(cut);
    const answer = entries.at(-1)!;
    expect(answer['parentUuid']).toBe(cut.at(-1)!['uuid']);
    expect(content(answer)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'tu_seq',
        content: PLACEHOLDER_TEXT.unknownOutcome,
        is_error: false,
      },
    ]);
  });

  test('a result two turns late is moved to the turn right after its call, its text whole', () => {
    const entries = recorded();
    const [late] = entries.splice(at(entries, 'a80d4f'), 1);
    entries.splice(at(entries, '0a9154') + 1, 0, late!);
    const repaired = repairTranscript(entries).entries;
    const call = at(repaired, '0b1e8c');
    expect(content(repaired[call + 1]!)).toEqual(content(late!));
    expect(repaired[call + 1]!['parentUuid']).toBe(repaired[call]!['uuid']);
    expect(repaired.filter((entry) => JSON.stringify(entry).includes('"tool_use_id":"tu_seq"'))).toHaveLength(
      1,
    );
  });

  test('a later call reusing an id is renamed together with its own result, not the first one', () => {
    const entries = recorded();
    content(entries[at(entries, 'c52e39')]!)[0]!['id'] = 'tu_seq';
    content(entries[at(entries, '0a9154')]!)[0]!['tool_use_id'] = 'tu_seq';
    const repaired = repairTranscript(entries).entries;
    expect(content(repaired[at(repaired, 'a80d4f')]!)[0]!['tool_use_id']).toBe('tu_seq');
    expect(content(repaired[at(repaired, 'c52e39')]!)[0]!['id']).toBe('tu_seq_dup1');
    expect(content(repaired[at(repaired, '0a9154')]!)[0]!['tool_use_id']).toBe('tu_seq_dup1');
  });

  test('parallel calls sharing an id: each result stays with the call it hangs off', () => {
    const entries = recorded();
    content(entries[at(entries, '1d8115')]!)[0]!['id'] = 'tu_gs1';
    content(entries[at(entries, '8cdced')]!)[0]!['tool_use_id'] = 'tu_gs1';
    const repaired = repairTranscript(entries).entries;
    expect(content(repaired[at(repaired, '1d8115')]!)[0]!['id']).toBe('tu_gs1_dup1');
    expect(content(repaired[at(repaired, '771e8f')]!)[0]!['tool_use_id']).toBe('tu_gs1');
    expect(content(repaired[at(repaired, '8cdced')]!)[0]!['tool_use_id']).toBe('tu_gs1_dup1');
  });

  test('thinking moved behind a text goes first again, each entry keeping one block', () => {
    const entries = recorded();
    const first = at(entries, '3f045c');
    const second = at(entries, 'f5fa15');
    const thinking = content(entries[first]!)[0]!;
    content(entries[first]!)[0] = content(entries[second]!)[0]!;
    content(entries[second]!)[0] = thinking;
    const repaired = repairTranscript(entries).entries;
    expect(content(repaired[first]!)).toEqual([thinking]);
    expect(content(repaired[second]!).map((block) => block['type'])).toEqual(['text']);
  });
});
