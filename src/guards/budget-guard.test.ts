import { describe, expect, test } from 'vitest';
import type { ToolHookInput } from './guard.js';
import { budgetGuards, WRAP_UP, type BudgetGate } from './budget-guard.js';

function call(
  toolName: string,
  agentId: string | null,
  event: ToolHookInput['event'] = 'PreToolUse',
): ToolHookInput {
  return { event, toolName, toolInput: {}, toolUseId: 'toolu_1', agentId, agentType: null, cwd: '/w' };
}

function gate(closed: boolean): BudgetGate & { stops: number } {
  const state = {
    stops: 0,
    closed: () => (closed ? { reason: 'The run budget of $0.10 is nearly spent.' } : null),
    stopMainThread: () => {
      state.stops++;
    },
  };
  return state;
}

describe('budgetGuards', () => {
  test('let everything through while there is room', async () => {
    const open = gate(false);
    const [before, after] = budgetGuards(open);
    expect(await before!.decide(call('Agent', null))).toEqual({ action: 'pass' });
    expect(await after!.decide(call('Agent', null, 'PostToolUse'))).toEqual({ action: 'pass' });
    expect(open.stops).toBe(0);
  });

  test('once closed: a dispatch is refused with the reason and the main thread stops before its next request', async () => {
    const closed = gate(true);
    const [before] = budgetGuards(closed);
    expect(await before!.decide(call('Agent', null))).toEqual({
      action: 'stop',
      reason: 'The run budget of $0.10 is nearly spent. No new workers.',
    });
    expect(await before!.decide(call('Bash', null))).toEqual({
      action: 'stop',
      reason: 'The run budget of $0.10 is nearly spent.',
    });
    expect(closed.stops).toBe(2);
  });

  test('once closed: a running worker is told to wrap up, and may not dispatch either', async () => {
    const closed = gate(true);
    const [before] = budgetGuards(closed);
    expect(await before!.decide(call('Bash', 'agent-1'))).toEqual({
      action: 'deny',
      reason: `The run budget of $0.10 is nearly spent. ${WRAP_UP}`,
    });
    expect(await before!.decide(call('Agent', 'agent-1'))).toMatchObject({ action: 'deny' });
    expect(closed.stops).toBe(0);
  });

  test('once closed: the main thread stops when a worker it dispatched returns', async () => {
    const closed = gate(true);
    const [, after] = budgetGuards(closed);
    expect(await after!.decide(call('Agent', null, 'PostToolUse'))).toMatchObject({ action: 'stop' });
    expect(await after!.decide(call('Bash', 'agent-1', 'PostToolUse'))).toEqual({ action: 'pass' });
    expect(closed.stops).toBe(1);
  });
});
