import { describe, expect, test } from 'vitest';
import type { HookInput } from '../agent/claude-sdk.js';
import type { Guard, GuardDecision } from './guard.js';
import { mergeHooks, toHooks, toToolHookInput } from './hooks.js';

const signal = new AbortController().signal;

function preToolUse(toolName: string, extra: Record<string, unknown> = {}): HookInput {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/ws',
    tool_name: toolName,
    tool_input: { command: 'ls' },
    tool_use_id: 'tu_1',
    ...extra,
  };
}

function guard(decision: GuardDecision | (() => never), overrides: Partial<Guard> = {}): Guard {
  return {
    name: 'test',
    event: 'PreToolUse',
    matcher: 'Bash',
    failClosed: false,
    decide: () => (typeof decision === 'function' ? decision() : decision),
    ...overrides,
  };
}

async function runHook(hooks: ReturnType<typeof toHooks>, input: HookInput): Promise<unknown> {
  const callback = hooks.PreToolUse?.[0]?.hooks[0] ?? hooks.PostToolUse?.[0]?.hooks[0];
  if (!callback) throw new Error('no hook');
  return callback(input, 'tu_1', { signal });
}

describe('toHooks', () => {
  test('turns a deny into an unanswerable permission ask with the reason, not a hook deny', async () => {
    const hooks = toHooks(guard({ action: 'deny', reason: 'not here' }));
    expect(hooks.PreToolUse?.[0]?.matcher).toBe('Bash');
    expect(await runHook(hooks, preToolUse('Bash'))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'not here',
      },
    });
  });

  test('turns an allow into permissionDecision allow, with rewritten input when given', async () => {
    const hooks = toHooks(guard({ action: 'allow', updatedInput: { command: 'echo hi' } }));
    expect(await runHook(hooks, preToolUse('Bash'))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'echo hi' },
      },
    });
  });

  test('turns pass into an empty output', async () => {
    expect(await runHook(toHooks(guard({ action: 'pass' })), preToolUse('Bash'))).toEqual({});
  });

  test('turns a PostToolUse replace into updatedToolOutput', async () => {
    const hooks = toHooks(
      guard({ action: 'replace', output: { stdout: 'pointer' } }, { event: 'PostToolUse' }),
    );
    const input = {
      ...preToolUse('Bash'),
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: 'x' },
    } as HookInput;
    expect(await runHook(hooks, input)).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'pointer' } },
    });
  });

  test('denies when a fail-closed guard throws, and marks its matcher onFailure block', async () => {
    const failing = guard(
      () => {
        throw new Error('boom');
      },
      { failClosed: true },
    );
    const hooks = toHooks(failing);
    expect(hooks.PreToolUse?.[0]?.onFailure).toBe('block');
    const output = (await runHook(hooks, preToolUse('Bash'))) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(output.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(output.hookSpecificOutput.permissionDecisionReason).toContain('boom');
  });

  test('lets the call through when a fail-open guard throws', async () => {
    const hooks = toHooks(
      guard(() => {
        throw new Error('boom');
      }),
    );
    expect(hooks.PreToolUse?.[0]?.onFailure).toBeUndefined();
    expect(await runHook(hooks, preToolUse('Bash'))).toEqual({});
  });

  test('skips null guards and leaves the matcher out for an empty one', () => {
    const hooks = toHooks(null, guard({ action: 'pass' }, { matcher: '' }));
    expect(hooks.PreToolUse).toHaveLength(1);
    expect(hooks.PreToolUse?.[0]).not.toHaveProperty('matcher');
  });
});

describe('toToolHookInput', () => {
  test('reads agent id and type from a subagent call', () => {
    const input = toToolHookInput(preToolUse('Bash', { agent_id: 'a1', agent_type: 'worker' }));
    expect(input).toEqual({
      event: 'PreToolUse',
      toolName: 'Bash',
      toolInput: { command: 'ls' },
      toolUseId: 'tu_1',
      agentId: 'a1',
      agentType: 'worker',
      cwd: '/ws',
    });
  });

  test('is null for events that are not about a tool call', () => {
    expect(
      toToolHookInput({
        hook_event_name: 'Stop',
        session_id: 's',
        transcript_path: '',
        cwd: '/',
      } as HookInput),
    ).toBeNull();
  });
});

describe('mergeHooks', () => {
  test('concatenates matchers per event in argument order and skips empty groups', () => {
    const first = toHooks(guard({ action: 'pass' }, { name: 'one' }));
    const second = toHooks(guard({ action: 'pass' }, { name: 'two', matcher: 'Write' }));
    const merged = mergeHooks(first, null, undefined, {}, second);
    expect(merged.PreToolUse?.map((matcher) => matcher.matcher)).toEqual(['Bash', 'Write']);
    expect(Object.keys(mergeHooks(null, { PostToolUse: [] }))).toEqual([]);
  });
});
