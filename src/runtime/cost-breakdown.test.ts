import { describe, expect, test } from 'vitest';
import { CostAttribution, costBreakdown, taskLine } from './cost-breakdown.js';
import { usageCost } from './price-table.js';

const MODEL = 'claude-sonnet-4-5';
const usage = (output: number) => ({ input_tokens: 1000, output_tokens: output });
const usd = (output: number): number => usageCost(MODEL, usage(output));

/** An assistant entry of response `id`; `blocks` its content. */
function response(id: string, output: number, blocks: unknown[] = [{ type: 'text', text: 'ok' }]) {
  return { type: 'assistant', message: { id, model: MODEL, usage: usage(output), content: blocks } };
}

function dispatch(toolUseId: string, type: string, description: string, prompt: string) {
  return {
    type: 'tool_use',
    id: toolUseId,
    name: 'Agent',
    input: { subagent_type: type, description, prompt },
  };
}

function agentResult(toolUseId: string, agentId: string) {
  return {
    type: 'user',
    toolUseResult: { status: 'completed', agentId },
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'done' }] },
  };
}

const prompt = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });

describe('costBreakdown', () => {
  test('attributes main and subagent responses to session, step, role and dispatch', () => {
    const breakdown = costBreakdown(
      [
        {
          key: 'proj/s1',
          entries: [
            prompt('build it'),
            response('m1', 100, [dispatch('tu1', 'coder', 'write parser', 'Write the parser\nin src/')]),
            response('m1', 100, [dispatch('tu2', 'tester', 'test parser', 'Test the parser')]),
            agentResult('tu1', 'a1'),
            agentResult('tu2', 'a2'),
            response('m2', 50),
          ],
        },
        {
          key: 'proj/s1/subagents/agent-a1',
          entries: [prompt('Write the parser\nin src/'), response('x1', 900)],
        },
        {
          key: 'proj/s1/subagents/agent-a2',
          entries: [prompt('Test the parser'), response('y1', 300), response('y1', 300), response('y2', 10)],
        },
        { key: 'proj/s2', entries: [response('v1', 20)] },
      ],
      [
        { step: 'work', sessionIds: ['s1'] },
        { step: 'work/verdict#1', sessionIds: ['s2'] },
      ],
      { roleOf: (step) => (step.includes('/verdict#') ? 'judge' : 'coordinator') },
    );
    const total = usd(100) + usd(50) + usd(900) + usd(300) + usd(10) + usd(20);
    expect(breakdown.totalUsd).toBeCloseTo(total, 12);
    expect(breakdown.responses).toBe(6);
    expect(breakdown.mainUsd).toBeCloseTo(usd(100) + usd(50) + usd(20), 12);
    expect(breakdown.subagents).toEqual([
      {
        agent: 'agent-a1',
        sessionId: 's1',
        step: 'work',
        role: 'coordinator',
        type: 'coder',
        description: 'write parser',
        task: 'Write the parser',
        usd: usd(900),
        responses: 1,
      },
      expect.objectContaining({ agent: 'agent-a2', type: 'tester', task: 'Test the parser', responses: 2 }),
    ]);
    expect(breakdown.subagents[1]!.usd).toBeCloseTo(usd(300) + usd(10), 12);
    expect(breakdown.roles.map((role) => role.role)).toEqual(['coordinator', 'judge']);
    expect(breakdown.roles[1]!.usd).toBeCloseTo(usd(20), 12);
    expect(breakdown.steps[0]).toMatchObject({ step: 'work', role: 'coordinator' });
    expect(breakdown.sessions[0]).toMatchObject({ sessionId: 's1', step: 'work' });
    expect(breakdown.sessions[0]!.subagentUsd).toBeCloseTo(usd(900) + usd(300) + usd(10), 12);
  });

  test('a subagent whose parent never got its result (killed mid-dispatch) is matched by its prompt', () => {
    const breakdown = costBreakdown([
      // Subagent first in the list: the order of the store must not matter.
      { key: 'proj/s1/subagents/agent-b', entries: [prompt('Second task'), response('b1', 70)] },
      {
        key: 'proj/s1',
        entries: [
          response('m1', 10, [
            dispatch('tu1', 'coder', 'one', 'First task'),
            dispatch('tu2', 'reviewer', 'two', 'Second task'),
          ]),
        ],
      },
    ]);
    expect(breakdown.subagents).toEqual([
      expect.objectContaining({
        agent: 'agent-b',
        type: 'reviewer',
        description: 'two',
        task: 'Second task',
      }),
    ]);
    expect(breakdown.subagents[0]!.step).toBeNull();
    expect(breakdown.roles).toEqual([{ role: '-', usd: usd(10) + usd(70) }]);
  });

  test('a response replayed into a resumed or forked session counts once, where it first appeared', () => {
    const breakdown = costBreakdown(
      [
        { key: 'proj/old', entries: [response('m1', 100), response('m2', 200)] },
        { key: 'proj/new', entries: [response('m1', 100), response('m2', 200), response('m3', 5)] },
      ],
      [
        { step: 'plan', sessionIds: ['old'] },
        { step: 'work', sessionIds: ['new'] },
      ],
    );
    expect(breakdown.totalUsd).toBeCloseTo(usd(100) + usd(200) + usd(5), 12);
    expect(breakdown.steps.map((step) => [step.step, step.usd])).toEqual([
      ['plan', usd(100) + usd(200)],
      ['work', usd(5)],
    ]);
  });

  test('loaded entries name dispatches but are not counted again', () => {
    const attribution = new CostAttribution();
    attribution.load('proj/s1', [response('m1', 100, [dispatch('tu1', 'coder', 'fix', 'Fix the bug')])]);
    attribution.load('proj/s1/subagents/agent-c', [prompt('Fix the bug'), response('c1', 100)]);
    attribution.add('proj/s1/subagents/agent-c', [response('c1', 100), response('c2', 30)]);
    const breakdown = attribution.breakdown();
    expect(attribution.usd).toBeCloseTo(usd(30), 12);
    expect(breakdown.subagents).toEqual([
      expect.objectContaining({ agent: 'agent-c', type: 'coder', task: 'Fix the bug', usd: usd(30) }),
    ]);
  });

  test('the task line is the first non-empty line of the prompt', () => {
    expect(taskLine('\n  Do the thing  \nthen more')).toBe('Do the thing');
    expect(taskLine('')).toBe('');
  });
});

describe('costBreakdown skips', () => {
  test("the child's synthetic stand-in turns: they were never sent, so they are no response", () => {
    const synthetic = {
      type: 'assistant',
      message: { id: 's1', model: '<synthetic>', usage: {}, content: [] },
    };
    const breakdown = costBreakdown([{ key: 'proj/a', entries: [synthetic, response('m1', 10)] }]);
    expect(breakdown.responses).toBe(1);
  });
});
