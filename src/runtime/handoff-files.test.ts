import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  handoffBaseName,
  handoffEdited,
  handoffFileName,
  handoffSafeName,
  loadHandoff,
  saveHandoff,
} from './handoff-files.js';

let root: string;
let notes: string;
let archive: string;
const at = new Date(2025, 2, 4, 5, 6, 7);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-handoff-files-'));
  notes = join(root, '.flower', 'notes');
  archive = join(notes, 'archive', 'handoff');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('handoffSafeName', () => {
  test.each([
    ['work', 'work'],
    ['work#round2', 'work'],
    ['work#retry1', 'work'],
    ['work/verdict#3', 'work'],
    ['work#round2/verdict#1', 'work'],
    ['干活·判定#2', '干活'],
    ['build: step "1" <a|b>?', 'build step 1 ab'],
    ['a/b\\c', 'abc'],
    ['  spaced  ', 'spaced'],
    ['/:*?', 'step'],
    ['', 'step'],
    ['work#roundup', 'work#roundup'],
  ])('turns %j into %j', (step, safe) => {
    expect(handoffSafeName(step)).toBe(safe);
  });

  test('keeps the base name unsanitised and names the file after the safe one', () => {
    expect(handoffBaseName('a/b#retry2')).toBe('a/b');
    expect(handoffFileName('work#round4')).toBe('handoff-work.md');
  });
});

describe('saveHandoff', () => {
  test('writes notes/handoff-<step>.md and returns its hash', () => {
    const saved = saveHandoff(notes, 'work#round2', '# Handoff\n\n## Doing\nstep 3 of 5\n', { now: at });
    expect(saved).toEqual({
      path: join(notes, 'handoff-work.md'),
      sha256: sha('# Handoff\n\n## Doing\nstep 3 of 5\n'),
      archived: [],
    });
    expect(readFileSync(saved.path, 'utf8')).toBe('# Handoff\n\n## Doing\nstep 3 of 5\n');
    expect(readdirSync(notes)).toEqual(['handoff-work.md']);
  });

  test('moves the previous document to the archive with a timestamp, never overwriting one', () => {
    saveHandoff(notes, 'work', 'generation 1', { now: at });
    const second = saveHandoff(notes, 'work', 'generation 2', { now: at });
    const third = saveHandoff(notes, 'work#retry1', 'generation 3', { now: at });
    const fourth = saveHandoff(notes, 'work', 'generation 4', { now: at });
    expect(second.archived).toEqual([join(archive, 'work-20250304-050607.md')]);
    expect(third.archived).toEqual([join(archive, 'work-20250304-050607-1.md')]);
    expect(fourth.archived).toEqual([join(archive, 'work-20250304-050607-2.md')]);
    expect(readFileSync(join(archive, 'work-20250304-050607.md'), 'utf8')).toBe('generation 1');
    expect(readFileSync(join(archive, 'work-20250304-050607-1.md'), 'utf8')).toBe('generation 2');
    expect(readFileSync(join(archive, 'work-20250304-050607-2.md'), 'utf8')).toBe('generation 3');
    expect(readFileSync(join(notes, 'handoff-work.md'), 'utf8')).toBe('generation 4');
    const later = saveHandoff(notes, 'work', 'generation 5', { now: new Date(2025, 2, 4, 5, 6, 8) });
    expect(later.archived).toEqual([join(archive, 'work-20250304-050608.md')]);
  });

  test('keeps the documents of different steps apart', () => {
    saveHandoff(notes, 'work', 'work doc', { now: at });
    saveHandoff(notes, 'review', 'review doc', { now: at });
    expect(loadHandoff(notes, 'work')?.text).toBe('work doc');
    expect(loadHandoff(notes, 'review')?.text).toBe('review doc');
    expect(existsSync(archive)).toBe(false);
  });

  test("archives the Python flower's Chinese document when writing the English one", () => {
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, '交接-干活.md'), '旧交接');
    const saved = saveHandoff(notes, 'work', 'new', { now: at });
    expect(saved.archived).toEqual([join(archive, 'work-20250304-050607.md')]);
    expect(readFileSync(saved.archived[0] ?? '', 'utf8')).toBe('旧交接');
    expect(readdirSync(notes).sort()).toEqual(['archive', 'handoff-work.md']);
  });

  test('leaves the previous document in place when it cannot be archived', () => {
    saveHandoff(notes, 'work', 'generation 1', { now: at });
    // A file where the archive folder should be: works as root too, unlike a read-only folder.
    writeFileSync(join(notes, 'archive'), 'in the way');
    expect(() => saveHandoff(notes, 'work', 'generation 2', { now: at })).toThrow(/EEXIST|ENOTDIR/);
    expect(readFileSync(join(notes, 'handoff-work.md'), 'utf8')).toBe('generation 1');
    expect(readdirSync(notes).sort()).toEqual(['archive', 'handoff-work.md']);
  });
});

describe('loadHandoff', () => {
  test('returns null when the step has no document', () => {
    expect(loadHandoff(notes, 'work')).toBeNull();
  });

  test('reads the English document first', () => {
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, '交接-work.md'), '中文');
    writeFileSync(join(notes, 'handoff-work.md'), 'english');
    expect(loadHandoff(notes, 'work#round3')).toEqual({
      path: join(notes, 'handoff-work.md'),
      text: 'english',
      sha256: sha('english'),
    });
  });

  test('falls back to the Chinese name, also under the built-in step names', () => {
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, '交接-review.md'), '审查交接');
    writeFileSync(join(notes, '交接-干活.md'), '干活交接');
    expect(loadHandoff(notes, 'review')?.text).toBe('审查交接');
    expect(loadHandoff(notes, 'work')).toEqual({
      path: join(notes, '交接-干活.md'),
      text: '干活交接',
      sha256: sha('干活交接'),
    });
    expect(loadHandoff(notes, '干活')?.text).toBe('干活交接');
  });
});

describe('handoffEdited', () => {
  test('tells a human edit from the document as written', () => {
    const saved = saveHandoff(notes, 'work', '## Next\nrun the tests\n', { now: at });
    expect(handoffEdited(saved.path, saved.sha256)).toBe(false);
    expect(handoffEdited(saved.path, saved.sha256.toUpperCase())).toBe(false);
    writeFileSync(saved.path, '## Next\nrun the tests, then fix the parser first\n');
    expect(handoffEdited(saved.path, saved.sha256)).toBe(true);
  });

  test('does not count a missing document as an edit', () => {
    expect(handoffEdited(join(notes, 'handoff-gone.md'), sha('x'))).toBe(false);
  });
});
