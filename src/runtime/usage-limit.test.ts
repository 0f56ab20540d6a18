import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  clearParked,
  PARKED_FILE,
  parkedText,
  readParked,
  usageLimitInText,
  usageLimitOf,
  writeParked,
} from './usage-limit.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-parked-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('usageLimitOf', () => {
  test('reads the reset time of a rejected rate-limit event, as the child sends it', () => {
    const event = {
      type: 'rate_limit_event',
      rate_limit_info: { status: 'rejected', resetsAt: 1796281905, rateLimitType: 'five_hour' },
      session_id: 's1',
    };
    expect(usageLimitOf(event)).toEqual({ resetsAt: 1796281905, limit: 'five_hour' });
  });

  test('ignores an allowed limit, a rejection without a reset time, and other messages', () => {
    const info = (value: Record<string, unknown>): unknown => ({
      type: 'rate_limit_event',
      rate_limit_info: value,
    });
    expect(usageLimitOf(info({ status: 'allowed_warning', resetsAt: 1796281905 }))).toBeNull();
    // A 429 without the unified headers: the event comes, but with no time to wait for.
    expect(usageLimitOf(info({ status: 'rejected', isUsingOverage: false }))).toBeNull();
    expect(
      usageLimitOf({ type: 'assistant', rate_limit_info: { status: 'rejected', resetsAt: 1 } }),
    ).toBeNull();
    expect(usageLimitOf(null)).toBeNull();
  });
});

describe('usageLimitInText', () => {
  test('reads the older `usage limit reached|<epoch>` form and nothing else', () => {
    expect(usageLimitInText('Claude AI usage limit reached|1796281905')).toBe(1796281905);
    expect(usageLimitInText('API Error: Request rejected (429) · usage limit reached')).toBeNull();
    expect(usageLimitInText(null)).toBeNull();
  });
});

describe('the park record', () => {
  test('is written, read back and cleared; a run without one is not parked', () => {
    expect(readParked(dir)).toBeNull();
    const state = { resets_at: 1796281905, since: 1796280000, step: 'work', session_id: 's1', limit: null };
    writeParked(dir, 'run-1', state);
    expect(readParked(dir)).toEqual(state);
    clearParked(dir);
    expect(readParked(dir)).toBeNull();
    clearParked(dir);
  });

  test('an unreadable record counts as not parked (and is left for a person to look at)', () => {
    writeFileSync(join(dir, PARKED_FILE), '{"resets_at": "soon"}');
    expect(readParked(dir)).toBeNull();
  });
});

describe('parkedText', () => {
  test('says when the run continues and how long is left, hours included', () => {
    const resetsAt = new Date(2026, 11, 3, 17, 0, 0).getTime() / 1000;
    const now = resetsAt - (1 * 3600 + 42 * 60 + 10);
    expect(parkedText(resetsAt, now)).toBe('usage limit · resumes at 17:00 · 1:42:10 left · Ctrl-C to stop');
  });
});
