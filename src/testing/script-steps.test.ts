import { describe, expect, test } from 'vitest';
import { text, toolUse } from './content-blocks.js';
import { message } from './fake-response.js';
import { UnscriptedCallError } from './fake-script.js';
import { fakeRequest, type FakeRequest } from './request-matching.js';
import { scriptSteps } from './script-steps.js';

const reminder = { type: 'text', text: '<system-reminder>today is Thursday</system-reminder>' };

/** A request of one thread: `messages` as the binary sends them. */
function request(messages: unknown[], agentId?: string): FakeRequest {
  return fakeRequest({
    method: 'POST',
    url: '/v1/messages',
    headers: agentId === undefined ? {} : { 'x-claude-code-agent-id': agentId },
    body: { messages },
  });
}

const user = (value: string) => ({ role: 'user', content: [reminder, { type: 'text', text: value }] });
const assistant = (value: string) => ({ role: 'assistant', content: [{ type: 'text', text: value }] });
const toolRound = [
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, reminder] },
];

describe('scriptSteps', () => {
  const survey = message([text('Three problems.')]);
  const bash = message([toolUse('Bash', { command: 'true' }, 'toolu_fix')]);
  const fixed = message([text('Fixed.')]);
  const helper = message([text('Helped.')]);
  const script = scriptSteps({
    survey: { prompt: 'riskiest problems', main: [survey] },
    fix: { prompt: /^Fix this problem/, main: [bash, fixed], subagent: [helper] },
  });

  test('tells the steps apart by prompt though each starts at turn 0, and counts turns from the prompt', () => {
    expect(script(request([user('List the three riskiest problems.')]))).toBe(survey);
    const first = request([user('Fix this problem: the parser.')]);
    expect(first.turn).toBe(0);
    expect(script(first)).toBe(bash);
    expect(script(request([user('Fix this problem: the parser.'), ...toolRound]))).toBe(fixed);
  });

  test('a resumed session counts the turns after its latest prompt, not from the start of the session', () => {
    const resumed = request([
      user('List the three riskiest problems.'),
      assistant('Three problems.'),
      user('Fix this problem: x'),
    ]);
    expect(resumed.turn).toBe(1);
    expect(script(resumed)).toBe(bash);
  });

  test("a subagent's call is answered by the step whose main thread was answered last", () => {
    void script(request([user('Fix this problem: the parser.')]));
    expect(script(request([user('Help with the parser.')], 'agent-7'))).toBe(helper);
  });

  test('a call no prompt matches, a turn beyond the script and a compaction request are unscripted', () => {
    expect(() => script(request([user('Write the changelog.')]))).toThrow(
      new UnscriptedCallError(
        `fake API: no step's prompt matches main turn 0 (its prompt begins "Write the changelog.")`,
      ),
    );
    expect(() => script(request([user('List the three riskiest problems.'), ...toolRound]))).toThrow(
      "fake API: no scripted answer for step 'survey' main turn 1",
    );
    expect(() =>
      script({ ...request([user('List the three riskiest problems.')]), compaction: true }),
    ).toThrow(UnscriptedCallError);
  });

  test('a list of answers serves successive attempts at one turn; the last one repeats', () => {
    const cut = { kind: 'cut', afterEvents: 2 } as const;
    const retried = scriptSteps({ only: { prompt: 'go', main: [[cut, fixed]] } });
    const call = request([user('go')]);
    expect([retried(call), retried(call), retried(call)]).toEqual([cut, fixed, fixed]);
  });
});
