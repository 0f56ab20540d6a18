import { describe, expect, test } from 'vitest';
import { incompleteNote, RecordedFailures } from './recorded-failures.js';

describe('RecordedFailures', () => {
  test('reports each failure recorded after it was made once, and counts them', () => {
    const runtime = ['from an earlier run'];
    const workflow: string[] = [];
    const shown: string[] = [];
    const failures = new RecordedFailures([runtime, workflow], (failure) => shown.push(failure));
    expect(incompleteNote(failures, 'en')).toBe('');

    runtime.push('manifest: Error: EISDIR');
    failures.flush();
    failures.flush();
    workflow.push('lineage: Error: EACCES');
    failures.flush();

    expect(shown).toEqual(['manifest: Error: EISDIR', 'lineage: Error: EACCES']);
    expect(failures.count).toBe(2);
    expect(incompleteNote(failures, 'en')).toBe(' · record incomplete: 2 failures above');
  });
});
