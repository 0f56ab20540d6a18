import { describe, expect, test } from 'vitest';
import type { AgentDefinition } from '../agent/claude-sdk.js';
import { isolated } from '../agent/isolation-mark.js';
import { agentInputGuard, isolatedRoles } from './agent-input-guard.js';
import type { Guard, ToolHookInput } from './guard.js';

function dispatch(
  input: Record<string, unknown>,
  agentId: string | null = null,
  toolName = 'Agent',
): ToolHookInput {
  return {
    event: 'PreToolUse',
    toolName,
    toolInput: input,
    toolUseId: 'tu_1',
    agentId,
    agentType: null,
    cwd: '/ws',
  };
}

function required(guard: Guard | null): Guard {
  if (guard === null) throw new Error('expected a guard');
  return guard;
}

const brief = { description: 'Fix the parser', prompt: 'Fix it.', subagent_type: 'coder' };

describe('agentInputGuard', () => {
  test('is a fail-closed PreToolUse guard on Agent', () => {
    expect(agentInputGuard()).toMatchObject({ event: 'PreToolUse', matcher: 'Agent', failClosed: true });
  });

  test('is null when there is nothing to rewrite', () => {
    expect(agentInputGuard({ allowBackground: true })).toBeNull();
    expect(agentInputGuard({ allowBackground: true, isolate: new Set() })).toBeNull();
  });

  test('makes a dispatch run in the foreground, keeping the rest of the input (decisions.md D8)', async () => {
    const guard = required(agentInputGuard());
    expect(await guard.decide(dispatch(brief))).toEqual({
      action: 'allow',
      updatedInput: { ...brief, run_in_background: false },
    });
    expect(await guard.decide(dispatch({ ...brief, run_in_background: true }))).toEqual({
      action: 'allow',
      updatedInput: { ...brief, run_in_background: false },
    });
  });

  test('passes a dispatch that is already in the foreground', async () => {
    expect(
      await required(agentInputGuard()).decide(dispatch({ ...brief, run_in_background: false })),
    ).toEqual({
      action: 'pass',
    });
  });

  test('leaves background alone when allowed', async () => {
    const guard = required(agentInputGuard({ allowBackground: true, isolate: new Set(['other']) }));
    expect(await guard.decide(dispatch({ ...brief, run_in_background: true }))).toEqual({ action: 'pass' });
  });

  test('adds a worktree for an isolated role and reports it', async () => {
    const injected: Array<[string, string]> = [];
    const guard = required(
      agentInputGuard({
        isolate: new Set(['coder']),
        onInject: (type, description) => injected.push([type, description]),
      }),
    );
    expect(await guard.decide(dispatch(brief))).toEqual({
      action: 'allow',
      updatedInput: { ...brief, run_in_background: false, isolation: 'worktree' },
    });
    expect(injected).toEqual([['coder', 'Fix the parser']]);
  });

  test('respects an isolation or cwd the model chose', async () => {
    const onInject = (): void => {
      throw new Error('must not inject');
    };
    const guard = required(agentInputGuard({ isolate: new Set(['coder']), allowBackground: true, onInject }));
    expect(await guard.decide(dispatch({ ...brief, isolation: 'remote' }))).toEqual({ action: 'pass' });
    expect(await guard.decide(dispatch({ ...brief, cwd: '/elsewhere' }))).toEqual({ action: 'pass' });
  });

  test('does not isolate unmarked roles', async () => {
    const guard = required(agentInputGuard({ isolate: new Set(['coder']), allowBackground: true }));
    expect(await guard.decide(dispatch({ ...brief, subagent_type: 'reviewer' }))).toEqual({ action: 'pass' });
    expect(await guard.decide(dispatch({ description: 'x', prompt: 'y' }))).toEqual({ action: 'pass' });
  });

  test('rewrites dispatches from subagents too', async () => {
    expect((await required(agentInputGuard()).decide(dispatch(brief, 'a51b68b08a2be5e4b'))).action).toBe(
      'allow',
    );
  });

  test('ignores other tools', async () => {
    expect(await required(agentInputGuard()).decide(dispatch(brief, null, 'ListAgents'))).toEqual({
      action: 'pass',
    });
  });

  test('still isolates when the notification callback throws', async () => {
    const guard = required(
      agentInputGuard({
        isolate: new Set(['coder']),
        onInject: () => {
          throw new Error('ui down');
        },
      }),
    );
    expect(await guard.decide(dispatch(brief))).toMatchObject({ updatedInput: { isolation: 'worktree' } });
  });
});

describe('agentInputGuard dispatchable', () => {
  const guard = required(
    agentInputGuard({ allowBackground: true, dispatchable: new Set(['coder', 'tester']) }),
  );

  test('is installed for the dispatch check alone', () => {
    expect(guard.name).toBe('agent-input');
  });

  test.each([['general-purpose'], ['Explore'], ['reviewer']])(
    'denies subagent_type %s, naming the workers',
    async (role) => {
      const decision = await guard.decide(dispatch({ ...brief, subagent_type: role }));
      expect(decision).toMatchObject({ action: 'deny' });
      expect((decision as { reason: string }).reason).toMatch(/coder, tester/);
      expect((decision as { reason: string }).reason).toContain(role);
    },
  );

  test('denies a dispatch that names no type (Claude Code would pick general-purpose)', async () => {
    const { subagent_type: _omitted, ...untyped } = brief;
    expect(await guard.decide(dispatch(untyped))).toMatchObject({ action: 'deny' });
  });

  test('passes a worker it was given', async () => {
    expect(await guard.decide(dispatch(brief))).toEqual({ action: 'pass' });
  });

  test('says so when there are no workers at all', async () => {
    const none = required(agentInputGuard({ allowBackground: true, dispatchable: new Set() }));
    const decision = await none.decide(dispatch(brief));
    expect((decision as { reason: string }).reason).toMatch(/no workers/);
  });
});

describe('isolatedRoles', () => {
  test('names the roles marked with isolated()', () => {
    const coder: AgentDefinition = isolated({ description: 'Writes code.', prompt: 'Implement.' });
    const reviewer: AgentDefinition = { description: 'Reviews.', prompt: 'Review.' };
    expect(isolatedRoles({ coder, reviewer })).toEqual(new Set(['coder']));
    expect(isolatedRoles({ copy: { ...coder } })).toEqual(new Set());
  });
});
