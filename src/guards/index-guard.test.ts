import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Workbench } from '../workbench/workbench.js';
import type { ToolHookInput } from './guard.js';
import { indexGuard } from './index-guard.js';

let dir = '';
let workspace = '';
let bench: Workbench;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-index-guard-')));
  workspace = join(dir, 'app');
  mkdirSync(workspace);
  bench = new Workbench(workspace).ensure();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function call(toolName: string, toolInput: Record<string, unknown>, cwd = workspace): ToolHookInput {
  return {
    event: 'PostToolUse',
    toolName,
    toolInput,
    toolResponse: {},
    toolUseId: 'tu_1',
    agentId: 'a1',
    agentType: 'worker',
    cwd,
  };
}

const index = (): string => readFileSync(join(bench.root, 'INDEX.md'), 'utf8');

/** Adds a script behind the guard's back, runs `input` through the guard, and says whether the index saw it. */
async function refreshes(input: ToolHookInput, workbench = bench): Promise<boolean> {
  const name = `s${Math.random().toString(36).slice(2)}.sh`;
  writeFileSync(join(workbench.scripts, name), '# desc: new\n');
  expect(await indexGuard(workbench).decide(input)).toEqual({ action: 'pass' });
  return readFileSync(join(workbench.root, 'INDEX.md'), 'utf8').includes(name);
}

describe('indexGuard', () => {
  test('is a fail-open PostToolUse guard on the writing tools', () => {
    expect(indexGuard(bench)).toMatchObject({
      name: 'index',
      event: 'PostToolUse',
      matcher: 'Write|Edit|NotebookEdit|Bash',
      failClosed: false,
    });
  });

  test('refreshes after a Write or Edit inside the workbench, by absolute or relative path', async () => {
    expect(await refreshes(call('Write', { file_path: join(bench.scripts, 'x.sh') }))).toBe(true);
    expect(await refreshes(call('Edit', { file_path: '.flower/notes/decision.md' }))).toBe(true);
    expect(await refreshes(call('Write', { file_path: '../.flower/x.md' }, join(workspace, 'src')))).toBe(
      true,
    );
    expect(index()).toContain('## Reusable scripts (3)');
  });

  test('refreshes after a NotebookEdit inside the workbench', async () => {
    expect(await refreshes(call('NotebookEdit', { notebook_path: join(bench.artifacts, 'n.ipynb') }))).toBe(
      true,
    );
  });

  test('does not refresh for files outside the workbench, including look-alike paths', async () => {
    expect(await refreshes(call('Write', { file_path: join(workspace, 'src', 'x.ts') }))).toBe(false);
    mkdirSync(join(workspace, '.flower-old'));
    expect(await refreshes(call('Write', { file_path: join(workspace, '.flower-old', 'x.sh') }))).toBe(false);
    expect(await refreshes(call('Write', {}))).toBe(false);
  });

  test('refreshes after a Bash command that may write, not after a look', async () => {
    expect(await refreshes(call('Bash', { command: 'cat > .flower/scripts/a.sh <<EOF\necho\nEOF' }))).toBe(
      true,
    );
    expect(await refreshes(call('Bash', { command: 'ls -la .flower/scripts' }))).toBe(false);
    expect(await refreshes(call('Bash', { command: 'git status && git diff' }))).toBe(false);
  });

  test('refreshes an external workbench', async () => {
    const outside = new Workbench(workspace, { root: join(dir, '.flower-app') }).ensure();
    expect(await refreshes(call('Write', { file_path: join(outside.notes, 'a.md') }), outside)).toBe(true);
    expect(await refreshes(call('Write', { file_path: join(bench.notes, 'a.md') }), outside)).toBe(false);
  });

  test('passes without throwing when the refresh fails', async () => {
    // The root is a file, so INDEX.md cannot be written.
    const broken = new Workbench(workspace, { root: join(workspace, 'not-a-dir') });
    writeFileSync(broken.root, 'x');
    expect(await indexGuard(broken).decide(call('Write', { file_path: join(broken.root, 'y') }))).toEqual({
      action: 'pass',
    });
    expect(await indexGuard(broken).decide(call('Bash', { command: 'make' }))).toEqual({ action: 'pass' });
  });
});
