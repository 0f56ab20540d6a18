import { describe, expect, test } from 'vitest';
import { newRunId } from './run-id.js';

describe('newRunId', () => {
  test('is local date and time plus six hex digits', () => {
    expect(newRunId(new Date(2025, 0, 2, 3, 4, 5))).toMatch(/^20250102-030405-[0-9a-f]{6}$/);
  });

  test('differs between two ids made in the same second', () => {
    const now = new Date();
    expect(newRunId(now)).not.toBe(newRunId(now));
  });
});
