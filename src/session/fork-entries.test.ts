// forkEntries on the recorded transcript: a copy in another session with every uuid new, every reference
// re-pointed inside the copy, each entry naming where it was copied from, and the chain intact.
import { describe, expect, test } from 'vitest';
import { recorded } from '../../test/fixtures/transcripts/broken-corpus.js';
import { forkEntries } from './fork-entries.js';
import { validateTranscript } from './validate-transcript.js';

describe('forkEntries', () => {
  test('new uuids, references re-pointed, sessionId and forkedFrom set, the chain still whole', () => {
    const original = recorded();
    const before = JSON.stringify(original);
    const copy = forkEntries(original, { from: 'old', to: 'new', mark: { repairedFrom: 'old' } });
    expect(JSON.stringify(original)).toBe(before);
    expect(copy).toHaveLength(original.length);
    const uuids = new Set(original.map((entry) => entry['uuid']));
    copy.forEach((entry, index) => {
      const source = original[index]!;
      expect(entry['repairedFrom']).toBe('old');
      if (typeof source['sessionId'] === 'string') expect(entry['sessionId']).toBe('new');
      if (typeof source['uuid'] !== 'string') return;
      expect(uuids.has(entry['uuid'])).toBe(false);
      expect(entry['forkedFrom']).toEqual({ sessionId: 'old', messageUuid: source['uuid'] });
      for (const field of ['parentUuid', 'sourceToolAssistantUUID'] as const) {
        if (typeof source[field] === 'string') expect(uuids.has(entry[field] as string)).toBe(false);
      }
    });
    expect(validateTranscript(copy)).toEqual([]);
    // Copying twice into one session gives the same copy.
    expect(forkEntries(original, { from: 'old', to: 'new' }).map((entry) => entry['uuid'])).toEqual(
      copy.map((entry) => entry['uuid']),
    );
  });
});
