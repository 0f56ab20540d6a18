import { describe, expect, test } from 'vitest';

import { text } from './content-blocks.js';
import type { FakeResponse } from './fake-response.js';
import { UnscriptedCallError } from './fake-script.js';
import type { FakeRequest } from './request-matching.js';
import { scriptTurns } from './script-turns.js';

function request(thread: string, turn: number, compaction = false): FakeRequest {
  return { method: 'POST', path: '/v1/messages', headers: {}, body: {}, thread, turn, compaction };
}

const answer = (value: string): FakeResponse => ({ kind: 'message', content: [text(value)] });

describe('scriptTurns', () => {
  test('answers main-thread turn i with main[i]', async () => {
    const script = scriptTurns({ main: [answer('zero'), answer('one')] });
    expect(await script(request('main', 1))).toEqual(answer('one'));
    expect(await script(request('main', 0))).toEqual(answer('zero'));
  });

  test('gives every retry of a turn the same single answer', async () => {
    const script = scriptTurns({ main: [answer('same')] });
    expect([await script(request('main', 0)), await script(request('main', 0))]).toEqual([
      answer('same'),
      answer('same'),
    ]);
  });

  test('gives successive attempts at a turn successive entries, repeating the last', async () => {
    const cut: FakeResponse = { kind: 'cut', afterEvents: 3 };
    const overloaded: FakeResponse = { kind: 'status', status: 529 };
    const script = scriptTurns({ main: [[cut, overloaded, answer('ok')], answer('next')] });
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt++) answers.push(await script(request('main', 0)));
    expect(answers).toEqual([cut, overloaded, answer('ok'), answer('ok')]);
    expect(await script(request('main', 1))).toEqual(answer('next'));
  });

  test('counts attempts per thread and turn', async () => {
    const cut: FakeResponse = { kind: 'cut', afterEvents: 1 };
    const script = scriptTurns({ main: [[cut, answer('main')]], subagent: [[cut, answer('sub')]] });
    expect(await script(request('main', 0))).toEqual(cut);
    expect(await script(request('agent-a', 0))).toEqual(cut);
    expect(await script(request('agent-b', 0))).toEqual(cut);
    expect(await script(request('agent-a', 0))).toEqual(answer('sub'));
    expect(await script(request('main', 0))).toEqual(answer('main'));
  });

  test('answers each subagent thread by its own turn count', async () => {
    const script = scriptTurns({ main: [answer('main')], subagent: [answer('sub 0'), answer('sub 1')] });
    expect(await script(request('agent-a', 0))).toEqual(answer('sub 0'));
    expect(await script(request('agent-b', 0))).toEqual(answer('sub 0'));
    expect(await script(request('agent-a', 1))).toEqual(answer('sub 1'));
  });

  test('throws a clear UnscriptedCallError beyond the script', () => {
    const script = scriptTurns({ main: [answer('only')] });
    expect(() => script(request('main', 3))).toThrow(
      new UnscriptedCallError('fake API: no scripted answer for main turn 3'),
    );
    expect(() => script(request('agent-a', 0))).toThrow(
      'fake API: no scripted answer for subagent agent-a turn 0',
    );
  });

  test('never answers a compaction request', () => {
    const script = scriptTurns({ main: [answer('zero'), answer('one')] });
    expect(() => script(request('main', 1, true))).toThrow(
      'fake API: no scripted answer for compaction request on main turn 1',
    );
  });

  test('reports an empty attempt list', () => {
    const script = scriptTurns({ main: [[]] });
    expect(() => script(request('main', 0))).toThrow('fake API: the script for main turn 0 is an empty list');
  });
});
