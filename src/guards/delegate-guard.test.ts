import { describe, expect, test } from 'vitest';
import type { WorkbenchLike } from '../workbench/workbench-places.js';
import { delegateGuard, DELEGATE_ALLOWED } from './delegate-guard.js';
import type { GuardDecision, ToolHookInput } from './guard.js';

function call(
  toolName: string,
  toolInput: Record<string, unknown> = {},
  agentId: string | null = null,
): ToolHookInput {
  return {
    event: 'PreToolUse',
    toolName,
    toolInput,
    toolUseId: 'tu_1',
    agentId,
    agentType: null,
    cwd: '/ws',
  };
}

function bash(command: string): ToolHookInput {
  return call('Bash', { command });
}

function reasonOf(decision: GuardDecision): string {
  if (decision.action !== 'deny') throw new Error(`expected a denial, got ${decision.action}`);
  return decision.reason;
}

const outside: WorkbenchLike = {
  root: '/data/runs/workbench',
  artifacts: '/data/runs/workbench/artifacts',
  scripts: '/data/runs/workbench/scripts',
  notes: '/data/runs/workbench/notes',
  display: (path) => path,
};

describe('delegateGuard', () => {
  test('is a fail-closed PreToolUse guard on every tool', () => {
    expect(delegateGuard()).toMatchObject({ event: 'PreToolUse', matcher: '', failClosed: true });
  });

  test('approves delegation, planning, reading and the human channel on the main thread', async () => {
    const guard = delegateGuard();
    for (const tool of DELEGATE_ALLOWED)
      expect(await guard.decide(call(tool)), tool).toEqual({ action: 'allow' });
    expect(DELEGATE_ALLOWED).toEqual([
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Read',
      'Glob',
      'Grep',
      'mcp__human__ask',
      'mcp__human__inbox',
    ]);
  });

  test.each(['Write', 'Edit', 'NotebookEdit'])(
    'denies %s with directions to dispatch a worker',
    async (tool) => {
      const reason = reasonOf(await delegateGuard({ allowGlance: true }).decide(call(tool)));
      expect(reason).toBe(
        `The coordinator does not use ${tool} itself. Dispatch a worker with Agent: state the goal and how to tell it is done; long output goes to .flower/artifacts/; reply = path + conclusion.`,
      );
    },
  );

  test('denies every other tool too (deny by default)', async () => {
    const guard = delegateGuard({ allowGlance: true });
    for (const tool of ['WebFetch', 'WebSearch', 'Skill', 'ToolSearch', 'mcp__other__run']) {
      expect(reasonOf(await guard.decide(call(tool)))).toMatch(
        new RegExp(`^${tool} is not available to the coordinator\\. Dispatch a worker`),
      );
    }
  });

  test.each(['git status', 'ls', 'git log --oneline | head'])(
    'allows the glance %j with allowGlance',
    async (command) => {
      expect(await delegateGuard({ allowGlance: true }).decide(bash(command))).toEqual({ action: 'allow' });
    },
  );

  test.each(['rm -rf x', 'git status && rm -rf x', 'git status\nrm x', 'cd src && ls'])(
    'denies %j with the glance rule',
    async (command) => {
      const reason = reasonOf(await delegateGuard({ allowGlance: true }).decide(bash(command)));
      expect(reason).toContain('only for a side-effect-free glance');
      expect(reason).toContain('no cd');
      expect(reason).toContain('Dispatch a worker with Agent');
    },
  );

  test('denies even a glance without allowGlance', async () => {
    const reason = reasonOf(await delegateGuard().decide(bash('git status')));
    expect(reason).toMatch(/^The coordinator does not use Bash itself\./);
  });

  test('denies a Bash call without a command string', async () => {
    expect((await delegateGuard({ allowGlance: true }).decide(call('Bash', {}))).action).toBe('deny');
  });

  test('keeps its denials short: each stays in the transcript', async () => {
    const guard = delegateGuard({ allowGlance: true });
    for (const input of [call('Write'), bash('rm -rf x'), call('WebFetch')]) {
      expect(reasonOf(await guard.decide(input)).length).toBeLessThanOrEqual(260);
    }
  });

  test('names the given workbench’s artifacts folder, not the default (decisions.md D113)', async () => {
    const reason = reasonOf(await delegateGuard({ workbench: outside }).decide(call('Write')));
    expect(reason).toContain('long output goes to /data/runs/workbench/artifacts/;');
    expect(reason).not.toContain('.flower');
  });

  test('frames only the listed tools as hands-on', async () => {
    const guard = delegateGuard({ tools: 'Write' });
    expect(reasonOf(await guard.decide(call('Write')))).toMatch(/^The coordinator does not use Write itself/);
    expect(reasonOf(await guard.decide(call('Edit')))).toMatch(/^Edit is not available to the coordinator/);
  });

  test('takes the hands-on tools as a list too', async () => {
    const guard = delegateGuard({ tools: ['Write', 'NotebookEdit'] });
    expect(reasonOf(await guard.decide(call('Write')))).toMatch(/^The coordinator does not use Write itself/);
    expect(reasonOf(await guard.decide(call('NotebookEdit')))).toMatch(
      /^The coordinator does not use NotebookEdit/,
    );
    expect(reasonOf(await guard.decide(call('Edit')))).toMatch(/^Edit is not available to the coordinator/);
  });

  test('passes every subagent call, hands-on tools included', async () => {
    const guard = delegateGuard();
    for (const tool of ['Write', 'Bash', 'Read', 'WebFetch']) {
      expect(await guard.decide(call(tool, { command: 'rm -rf x' }, 'a51b68b08a2be5e4b'))).toEqual({
        action: 'pass',
      });
    }
  });
});
