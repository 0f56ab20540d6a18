// Worktree isolation (acceptance of "Roles, guards and the workbench"): with an isolated worker role, two
// workers dispatched in one turn work in two different git worktrees and the main checkout is untouched.
// The coordinator never asks for isolation itself: the Agent input rewrite adds it (a hook, not a prompt).
// Real SDK and binary, fake API, a real git repository.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coordinator } from '../../src/roles/coordinator.js';
import { worker, WORKER_TOOLS } from '../../src/roles/worker.js';
import { message, scriptTurns, text, toolUse } from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { benchFor } from '../../src/workbench/bench-for.js';
import { git, gitWorkspace } from './support/git-workspace.js';
import { seenToolResult } from './support/tool-results.js';
import { sandboxSupport } from '../../src/agent/sandbox-support.js';

const setUp = inProcessRuns();

const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'code', source: ['1'], metadata: {}, outputs: [], execution_count: null }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
});

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
    // directory (`<workspace>/runs` by default, decisions.md D3).
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    expect(git(workspace, 'status', '--porcelain', '--untracked-files=all', '--', '.', ':!runs')).toBe('');
    // Worktrees holding changes are kept for the human to review.
    for (const path of worktrees) expect(existsSync(join(path, 'made.txt'))).toBe(true);
    expect(seenToolResult(server, 'one')?.text).toContain('Conclusion: made made.txt.');
  }, 90_000);

  test('an isolated worker cannot write the main checkout or outside the workspace', async () => {
    // Paths are filled in once the scratch workspace exists; the script keeps these objects by reference.
    const writeMain = { file_path: '', content: 'overwritten\n' };
    const writeNew = { file_path: '', content: 'new\n' };
    const editMain = { file_path: '', old_string: 'hello', new_string: 'bye' };
    const writeOutside = { file_path: '', content: 'outside\n' };
    const readNotebook = { file_path: '' };
    const notebookOutside = { notebook_path: '', new_source: 'x', edit_mode: 'insert', cell_type: 'code' };
    const bashMain = { command: '', description: 'write the main checkout' };
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([
            toolUse('Agent', { description: 'work', prompt: 'Work.', subagent_type: 'coder' }, 'dispatch'),
          ]),
          message([text('Done.')]),
        ],
        subagent: [
          // NotebookEdit checks that the notebook was read before any hook sees the call.
          message([toolUse('Read', readNotebook, 'read-notebook')]),
          message([
            toolUse('Write', writeMain, 'write-main'),
            toolUse('Write', writeNew, 'write-new'),
            toolUse('Edit', editMain, 'edit-main'),
            toolUse('Write', writeOutside, 'write-outside'),
            toolUse('NotebookEdit', notebookOutside, 'notebook-outside'),
            toolUse('Write', { file_path: 'inside.txt', content: 'inside\n' }, 'write-inside'),
            toolUse('Bash', bashMain, 'bash-main'),
          ]),
          message([text('Conclusion: tried.')]),
        ],
      }),
    );
    const workspace = scratch.workspace;
    gitWorkspace(workspace);
    writeMain.file_path = join(workspace, 'README.md');
    writeNew.file_path = join(workspace, 'new.txt');
    editMain.file_path = join(workspace, 'README.md');
    writeOutside.file_path = join(scratch.dir, 'outside.txt');
    notebookOutside.notebook_path = join(scratch.dir, 'outside.ipynb');
    readNotebook.file_path = notebookOutside.notebook_path;
    writeFileSync(notebookOutside.notebook_path, NOTEBOOK);
    bashMain.command = `echo leaked > ${join(workspace, 'x', 'keep.txt')}; echo leaked > ${join(scratch.dir, 'bash-outside.txt')}`;
    const workbench = benchFor(workspace, { isolate: true });
    const runtime = runtimeWith({ workbench });
    const spec = coordinator('coordinator', '', {
      coder: worker('Writes code.', 'Implement it.', {
        isolate: true,
        tools: [...WORKER_TOOLS, 'NotebookEdit'],
      }),
    });

    const result = await runtime.run(spec, 'Work.');

    expect(result.error).toBeNull();
    for (const id of ['write-main', 'write-new', 'edit-main', 'write-outside', 'notebook-outside']) {
      const seen = seenToolResult(server, id);
      expect(seen?.isError, `${id}: ${seen?.text}`).toBe(true);
      expect(seen?.text, id).toMatch(/worktree/);
    }
    // flower's own reason (not only Claude Code's) for the path outside the repository.
    expect(seenToolResult(server, 'write-outside')?.text).toMatch(/write files only there/);
    expect(seenToolResult(server, 'write-inside')?.isError).toBe(false);
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(workspace, 'new.txt'))).toBe(false);
    expect(existsSync(join(scratch.dir, 'outside.txt'))).toBe(false);
    expect(readFileSync(join(scratch.dir, 'outside.ipynb'), 'utf8')).toBe(NOTEBOOK);
    if (sandboxSupport(scratch.env['PATH'] ?? '').available) {
      // The worker's Bash runs in Claude Code's sandbox: the main checkout's files and everything outside the
      // allowed folders are read-only.
      expect(seenToolResult(server, 'bash-main')?.text).toMatch(/read-only file system/i); // bash says Read-only, zsh read-only
      expect(readFileSync(join(workspace, 'x', 'keep.txt'), 'utf8')).toBe('keep\n');
      expect(existsSync(join(scratch.dir, 'bash-outside.txt'))).toBe(false);
    }
  }, 90_000);
});
