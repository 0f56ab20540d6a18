import { describe, expect, test } from 'vitest';
import type { ToolHookInput } from './guard.js';
import { inspectGuard } from './inspect-guard.js';

function bash(command: unknown, agentId: string | null = null): ToolHookInput {
  return {
    event: 'PreToolUse',
    toolName: 'Bash',
    toolInput: { command },
    toolUseId: 'tu_1',
    agentId,
    agentType: null,
    cwd: '/ws',
  };
}

describe('inspectGuard', () => {
  test('is a fail-closed PreToolUse guard on Bash', () => {
    expect(inspectGuard()).toMatchObject({ event: 'PreToolUse', matcher: 'Bash', failClosed: true });
  });

  test('allows an inspection on the main thread', async () => {
    expect(await inspectGuard().decide(bash('file dist/app && ldd dist/app'))).toEqual({ action: 'allow' });
  });

  test('denies anything else with a short reason that lists what runs', async () => {
    const decision = await inspectGuard().decide(bash('rm -rf dist'));
    expect(decision).toMatchObject({ action: 'deny' });
    const reason = decision.action === 'deny' ? decision.reason : '';
    expect(reason).toContain('readelf -h');
    expect(reason.length).toBeLessThan(200);
  });

  test('denies a command that is not a string', async () => {
    expect((await inspectGuard().decide(bash(['ls'])))?.action).toBe('deny');
  });

  test('leaves subagent calls alone', async () => {
    expect(await inspectGuard().decide(bash('rm -rf dist', 'a1'))).toEqual({ action: 'pass' });
  });
});
