import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Workbench } from './workbench.js';

let dir = '';
let workspace = '';
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-bench-')));
  workspace = join(dir, 'app');
  mkdirSync(workspace);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Workbench', () => {
  test('lays out <workspace>/.flower by default and touches nothing until ensure()', () => {
    const bench = new Workbench(workspace);
    expect(bench.workspace).toBe(workspace);
    expect(bench.root).toBe(join(workspace, '.flower'));
    expect(bench.external).toBe(false);
    expect([bench.notes, bench.scripts, bench.artifacts, bench.spill]).toEqual(
      ['notes', 'scripts', 'artifacts', 'spill'].map((name) => join(workspace, '.flower', name)),
    );
    expect(existsSync(bench.root)).toBe(false);
  });

  test('ensure() creates the four directories and INDEX.md, keeps existing files, and returns itself', () => {
    const bench = new Workbench(workspace);
    mkdirSync(bench.scripts, { recursive: true });
    writeFileSync(join(bench.scripts, 'keep.sh'), '# desc: mine\n');
    expect(bench.ensure()).toBe(bench);
    expect(readdirSync(bench.root).sort()).toEqual(['INDEX.md', 'artifacts', 'notes', 'scripts', 'spill']);
    expect(readFileSync(join(bench.scripts, 'keep.sh'), 'utf8')).toBe('# desc: mine\n');
    expect(readFileSync(join(bench.root, 'INDEX.md'), 'utf8')).toContain('- `scripts/keep.sh` — mine (13B)');
  });

  test('is external when the root is outside the workspace, by path components', () => {
    expect(new Workbench(workspace, { root: join(dir, '.flower-app') }).external).toBe(true);
    // A sibling whose name merely starts with the workspace's is still outside.
    expect(new Workbench(workspace, { root: `${workspace}-bench` }).external).toBe(true);
    expect(new Workbench(workspace, { root: join(workspace, 'runs', 'workbench') }).external).toBe(false);
  });

  test('refresh() rewrites INDEX.md whole, and leaves an unchanged one untouched', () => {
    const bench = new Workbench(workspace).ensure();
    const index = join(bench.root, 'INDEX.md');
    writeFileSync(index, 'stale\n');
    bench.refresh();
    const text = readFileSync(index, 'utf8');
    expect(text.startsWith('# Workbench index\n')).toBe(true);
    expect(text).toContain('## Artifacts (0)');

    writeFileSync(join(bench.artifacts, 'report.txt'), 'r'.repeat(3000));
    bench.refresh();
    expect(readFileSync(index, 'utf8')).toContain('- `artifacts/report.txt` — (no description) (2.9K)');

    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(index, past, past);
    bench.refresh();
    expect(statSync(index).mtime.getTime()).toBe(past.getTime());
    expect(readdirSync(bench.root).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  test('refresh() creates the root when it is missing', () => {
    const bench = new Workbench(workspace);
    bench.refresh();
    expect(readFileSync(join(bench.root, 'INDEX.md'), 'utf8')).toContain('## Reusable scripts (0)');
  });

  test('display() shows paths inside the workspace relative to it, others absolute', () => {
    const bench = new Workbench(workspace);
    expect(bench.display(join(workspace, '.flower', 'spill', 'a.txt'))).toBe('.flower/spill/a.txt');
    expect(bench.display(workspace)).toBe('.');
    expect(bench.display('notes/x.md')).toBe('notes/x.md');
    expect(bench.display(join(dir, '.flower-app', 'spill', 'a.txt'))).toBe(
      join(dir, '.flower-app', 'spill', 'a.txt'),
    );
    expect(bench.display(`${workspace}-old/file`)).toBe(`${workspace}-old/file`);
  });

  test('handoffPath() strips characters a file name cannot hold', () => {
    const bench = new Workbench(workspace);
    expect(bench.handoffPath('work')).toBe(join(bench.notes, 'handoff-work.md'));
    expect(bench.handoffPath(' a/b\\c:d*e?f"g<h>i|j ')).toBe(join(bench.notes, 'handoff-abcdefghij.md'));
    expect(bench.handoffPath(' /:* ')).toBe(join(bench.notes, 'handoff-step.md'));
    expect(bench.handoffPath('确认需求')).toBe(join(bench.notes, 'handoff-确认需求.md'));
  });

  test('notesFile() gives the English name unless only the Chinese file exists', () => {
    const bench = new Workbench(workspace).ensure();
    expect(bench.notesFile('brief')).toBe(join(bench.notes, 'brief.md'));
    writeFileSync(join(bench.notes, '需求.md'), '# 需求\n');
    writeFileSync(join(bench.notes, '问答记录.md'), '# 需求问答记录\n');
    expect(bench.notesFile('brief')).toBe(join(bench.notes, '需求.md'));
    expect(bench.notesFile('qaLog')).toBe(join(bench.notes, '问答记录.md'));
    expect(bench.notesFile('goal')).toBe(join(bench.notes, 'goal.md'));
    writeFileSync(join(bench.notes, 'brief.md'), '# Brief\n');
    expect(bench.notesFile('brief')).toBe(join(bench.notes, 'brief.md'));
  });

  test('promptBlock() lists what exists, capped at maxIndexEntries per section', () => {
    const bench = new Workbench(workspace, { maxIndexEntries: 2 }).ensure();
    for (const name of ['a', 'b', 'c', 'd'])
      writeFileSync(join(bench.scripts, `${name}.sh`), `# desc: script ${name}\n`);
    const block = bench.promptBlock();
    expect(block).toContain('## Workbench: `.flower/`');
    expect(block).toContain(
      '- `.flower/scripts/a.sh` — script a\n- `.flower/scripts/b.sh` — script b\n- …2 more, list the directory',
    );
    expect(block).not.toContain('c.sh');
    expect(block).toContain('Artifacts in `.flower/artifacts/`: (currently empty)');
    expect(block).not.toContain('outside the repository');
  });

  test('promptBlock() of an external workbench says so and shows absolute paths', () => {
    const root = join(dir, '.flower-app');
    const bench = new Workbench(workspace, { root }).ensure();
    writeFileSync(join(bench.notes, 'decision.md'), '# Use SQLite\n');
    const block = bench.promptBlock();
    expect(block).toContain(`## Workbench: \`${root}/\``);
    expect(block).toContain('outside the repository on purpose');
    expect(block).toContain(`- \`${join(root, 'notes', 'decision.md')}\` — Use SQLite`);
  });
});
