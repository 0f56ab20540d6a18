// A corpus of broken transcripts made from one recorded by Claude Code 2.1.334 (the fixture), by cutting,
// duplicating, reordering and emptying entries: checkTranscript must name each problem, and nothing else.
import { describe, expect, test } from 'vitest';
import { at, corpus, fixture, recorded, rules } from '../../test/fixtures/transcripts/broken-corpus.js';
import { checkTranscript } from './transcript-checks.js';

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
