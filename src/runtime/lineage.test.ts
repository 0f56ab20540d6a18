import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { projectKey } from '../agent/project-key.js';
import { LINEAGE_FILE, Lineage } from './lineage.js';

let root: string;
let workspace: string;
let runDir: string;
let file: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-lineage-')));
  workspace = join(root, 'my app é');
  runDir = join(workspace, 'runs');
  file = join(runDir, LINEAGE_FILE);
  mkdirSync(runDir, { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function onDisk(path = file): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('Lineage.open', () => {
  test('gives an empty lineage for a missing file and writes nothing', () => {
    const lineage = Lineage.open(runDir, workspace);
    expect(lineage.steps).toEqual({});
    expect(lineage.woke).toBe(0);
    expect(lineage.notices).toEqual([]);
    expect(lineage.rekey).toBeNull();
    expect(lineage.path).toBe(file);
    expect(lineage.workspace).toBe(workspace);
    expect(lineage.projectKey).toBe(projectKey(workspace));
    expect(lineage.id).toMatch(/^[0-9a-f]{16}$/);
    expect(readdirSync(runDir)).toEqual([]);
  });

  test('never throws, even when the run directory is a file', () => {
    const blocker = join(root, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const lineage = Lineage.open(blocker, workspace);
    expect(lineage.steps).toEqual({});
    lineage.remember('work', 'session-1');
    expect(lineage.steps).toEqual({ work: 'session-1' });
    expect(readFileSync(blocker, 'utf8')).toBe('x');
  });

  test('quarantines an unreadable file, never overwriting it, and says so', () => {
    writeFileSync(file, '{"workspace": "/x", "steps": {');
    const lineage = Lineage.open(runDir, workspace, { runId: 'run-q' });
    expect(lineage.steps).toEqual({});
    expect(readFileSync(`${file}.corrupt-run-q`, 'utf8')).toBe('{"workspace": "/x", "steps": {');
    expect(existsSync(file)).toBe(false);
    expect(lineage.notices).toHaveLength(1);
    expect(lineage.notices[0]?.code).toBe('lineage_quarantined');
    expect(lineage.notices[0]?.text).toContain(`${file}.corrupt-run-q`);
  });

  test('quarantines a file that is JSON but not an object', () => {
    writeFileSync(file, '["clarify"]');
    const lineage = Lineage.open(runDir, workspace, { runId: 'run-q' });
    expect(lineage.notices.map((notice) => notice.code)).toEqual(['lineage_quarantined']);
    expect(readFileSync(`${file}.corrupt-run-q`, 'utf8')).toBe('["clarify"]');
  });

  test('reads a Python flower file: Chinese step keys become English, only non-empty ids kept', () => {
    writeFileSync(
      file,
      JSON.stringify({
        workspace,
        woke: 3,
        steps: { 确认需求: 's-clarify', 设定目标: 's-goal', 干活: 's-old-work', work: 's-work', empty: '' },
      }),
    );
    const lineage = Lineage.open(runDir, workspace);
    expect(lineage.steps).toEqual({ clarify: 's-clarify', goal: 's-goal', work: 's-work' });
    expect(lineage.woke).toBe(3);
    expect(lineage.notices).toEqual([]);
    expect(lineage.rekey).toBeNull();
  });

  test('starts fresh with a notice when the file belongs to another workspace', () => {
    writeFileSync(
      file,
      JSON.stringify({ workspace: '/elsewhere', workspace_rel: '../../elsewhere', steps: { work: 's1' } }),
    );
    const lineage = Lineage.open(runDir, workspace);
    expect(lineage.steps).toEqual({});
    expect(lineage.notices.map((notice) => notice.code)).toEqual(['lineage_reset']);
    expect(lineage.notices[0]?.text).toContain('/elsewhere');
    expect(onDisk()['steps']).toEqual({ work: 's1' });
  });

  test('follows a workspace moved together with its run directory and re-keys it', () => {
    const first = Lineage.open(runDir, workspace);
    first.remember('clarify', 's-clarify');
    first.remember('work', 's-work');
    first.bump();
    const moved = join(root, 'renamed project');
    renameSync(workspace, moved);
    const rekeys: Array<[string, string]> = [];
    const lineage = Lineage.open(join(moved, 'runs'), moved, {
      rekeyStore: (from, to) => rekeys.push([from, to]),
    });
    expect(lineage.steps).toEqual({ clarify: 's-clarify', work: 's-work' });
    expect(lineage.woke).toBe(1);
    expect(lineage.id).toBe(first.id);
    expect(lineage.rekey).toEqual({ from: projectKey(workspace), to: projectKey(moved) });
    expect(rekeys).toEqual([[projectKey(workspace), projectKey(moved)]]);
    expect(lineage.notices.map((notice) => notice.code)).toEqual(['lineage_moved']);
    expect(lineage.notices[0]?.text).toContain(`from ${workspace} to ${moved}`);
    expect(onDisk(join(moved, 'runs', LINEAGE_FILE))).toMatchObject({
      workspace: moved,
      workspace_rel: '..',
      project_key: projectKey(moved),
      lineage_id: first.id,
    });
    const again = Lineage.open(join(moved, 'runs'), moved);
    expect(again.notices).toEqual([]);
    expect(again.rekey).toBeNull();
  });

  test('keeps the old key on disk when re-keying the store fails, so the next open retries', () => {
    Lineage.open(runDir, workspace).remember('work', 's-work');
    const moved = join(root, 'moved');
    renameSync(workspace, moved);
    const failing = Lineage.open(join(moved, 'runs'), moved, {
      rekeyStore: () => {
        throw new Error('database is locked');
      },
    });
    expect(failing.rekey).toEqual({ from: projectKey(workspace), to: projectKey(moved) });
    expect(onDisk(join(moved, 'runs', LINEAGE_FILE))).toMatchObject({
      workspace: moved,
      project_key: projectKey(workspace),
    });
    const retry = Lineage.open(join(moved, 'runs'), moved);
    expect(retry.rekey).toEqual({ from: projectKey(workspace), to: projectKey(moved) });
    expect(retry.notices).toEqual([]);
  });

  test('changes nothing on disk when opened read-only', () => {
    Lineage.open(runDir, workspace).remember('work', 's-work');
    const moved = join(root, 'moved');
    renameSync(workspace, moved);
    const movedFile = join(moved, 'runs', LINEAGE_FILE);
    const before = readFileSync(movedFile, 'utf8');
    const lineage = Lineage.open(join(moved, 'runs'), moved, { readonly: true });
    expect(lineage.steps).toEqual({ work: 's-work' });
    expect(lineage.notices.map((notice) => notice.code)).toEqual(['lineage_moved']);
    lineage.remember('goal', 's-goal');
    lineage.bump();
    expect(readFileSync(movedFile, 'utf8')).toBe(before);
    writeFileSync(movedFile, 'garbage');
    const damaged = Lineage.open(join(moved, 'runs'), moved, { readonly: true });
    expect(damaged.notices.map((notice) => notice.code)).toEqual(['lineage_quarantined']);
    expect(readdirSync(join(moved, 'runs'))).toEqual([LINEAGE_FILE]);
  });
});

describe('Lineage.remember', () => {
  test('writes the documented format at once', () => {
    const lineage = Lineage.open(runDir, workspace);
    lineage.remember('work', 'session-1');
    expect(onDisk()).toEqual({
      workspace,
      workspace_rel: '..',
      project_key: projectKey(workspace),
      lineage_id: lineage.id,
      woke: 0,
      steps: { work: 'session-1' },
      handoffs: {},
    });
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {2}"workspace": /);
    expect(readdirSync(runDir)).toEqual([LINEAGE_FILE]);
  });

  test('ignores an empty step or session id', () => {
    const lineage = Lineage.open(runDir, workspace);
    lineage.remember('', 's');
    lineage.remember('work', '');
    expect(lineage.steps).toEqual({});
    expect(existsSync(file)).toBe(false);
  });

  test('merges only the touched key, so parallel processes keep each other’s steps', () => {
    const one = Lineage.open(runDir, workspace);
    const two = Lineage.open(runDir, workspace);
    one.remember('clarify', 's-clarify');
    two.remember('work', 's-work');
    one.remember('goal', 's-goal');
    expect(onDisk()['steps']).toEqual({ clarify: 's-clarify', work: 's-work', goal: 's-goal' });
    expect(one.steps).toEqual({ clarify: 's-clarify', work: 's-work', goal: 's-goal' });
  });

  test('keeps keys it does not know when rewriting', () => {
    writeFileSync(file, JSON.stringify({ workspace, steps: {}, future_field: { a: 1 } }));
    Lineage.open(runDir, workspace).remember('work', 's');
    expect(onDisk()['future_field']).toEqual({ a: 1 });
  });

  test('sets another workspace’s file aside instead of overwriting it', () => {
    writeFileSync(file, JSON.stringify({ workspace: '/elsewhere', steps: { work: 'theirs' } }));
    const lineage = Lineage.open(runDir, workspace, { runId: 'run-r' });
    lineage.remember('work', 'ours');
    expect(onDisk()['steps']).toEqual({ work: 'ours' });
    expect(onDisk(`${file}.replaced-run-r`)['steps']).toEqual({ work: 'theirs' });
  });
});

describe('Lineage.bump', () => {
  test('counts on from the file, not from what this instance saw', () => {
    const one = Lineage.open(runDir, workspace);
    const two = Lineage.open(runDir, workspace);
    expect(one.bump()).toBe(1);
    expect(two.bump()).toBe(2);
    expect(one.bump()).toBe(3);
    expect(onDisk()['woke']).toBe(3);
  });
});

describe('Lineage handoffs', () => {
  test('records and returns the hash per step', () => {
    const lineage = Lineage.open(runDir, workspace);
    expect(lineage.handoffHash('work')).toBeNull();
    lineage.recordHandoff('work', 'notes/handoff-work.md', 'ab12');
    expect(lineage.handoffHash('work')).toEqual({ path: 'notes/handoff-work.md', sha256: 'ab12' });
    expect(Lineage.open(runDir, workspace).handoffHash('work')).toEqual({
      path: 'notes/handoff-work.md',
      sha256: 'ab12',
    });
    expect(onDisk()['handoffs']).toEqual({ work: { path: 'notes/handoff-work.md', sha256: 'ab12' } });
  });
});

describe('Lineage.archive', () => {
  test('moves the lineage and the extra files into a timestamped folder and starts over', () => {
    const notes = join(workspace, '.flower', 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'brief.md'), 'brief');
    const lineage = Lineage.open(runDir, workspace);
    lineage.remember('work', 's-work');
    lineage.bump();
    const oldId = lineage.id;
    const archive = join(notes, 'archive');
    const first = lineage.archive(archive, {
      extra: [join(notes, 'brief.md'), join(notes, 'goal.md')],
    });
    expect(first).toMatch(/[/\\]\d{8}-\d{6}$/);
    expect(readdirSync(first).sort()).toEqual(['brief.md', LINEAGE_FILE]);
    expect(onDisk(join(first, LINEAGE_FILE))['steps']).toEqual({ work: 's-work' });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(notes, 'brief.md'))).toBe(false);
    expect(lineage.steps).toEqual({});
    expect(lineage.woke).toBe(0);
    expect(lineage.id).not.toBe(oldId);

    lineage.remember('work', 's-new');
    const second = lineage.archive(archive);
    const third = Lineage.open(runDir, workspace).archive(archive);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(onDisk(join(second, LINEAGE_FILE))['steps']).toEqual({ work: 's-new' });
  });
});
