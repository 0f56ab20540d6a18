import { describe, expect, test } from 'vitest';

import type { AgentMessage, AgentQuery, AgentRequest } from '../agent/agent-backend.js';
import { AbortError } from '../agent/claude-sdk.js';
import { ScriptedBackend, UnconsumedStepsError, UnexpectedBackendCallError } from './scripted-backend.js';
import { sdkAssistantText, sdkErrorResult, sdkResult, testUuid } from './sdk-messages.js';

// One UUID for all: the tests compare what was played with a fresh copy of what was scripted.
const uuid = testUuid();
const assistant = (value: string): AgentMessage => sdkAssistantText(value, { uuid });
const success = (value: string): AgentMessage => sdkResult({ result: value, uuid });
const apiError = (value: string): AgentMessage => sdkResult({ result: value, isError: true, uuid });
const budgetError = (): AgentMessage =>
  sdkErrorResult(['Reached maximum budget ($0.03)'], { subtype: 'error_max_budget_usd', uuid });

const request = (prompt: string): AgentRequest => ({ prompt, options: {} });
const noSignal = (): AbortSignal => new AbortController().signal;

async function drain(query: AgentQuery): Promise<{ messages: AgentMessage[]; error: unknown }> {
  const messages: AgentMessage[] = [];
  try {
    for await (const message of query) messages.push(message);
  } catch (error) {
    return { messages, error };
  }
  return { messages, error: null };
}

describe('ScriptedBackend', () => {
  test('plays one scripted step per query and records the requests', async () => {
    const backend = new ScriptedBackend([[assistant('one'), success('one')], [success('two')]]);
    const first = await drain(backend.query(request('first'), noSignal()));
    const second = await drain(backend.query(request('second'), noSignal()));
    expect(first).toEqual({ messages: [assistant('one'), success('one')], error: null });
    expect(second).toEqual({ messages: [success('two')], error: null });
    expect(backend.requests.map((recorded) => recorded.prompt)).toEqual(['first', 'second']);
    expect(() => backend.assertComplete()).not.toThrow();
  });

  test('throws a scripted error from the iteration', async () => {
    const failure = new Error('spawn failed');
    const backend = new ScriptedBackend([failure]);
    expect(await drain(backend.query(request('x'), noSignal()))).toEqual({ messages: [], error: failure });
  });

  test('throws after an error result, as the SDK does', async () => {
    const backend = new ScriptedBackend([
      [apiError('API Error: Repeated 529 Overloaded errors')],
      [budgetError()],
    ]);
    const overloaded = await drain(backend.query(request('x'), noSignal()));
    expect(overloaded.messages).toEqual([apiError('API Error: Repeated 529 Overloaded errors')]);
    expect(overloaded.error).toEqual(
      new Error('Claude Code returned an error result: API Error: Repeated 529 Overloaded errors'),
    );
    const budget = await drain(backend.query(request('y'), noSignal()));
    expect((budget.error as Error).message).toBe(
      'Claude Code returned an error result: Reached maximum budget ($0.03)',
    );
  });

  test('throws an AbortError once the signal is aborted', async () => {
    const backend = new ScriptedBackend([[assistant('a'), assistant('b'), success('c')]]);
    const controller = new AbortController();
    const messages: AgentMessage[] = [];
    let caught: unknown = null;
    try {
      for await (const message of backend.query(request('x'), controller.signal)) {
        messages.push(message);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(messages).toEqual([assistant('a')]);
    expect(caught).toBeInstanceOf(AbortError);
    expect(caught).toMatchObject({ message: 'Claude Code process aborted by user' });
  });

  test('stops yielding after close() and counts interrupts', async () => {
    const backend = new ScriptedBackend([[assistant('a'), assistant('b')]]);
    const query = backend.query(request('x'), noSignal());
    const messages: AgentMessage[] = [];
    for await (const message of query) {
      messages.push(message);
      await query.interrupt();
      query.close();
    }
    expect(messages).toEqual([assistant('a')]);
    expect(backend.interrupts).toBe(1);
  });

  test('throws UnexpectedBackendCallError for a query beyond the script and again on assertComplete', () => {
    const backend = new ScriptedBackend([]);
    expect(() => backend.query(request('one more thing'), noSignal())).toThrow(
      new UnexpectedBackendCallError(
        'ScriptedBackend: query 1 was not scripted (0 steps); prompt: "one more thing"',
      ),
    );
    expect(backend.requests).toHaveLength(1);
    expect(() => backend.assertComplete()).toThrow(UnexpectedBackendCallError);
  });

  test('assertComplete throws UnconsumedStepsError when steps are left', async () => {
    const backend = new ScriptedBackend([[success('a')], [success('b')]]);
    await drain(backend.query(request('x'), noSignal()));
    expect(backend.remaining).toBe(1);
    expect(() => backend.assertComplete()).toThrow(
      new UnconsumedStepsError('ScriptedBackend: 1 of 2 scripted steps were never asked for'),
    );
  });
});
