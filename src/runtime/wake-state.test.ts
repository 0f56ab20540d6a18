import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { projectKey } from '../agent/project-key.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { Lineage } from './lineage.js';
import { wakeState } from './wake-state.js';

let root: string;
let workspace: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-wake-')));
  workspace = join(root, 'app');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `directory` with a content hash for files: any creation or change shows up. */
function snapshot(directory: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const key = relative(directory, path);
      if (statSync(path).isDirectory()) {
        entries[key] = 'dir';
        walk(path);
      } else {
        entries[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(directory);
  return entries;
}

const COMPLETE_BRIEF = [
  '## Goal',
  'A date CLI.',
  '## Acceptance criteria',
  '- prints the date',
  '## Boundaries',
  'No network.',
  '## Unknowns and assumptions',
  'UTC.',
].join('\n');

const GOAL = [
  '## Goal',
  'Date CLI works.',
  '## Checklist',
  '- runs',
  '- prints the date',
  '  in ISO 8601 form',
  '',
  '- exits 0',
].join('\n');

function writeNote(name: string, text: string, notes = join(workspace, '.flower', 'notes')): void {
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, name), text);
}

async function storeWithContext(runDir: string, key: string, sessionId: string): Promise<void> {
  const store = new SqliteSessionStore(join(runDir, 'sessions.db'));
  await store.append({ projectKey: key, sessionId }, [
    {
      type: 'assistant',
      uuid: 'u1',
      message: {
        usage: { input_tokens: 10, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 2 },
      },
    },
  ]);
  store.close();
}

describe('wakeState', () => {
  test('reports nothing to wake and creates nothing when neither workspace nor run dir exist', () => {
    const before = snapshot(root);
    const state = wakeState(workspace);
    expect(state).toEqual({
      waking: false,
      brief: join(workspace, '.flower', 'notes', 'brief.md'),
      goal: join(workspace, '.flower', 'notes', 'goal.md'),
      checks: 0,
      woke: 0,
      steps: {},
      context: 0,
    });
    wakeState(workspace, { runDir: join(root, 'elsewhere', 'runs'), isolate: true });
    expect(snapshot(root)).toEqual(before);
  });

  test('reads brief, goal, lineage and the work context, changing nothing', async () => {
    writeNote('brief.md', COMPLETE_BRIEF);
    writeNote('goal.md', GOAL);
    const runDir = join(workspace, 'runs');
    const lineage = Lineage.open(runDir, workspace);
    lineage.remember('clarify', 's-clarify');
    lineage.remember('work', 's-work');
    lineage.bump();
    lineage.bump();
    await storeWithContext(runDir, projectKey(workspace), 's-work');
    const before = snapshot(root);
    expect(wakeState(workspace)).toEqual({
      waking: true,
      brief: join(workspace, '.flower', 'notes', 'brief.md'),
      goal: join(workspace, '.flower', 'notes', 'goal.md'),
      checks: 3,
      woke: 2,
      steps: { clarify: 's-clarify', work: 's-work' },
      context: 40_012,
    });
    // Not even SQLite's -wal/-shm companions: the cleanly closed store is read from an in-memory copy.
    expect(snapshot(root)).toEqual(before);
  });

  test('reads the work context from a store another process has open, with its log', async () => {
    writeNote('brief.md', COMPLETE_BRIEF);
    const runDir = join(workspace, 'runs');
    Lineage.open(runDir, workspace).remember('work', 's-work');
    await storeWithContext(runDir, projectKey(workspace), 's-work');
    // A writer still open keeps its newest pages in the -wal file, which only SQLite's own reader sees.
    const writer = new SqliteSessionStore(join(runDir, 'sessions.db'));
    try {
      await writer.append({ projectKey: projectKey(workspace), sessionId: 's-work' }, [
        { type: 'assistant', uuid: 'u2', message: { usage: { input_tokens: 50_000 } } },
      ]);
      expect(wakeState(workspace).context).toBe(50_000);
    } finally {
      writer.close();
    }
  });

  test('is not waking while the brief lacks a section', () => {
    writeNote('brief.md', COMPLETE_BRIEF.replace('## Boundaries\nNo network.\n', ''));
    expect(wakeState(workspace).waking).toBe(false);
  });

  test('uses the Chinese notes only when the English files are absent', () => {
    writeNote(
      '需求.md',
      '## 目标\n做一个日期工具\n## 验收标准\n能运行\n## 边界\n不联网\n## 未知与假设\n用 UTC',
    );
    writeNote('目标.md', '## 目标\n能用\n## 判定清单\n1. 能运行\n2. 输出日期');
    const chinese = wakeState(workspace);
    expect(chinese).toMatchObject({ waking: true, checks: 2 });
    expect(chinese.brief).toBe(join(workspace, '.flower', 'notes', '需求.md'));
    writeNote('goal.md', GOAL);
    expect(wakeState(workspace)).toMatchObject({
      checks: 3,
      goal: join(workspace, '.flower', 'notes', 'goal.md'),
    });
  });

  test('honours explicit note names, the isolated workbench and a separate run dir', () => {
    writeNote('my-brief.md', COMPLETE_BRIEF, join(root, '.flower-app', 'notes'));
    const runDir = join(root, 'runs-elsewhere');
    Lineage.open(runDir, workspace).remember('work', 's1');
    const state = wakeState(workspace, { isolate: true, briefName: 'my-brief.md', runDir });
    expect(state.waking).toBe(true);
    expect(state.brief).toBe(join(root, '.flower-app', 'notes', 'my-brief.md'));
    expect(state.steps).toEqual({ work: 's1' });
    expect(wakeState(workspace, { briefName: 'my-brief.md' }).waking).toBe(false);
  });

  test('follows a moved workspace read-only, finding the context under the old key', async () => {
    const runDir = join(workspace, 'runs');
    Lineage.open(runDir, workspace).remember('work', 's-work');
    await storeWithContext(runDir, projectKey(workspace), 's-work');
    const moved = join(root, 'moved app');
    renameSync(workspace, moved);
    const lineageText = readFileSync(join(moved, 'runs', 'lineage.json'), 'utf8');
    const state = wakeState(moved);
    expect(state).toMatchObject({ steps: { work: 's-work' }, context: 40_012 });
    expect(readFileSync(join(moved, 'runs', 'lineage.json'), 'utf8')).toBe(lineageText);
  });
});
