import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BEQUEST_BEGIN, BEQUEST_END, Bequest } from './bequest.js';
import { writeBequest } from './write-bequest.js';

const FIRST = new Bequest({ what: 'A date CLI.', workbench: 'Read .flower/notes first.' });
const SECOND = new Bequest({ what: 'A date CLI, now with --utc.', workbench: 'Read .flower/notes first.' });

function block(bequest: Bequest): string {
  return `${BEQUEST_BEGIN}\n${bequest.toMarkdown().trimEnd()}\n${BEQUEST_END}`;
}

describe('writeBequest', () => {
  let workspace: string;
  const read = (name: string): string => readFileSync(join(workspace, name), 'utf8');

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'flower-write-bequest-'));
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  test('creates both files holding only the block and returns their paths', () => {
    const paths = writeBequest(workspace, FIRST);
    expect(paths).toEqual([join(workspace, 'CLAUDE.md'), join(workspace, 'AGENTS.md')]);
    expect(read('CLAUDE.md')).toBe(`${block(FIRST)}\n`);
    expect(read('AGENTS.md')).toBe(`${block(FIRST)}\n`);
    expect(readdirSync(workspace).sort()).toEqual(['AGENTS.md', 'CLAUDE.md']);
  });

  test('leaves a file byte for byte the same when the same bequest is written again', () => {
    writeFileSync(join(workspace, 'CLAUDE.md'), '# My project\n\nUse pnpm.\n');
    writeBequest(workspace, FIRST);
    const once = read('CLAUDE.md');
    const inode = statSync(join(workspace, 'CLAUDE.md')).ino;
    writeBequest(workspace, FIRST);
    expect(read('CLAUDE.md')).toBe(once);
    // Not rewritten at all: the same file, not a renamed copy.
    expect(statSync(join(workspace, 'CLAUDE.md')).ino).toBe(inode);
  });

  test.each([
    {
      name: 'text before and after the block',
      before: (old: string) => `# My project\n\nUse pnpm.\n\n${old}\n\n## More of mine\nKeep me.\n`,
    },
    { name: 'the block alone', before: (old: string) => `${old}\n` },
    {
      name: 'a begin marker with a different note',
      before: () => '# Mine\n<!-- flower:begin an older note -->\nold body\n<!-- flower:end -->\ntail\n',
    },
  ])('replaces only the inside of one ordered pair: $name', ({ before }) => {
    const original = before(block(FIRST));
    writeFileSync(join(workspace, 'CLAUDE.md'), original);
    writeBequest(workspace, SECOND);
    const text = read('CLAUDE.md');
    const start = original.indexOf('<!-- flower:begin');
    const end = original.indexOf(BEQUEST_END) + BEQUEST_END.length;
    expect(text).toBe(`${original.slice(0, start)}${block(SECOND)}${original.slice(end)}`);
  });

  test.each([
    { name: 'no markers', original: '# Mine\n\nUse pnpm.\n' },
    { name: 'no trailing newline', original: '# Mine' },
    { name: 'a begin marker without an end', original: `# Mine\n${BEQUEST_BEGIN}\nhalf a block\n` },
    { name: 'an end marker without a begin', original: `# Mine\n${BEQUEST_END}\n` },
    { name: 'reversed markers', original: `${BEQUEST_END}\nmine\n${BEQUEST_BEGIN}\n` },
    { name: 'two pairs', original: `${block(FIRST)}\nmine\n${block(FIRST)}\n` },
  ])('appends the block and keeps every byte of user text when there is $name', ({ original }) => {
    writeFileSync(join(workspace, 'AGENTS.md'), original);
    writeBequest(workspace, SECOND);
    const text = read('AGENTS.md');
    expect(text.startsWith(original)).toBe(true);
    expect(text.endsWith(`\n\n${block(SECOND)}\n`)).toBe(true);
    expect(text.slice(original.length).trim()).toBe(block(SECOND));
  });

  test('writes through a symbolic link instead of replacing it', () => {
    writeFileSync(join(workspace, 'CLAUDE.md'), '# Shared\n');
    symlinkSync('CLAUDE.md', join(workspace, 'AGENTS.md'));
    writeBequest(workspace, FIRST);
    expect(lstatSync(join(workspace, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(read('CLAUDE.md')).toBe(`# Shared\n\n${block(FIRST)}\n`);
  });

  test('writes into the target of a symbolic link that points elsewhere, keeping the link', () => {
    mkdirSync(join(workspace, 'docs'));
    writeFileSync(join(workspace, 'docs', 'agents.md'), '# Agents\n');
    symlinkSync(join('docs', 'agents.md'), join(workspace, 'AGENTS.md'));
    writeBequest(workspace, FIRST);
    expect(lstatSync(join(workspace, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(workspace, 'docs', 'agents.md'), 'utf8')).toBe(`# Agents\n\n${block(FIRST)}\n`);
  });

  test('keeps the mode of an existing file and leaves no temporary file behind', () => {
    const path = join(workspace, 'CLAUDE.md');
    writeFileSync(path, 'mine\n', { mode: 0o600 });
    writeBequest(workspace, FIRST);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(workspace).sort()).toEqual(['AGENTS.md', 'CLAUDE.md']);
  });

  test('throws when the workspace does not exist', () => {
    expect(() => writeBequest(join(workspace, 'absent'), FIRST)).toThrow(/ENOENT/);
  });
});
