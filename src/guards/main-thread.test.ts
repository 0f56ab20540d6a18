import { describe, expect, test } from 'vitest';
import { isMainThread } from './main-thread.js';

describe('isMainThread', () => {
  test('is true without an agent id', () => {
    expect(isMainThread({})).toBe(true);
    expect(isMainThread({ agentId: null })).toBe(true);
    expect(isMainThread({ agentId: '' })).toBe(true);
  });

  test('is false inside a subagent', () => {
    expect(isMainThread({ agentId: 'a51b68b08a2be5e4b' })).toBe(false);
  });
});
