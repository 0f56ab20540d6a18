import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { NOTES, NOTES_ZH, workbenchPath } from './workbench-path.js';

describe('workbenchPath', () => {
  test('puts the workbench in <workspace>/.flower by default', () => {
    expect(workbenchPath('/srv/app')).toBe(join('/srv/app', '.flower'));
    expect(workbenchPath('/srv/app', { runDir: null })).toBe(join('/srv/app', '.flower'));
  });

  test('puts it beside the workspace with isolate, so every worktree shares it', () => {
    expect(workbenchPath('/srv/my app/', { isolate: true })).toBe(join('/srv', '.flower-my app'));
  });

  test('puts it in the run directory with -W, whatever isolate says', () => {
    expect(workbenchPath('/srv/app', { runDir: '/data/runs', isolate: true })).toBe(
      join('/data/runs', 'workbench'),
    );
  });

  test('resolves a relative workspace against the cwd', () => {
    expect(workbenchPath('app')).toBe(join(process.cwd(), 'app', '.flower'));
  });
});

describe('NOTES', () => {
  test('names the English files and their Chinese counterparts', () => {
    expect(NOTES).toEqual({
      brief: 'brief.md',
      goal: 'goal.md',
      qaLog: 'qa-log.md',
      handoffPrefix: 'handoff-',
    });
    expect(NOTES_ZH).toEqual({
      brief: '需求.md',
      goal: '目标.md',
      qaLog: '问答记录.md',
      handoffPrefix: '交接-',
    });
  });
});
