import { describe, expect, test } from 'vitest';
import { emptyLoadReport } from './load-report.js';
import { trimReport } from './trim-report.js';

describe('trimReport', () => {
  test('says so when nothing was done', () => {
    expect(trimReport(emptyLoadReport())).toBe('Nothing trimmed');
  });

  test('names only expiry when only expiry happened', () => {
    expect(trimReport({ ...emptyLoadReport(), expired: 3 })).toBe(
      'Marked 3 stale command results as expired',
    );
  });

  test('renders every counter, tokens as characters / 4', () => {
    const report = {
      expired: 2,
      cleared: 4,
      kept: 20,
      charsSaved: 48_123,
      pruned: 1,
      denialsDropped: 2,
      healed: 1,
      errors: ['x'],
    };
    expect(trimReport(report)).toBe(
      'Archived 4 old tool results (kept the 20 most recent large ones), saving ~12,030 tokens; ' +
        'marked 2 stale command results as expired; removed 1 API-error entry; removed 2 old denied calls; ' +
        'answered 1 interrupted tool call; 1 spill error',
    );
  });

  test('says one of anything in the singular', () => {
    const report = {
      expired: 1,
      cleared: 1,
      kept: 20,
      charsSaved: 4_000,
      pruned: 1,
      denialsDropped: 1,
      healed: 1,
      errors: ['x'],
    };
    expect(trimReport(report)).toBe(
      'Archived 1 old tool result (kept the 20 most recent large ones), saving ~1,000 tokens; ' +
        'marked 1 stale command result as expired; removed 1 API-error entry; removed 1 old denied call; ' +
        'answered 1 interrupted tool call; 1 spill error',
    );
    expect(trimReport({ ...report, expired: 2, errors: ['x', 'y'] })).toContain(
      'marked 2 stale command results as expired',
    );
    expect(trimReport({ ...emptyLoadReport(), cleared: 2, kept: 1, charsSaved: 400 })).toBe(
      'Archived 2 old tool results (kept the 1 most recent large one), saving ~100 tokens',
    );
  });

  test('speaks Chinese when asked', () => {
    expect(trimReport({ ...emptyLoadReport(), expired: 1 }, 'zh')).toBe('1 个命令结果已标记过期');
  });
});
