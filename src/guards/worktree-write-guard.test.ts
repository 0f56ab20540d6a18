import { describe, expect, test } from 'vitest';
import type { ToolHookInput } from './guard.js';
import { worktreeWriteGuard } from './worktree-write-guard.js';

const WORKSPACE = '/repo';
const WORKTREE = '/repo/.claude/worktrees/agent-a1';
const guard = worktreeWriteGuard({
  isolate: new Set(['coder']),
  workspace: WORKSPACE,
  alsoWritable: ['/srv/.flower-repo'],
})!;

function call(
  toolName: string,
  toolInput: Record<string, unknown>,
  agentType: string | null = 'coder',
): ToolHookInput {
  return {
    event: 'PreToolUse',
    toolName,
    toolInput,
    toolUseId: 't',
    agentId: agentType === null ? null : 'a1',
    agentType,
    cwd: agentType === null ? WORKSPACE : `${WORKTREE}/src`,
  };
}

describe('worktreeWriteGuard', () => {
  test('lets an isolated worker write in its worktree (relative or absolute) and in the workbench', () => {
    expect(guard.decide(call('Write', { file_path: 'a.ts' }))).toEqual({ action: 'pass' });
    expect(guard.decide(call('Edit', { file_path: `${WORKTREE}/README.md` }))).toEqual({ action: 'pass' });
    expect(guard.decide(call('Write', { file_path: '/srv/.flower-repo/notes/n.md' }))).toEqual({
      action: 'pass',
    });
  });

  test.each([
    ['Write', { file_path: '/repo/README.md' }],
    ['Edit', { file_path: '/home/user/.bashrc' }],
    ['NotebookEdit', { notebook_path: '/tmp/n.ipynb' }],
    ['Write', { file_path: '../../../../leak.txt' }],
    ['Write', { file_path: '/repo/.claude/worktrees/agent-b2/x.ts' }],
  ])('denies %s %j with a reason naming the worktree', (tool, input) => {
    const decision = guard.decide(call(tool, input));
    expect(decision).toMatchObject({ action: 'deny' });
    expect((decision as { reason: string }).reason).toContain(WORKTREE);
  });

  test('leaves the main thread and roles that are not isolated alone', () => {
    expect(guard.decide(call('Write', { file_path: '/tmp/x' }, null))).toEqual({ action: 'pass' });
    expect(guard.decide(call('Write', { file_path: '/tmp/x' }, 'reviewer'))).toEqual({ action: 'pass' });
  });

  test('is not installed without isolated roles', () => {
    expect(worktreeWriteGuard({ isolate: new Set(), workspace: WORKSPACE })).toBeNull();
  });
});
