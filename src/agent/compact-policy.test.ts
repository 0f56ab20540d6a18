import { describe, expect, test } from 'vitest';
import { CompactPolicy } from './compact-policy.js';

describe('CompactPolicy', () => {
  test('sets nothing in auto mode', () => {
    expect(new CompactPolicy().env()).toEqual({});
  });

  test('turns auto-compact off in no_summary mode', () => {
    expect(new CompactPolicy({ mode: 'no_summary' }).env()).toEqual({ DISABLE_AUTO_COMPACT: '1' });
  });

  test('turns all compaction off in off mode and passes a window through', () => {
    expect(new CompactPolicy({ mode: 'off', window: 200_000 }).env()).toEqual({
      DISABLE_COMPACT: '1',
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000',
    });
  });

  test('throws a FlowerError for an unknown mode', () => {
    const policy = new CompactPolicy({ mode: 'sometimes' as never });
    expect(() => policy.env()).toThrow(/Unknown compact mode 'sometimes'/);
  });
});
