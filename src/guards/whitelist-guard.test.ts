import { describe, expect, test } from 'vitest';
import type { ToolHookInput } from './guard.js';
import { whitelistGuard } from './whitelist-guard.js';

function call(toolName: string, agentId: string | null = null): ToolHookInput {
  return {
    event: 'PreToolUse',
    toolName,
    toolInput: {},
    toolUseId: 'tu_1',
    agentId,
    agentType: null,
    cwd: '/ws',
  };
}

describe('whitelistGuard', () => {
  test('approves a listed tool on the main thread', async () => {
    const guard = whitelistGuard(['Read', 'Bash'], { role: 'ad-hoc' });
    expect(await guard?.decide(call('Bash'))).toEqual({ action: 'allow' });
  });

  test('denies an unlisted tool on the main thread, naming the role and the allowed tools', async () => {
    const guard = whitelistGuard(['Read', 'Glob', 'Grep'], { role: 'ad-hoc' });
    const decision = await guard?.decide(call('Bash'));
    expect(decision).toMatchObject({ action: 'deny' });
    const reason = decision?.action === 'deny' ? decision.reason : '';
    expect(reason).toContain("'ad-hoc'");
    expect(reason).toContain('Read, Glob, Grep');
    expect(reason).toContain('intentional');
    // Denials stay in the transcript; keep them short.
    expect(reason.length).toBeLessThan(200);
  });

  test('denies tools outside the four hands-on ones too (deny by default)', async () => {
    const guard = whitelistGuard(['Read'], { role: 'judge' });
    expect((await guard?.decide(call('Agent')))?.action).toBe('deny');
    expect((await guard?.decide(call('WebFetch')))?.action).toBe('deny');
  });

  test('leaves subagent calls alone', async () => {
    const guard = whitelistGuard(['Read'], { role: 'coordinator' });
    expect(await guard?.decide(call('Bash', 'a51b68b08a2be5e4b'))).toEqual({ action: 'pass' });
  });

  test('allows every tool of a listed MCP server', async () => {
    const guard = whitelistGuard(['Read', 'mcp__human'], { role: 'clarifier' });
    expect((await guard?.decide(call('mcp__human__ask')))?.action).toBe('allow');
    expect((await guard?.decide(call('mcp__other__ask')))?.action).toBe('deny');
  });

  test('only passes listed tools on when approve is false', async () => {
    const guard = whitelistGuard(['Edit'], { role: 'planner', approve: false });
    expect(await guard?.decide(call('Edit'))).toEqual({ action: 'pass' });
    expect((await guard?.decide(call('Bash')))?.action).toBe('deny');
  });

  test('is null when everything is allowed', () => {
    expect(whitelistGuard(['*'], { role: 'any' })).toBeNull();
  });

  test('is a fail-closed PreToolUse guard for every tool', () => {
    expect(whitelistGuard(['Read'], { role: 'x' })).toMatchObject({
      event: 'PreToolUse',
      matcher: '',
      failClosed: true,
    });
  });
});
