import { describe, expect, test } from 'vitest';

import { checkedProjectKey, childRange, isMainKey, sessionPrefix, storeKey } from './store-key.js';

describe('storeKey', () => {
  test('joins project key and session id for a main transcript', () => {
    expect(storeKey({ projectKey: '-work-ws', sessionId: 'abc' })).toBe('-work-ws/abc');
  });

  test('appends the subpath for a subagent transcript', () => {
    expect(storeKey({ projectKey: '-work-ws', sessionId: 'abc', subpath: 'subagents/agent-1' })).toBe(
      '-work-ws/abc/subagents/agent-1',
    );
  });

  test('rejects an empty subpath instead of treating it as the main transcript', () => {
    expect(() => storeKey({ projectKey: 'p', sessionId: 's', subpath: '' })).toThrow(/subpath is empty/);
  });

  test('rejects empty segments and slashes in project key or session id', () => {
    expect(() => storeKey({ projectKey: '', sessionId: 's' })).toThrow(/projectKey is empty/);
    expect(() => storeKey({ projectKey: 'p', sessionId: '' })).toThrow(/sessionId is empty/);
    expect(() => storeKey({ projectKey: 'a/b', sessionId: 's' })).toThrow(/projectKey contains/);
    expect(() => sessionPrefix('p', 's/1')).toThrow(/sessionId contains/);
    expect(() => checkedProjectKey('x/')).toThrow(TypeError);
  });
});

describe('isMainKey', () => {
  test('is true only without a subpath', () => {
    expect(isMainKey({ projectKey: 'p', sessionId: 's' })).toBe(true);
    expect(isMainKey({ projectKey: 'p', sessionId: 's', subpath: 'subagents/agent-1' })).toBe(false);
  });
});

describe('childRange', () => {
  test('covers exactly the keys below the prefix, in byte order', () => {
    const { low, high } = childRange('a_c');
    const inside = (key: string) =>
      Buffer.compare(Buffer.from(key), Buffer.from(low)) >= 0 &&
      Buffer.compare(Buffer.from(key), Buffer.from(high)) < 0;
    expect(['a_c/s', 'a_c/s/subagents/x', 'a_c/\u{1F338}', 'a_c/'].every(inside)).toBe(true);
    expect(['a_c', 'abc/s', 'a_c-2/s', 'a_c0', 'a_c.x/s', 'a_d/s'].some(inside)).toBe(false);
  });
});
