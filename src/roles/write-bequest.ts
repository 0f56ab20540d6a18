/**
 * Writes a bequest into the workspace's `CLAUDE.md` and `AGENTS.md` (docs/go-path.md), inside a
 * block flower manages, so Claude Code and Codex both load it and the user's own text around it survives.
 *
 * @module
 */
import {
  chmodSync,
  existsSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { BEQUEST_BEGIN, BEQUEST_END, managedBlock, type Bequest } from './bequest.js';

/** The files the bequest goes into: Claude Code reads the first, Codex and others the second. */
export const BEQUEST_FILES = ['CLAUDE.md', 'AGENTS.md'] as const;

/**
 * Writes `bequest` into `CLAUDE.md` and `AGENTS.md` in `workspace` and returns their paths. In each file:
 * - no file: it is created holding only the block;
 * - exactly one begin marker followed by one end marker: the block between them is replaced, so writing the
 *   same bequest again leaves the file byte for byte as it was;
 * - anything else (no markers, one missing, several, reversed): the block is appended at the end. User text
 *   is never deleted, even when that leaves an old, broken block in place.
 *
 * A file whose content would not change is not rewritten. A symbolic link (`AGENTS.md` → `CLAUDE.md` is
 * common) is written through, never replaced by a plain file. Throws when a file cannot be read or written.
 */
export function writeBequest(workspace: string, bequest: Bequest): string[] {
  const block = `${BEQUEST_BEGIN}\n${bequest.toMarkdown().trimEnd()}\n${BEQUEST_END}`;
  return BEQUEST_FILES.map((name) => {
    const path = join(workspace, name);
    const target = existsSync(path) ? realpathSync(path) : path;
    const before = existsSync(target) ? readFileSync(target, 'utf8') : null;
    const after = withBlock(before, block);
    if (after !== before) writeAtomically(target, after);
    return path;
  });
}

/** `text` with `block` in place of its managed block, or appended to it; the block alone for a new file. */
function withBlock(text: string | null, block: string): string {
  if (text === null || text.trim() === '') return `${block}\n`;
  const current = managedBlock(text);
  if (current !== null) return `${text.slice(0, current.start)}${block}${text.slice(current.end)}`;
  const separator = text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${separator}${block}\n`;
}

/** Temp file and rename, so a crash never leaves a half-written CLAUDE.md behind; the file's mode is kept. */
function writeAtomically(path: string, text: string): void {
  const temporary = join(dirname(path), `.${process.pid}.${Date.now()}.flower-bequest.tmp`);
  try {
    writeFileSync(temporary, text, 'utf8');
    if (existsSync(path)) chmodSync(temporary, statSync(path).mode);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
