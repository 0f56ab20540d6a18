// Worktree isolation (acceptance of "Roles, guards and the workbench"): with an isolated worker role, two
// workers dispatched in one turn work in two different git worktrees and the main checkout is untouched.
// The coordinator never asks for isolation itself: the Agent input rewrite adds it (a hook, not a prompt).
// Real SDK and binary, fake API, a real git repository.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coordinator } from '../../src/roles/coordinator.js';
import { worker } from '../../src/roles/worker.js';
import { message, scriptTurns, text, toolUse } from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { benchFor } from '../../src/workbench/bench-for.js';
import { git, gitWorkspace } from './support/git-workspace.js';
import { seenToolResult } from './support/tool-results.js';

const setUp = inProcessRuns();

describe('worktree isolation (e2e)', () => {
  test('two workers of one turn work in two worktrees; the main checkout stays clean', async () => {
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([
            toolUse(
              'Agent',
              { description: 'part one', prompt: 'Do part one.', subagent_type: 'coder' },
              'one',
            ),
            toolUse(
              'Agent',
              { description: 'part two', prompt: 'Do part two.', subagent_type: 'coder' },
              'two',
            ),
          ]),
          message([text('Both parts done.')]),
        ],
        subagent: [
          message([
            toolUse('Bash', { command: 'pwd > where.txt && echo made > made.txt', description: 'work' }),
          ]),
          message([text('Conclusion: made made.txt.')]),
        ],
      }),
    );
    const workspace = scratch.workspace;
    gitWorkspace(workspace);
    const workbench = benchFor(workspace, { isolate: true });
    const runtime = runtimeWith({ workbench });
    const spec = coordinator('coordinator', '', {
      coder: worker('Writes code and tests.', 'Implement it.', { isolate: true }),
    });

    const result = await runtime.run(spec, 'Do both parts.');

    expect(result.error).toBeNull();
    expect(workbench.external).toBe(true);
    const worktrees = git(workspace, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree '))
      .map((line) => line.slice('worktree '.length))
      .filter((path) => path !== workspace);
    expect(worktrees).toHaveLength(2);
    const places = worktrees.map((path) => readFileSync(join(path, 'where.txt'), 'utf8').trim());
    expect(new Set(places).size).toBe(2);
    expect(places.sort()).toEqual([...worktrees].sort());
    // The main checkout: nothing made there, nothing for `git status` to report beyond flower's own run
    // directory (`<workspace>/runs` by default, decision 3).
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    expect(git(workspace, 'status', '--porcelain', '--untracked-files=all', '--', '.', ':!runs')).toBe('');
    // Worktrees holding changes are kept for the human to review.
    for (const path of worktrees) expect(existsSync(join(path, 'made.txt'))).toBe(true);
    expect(seenToolResult(server, 'one')?.text).toContain('Conclusion: made made.txt.');
  }, 90_000);
});
