import { describe, expect, test } from 'vitest';

import { describeTurn, fakeRequest, lastUserText, redactHeaders } from './request-matching.js';

describe('fakeRequest', () => {
  test('ignores the query string and counts assistant messages as the turn', () => {
    const body = {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'system', content: 'c' },
        { role: 'user', content: 'd' },
      ],
    };
    const request = fakeRequest({ method: 'POST', url: '/v1/messages?beta=true', headers: {}, body });
    expect(request).toMatchObject({ path: '/v1/messages', thread: 'main', turn: 1, compaction: false });
  });

  test('takes the thread from x-claude-code-agent-id', () => {
    const request = fakeRequest({
      method: 'POST',
      url: '/v1/messages',
      headers: { 'x-claude-code-agent-id': 'a51b68b08a2be5e4b' },
      body: {},
    });
    expect(request.thread).toBe('a51b68b08a2be5e4b');
    expect(request.turn).toBe(0);
  });

  test('recognises the compaction request by its last user text', () => {
    const body = {
      messages: [
        { role: 'user', content: 'CRITICAL: Respond with TEXT ONLY. Earlier prompt.' },
        { role: 'assistant', content: 'x' },
        { role: 'user', content: 'an ordinary prompt' },
      ],
    };
    expect(fakeRequest({ method: 'POST', url: '/v1/messages', headers: {}, body }).compaction).toBe(false);
  });
});

describe('redactHeaders', () => {
  test('removes credentials and joins repeated headers', () => {
    expect(
      redactHeaders({ 'x-api-key': 'k', authorization: 'Bearer t', 'set-cookie': ['a', 'b'], accept: 'x' }),
    ).toEqual({ 'set-cookie': 'a, b', accept: 'x' });
  });
});

describe('lastUserText', () => {
  test('returns the last user text block that is not a system reminder', () => {
    const body = {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'x' },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: 'r' },
            { type: 'text', text: 'second' },
            { type: 'text', text: '<system-reminder>ignore me</system-reminder>' },
          ],
        },
        { role: 'system', content: 'not user text' },
      ],
    };
    expect(lastUserText({ body })).toBe('second');
    expect(lastUserText({ body: {} })).toBe('');
  });
});

describe('describeTurn', () => {
  test('names the thread and turn', () => {
    expect(describeTurn({ thread: 'main', turn: 3, compaction: false })).toBe('main turn 3');
    expect(describeTurn({ thread: 'abc', turn: 0, compaction: false })).toBe('subagent abc turn 0');
  });
});
