import { describe, expect, test } from 'vitest';
import { normalize } from '../events/normalize.js';
import {
  sdkAssistantText,
  sdkErrorResult,
  sdkInit,
  sdkQuery,
  sdkResult,
  sdkToolResult,
  sdkToolUse,
  testUuid,
} from './sdk-messages.js';

describe('SDK message builders', () => {
  test('build messages that normalize() reads as the events a real query gives', () => {
    const events = [
      sdkAssistantText('Looking.', { parentToolUseId: 'toolu_agent' }),
      sdkToolUse('Bash', { command: 'ls' }, 'toolu_1'),
      sdkToolResult('toolu_1', 'a.txt', { isError: true }),
      sdkResult({ result: 'done', costUsd: 0.25, numTurns: 3 }),
    ].flatMap((message) => normalize(message, { toolNames: new Map([['toolu_1', 'Bash']]) }));

    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'text', text: 'Looking.', subagent: true }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'tool_call', tool: 'Bash', id: 'toolu_1', input: { command: 'ls' } }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'tool_result', toolUseId: 'toolu_1', tool: 'Bash', isError: true }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'result',
        costUsd: 0.25,
        numTurns: 3,
        isError: false,
        subtype: 'success',
      }),
    );
  });

  test('an error result carries its subtype and error lines; an API error is a success with is_error', () => {
    const [failed] = normalize(
      sdkErrorResult(['Reached maximum budget'], { subtype: 'error_max_budget_usd' }),
    );
    expect(failed).toMatchObject({ kind: 'result', isError: true, subtype: 'error_max_budget_usd' });
    expect(failed).toMatchObject({ errors: ['Reached maximum budget'] });
    expect(sdkResult({ isError: true })).toMatchObject({ subtype: 'success', is_error: true });
  });

  test('a query is init, the answer and a result in one session; every message has its own UUID', () => {
    const messages = sdkQuery('hello', { sessionId: 'session-7' });
    expect(messages.map((message) => [message.type, message.session_id])).toEqual([
      ['system', 'session-7'],
      ['assistant', 'session-7'],
      ['result', 'session-7'],
    ]);
    expect(sdkInit()).toMatchObject({ type: 'system', subtype: 'init', session_id: 'session-1' });
    const uuids = [...messages.map((message) => message.uuid), testUuid()];
    expect(new Set(uuids).size).toBe(uuids.length);
    for (const uuid of uuids)
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
