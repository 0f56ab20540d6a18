/**
 * The one-line description of a workbench file shown in INDEX.md and the workbench block
 * (docs/workbench.md): a `desc:` comment near the top, else the first meaningful comment.
 *
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Lines searched for a description. */
const SEARCHED_LINES = 8;
/** Longest description kept, in code points. */
export const MAX_DESCRIPTION_LENGTH = 100;
// Eight lines of any sane script fit in this; a minified one-liner is cut, which is fine for a description.
const READ_BYTES = 8192;

// `# desc: …`, `// DESC：…`, `-- desc: …`, with optional spaces anywhere between the parts.
const DESC_LINE = /^\s*(?:#|\/\/|--)\s*desc\s*[:：]\s*(.*?)\s*$/i;
const COMMENT_LINE = /^\s*(?:#|\/\/|--|\/\*+|\*)\s*(.*?)\s*(?:\*+\/)?\s*$/;
const DOCSTRING_OPENER = /^\s*[rRuUbB]?("""|''')\s*(.*?)\s*(?:\1)?\s*$/;

/**
 * Finds the description of a file's `head` text: within the first 8 lines, a `desc:` comment (`#`, `//` or
 * `--`, any case, ASCII or full-width colon); else the first comment line longer than 3 characters with its
 * markers stripped, or the text on a docstring opener. A shebang is not a description. Null when none.
 */
export function describeText(head: string): string | null {
  const lines = head.split(/\r\n|\r|\n/, SEARCHED_LINES);
  for (const line of lines) {
    const match = DESC_LINE.exec(line);
    if (match?.[1] !== undefined && match[1] !== '') return clip(match[1]);
  }
  for (const line of lines) {
    if (line.trimStart().startsWith('#!')) continue;
    const docstring = DOCSTRING_OPENER.exec(line)?.[2];
    if (docstring !== undefined && docstring.length > 3) return clip(docstring);
    const comment = COMMENT_LINE.exec(line)?.[1]?.replace(/^[#/*-]+\s*/, '');
    if (comment !== undefined && comment.length > 3) return clip(comment);
  }
  return null;
}

/**
 * The description of the file at `path` ({@link describeText} of its first bytes). Null when it has none,
 * looks binary, or cannot be read: the index must never fail because of one odd file.
 */
export function scriptDescription(path: string): string | null {
  let descriptor: number | null = null;
  try {
    descriptor = openSync(path, 'r');
    const buffer = Buffer.alloc(READ_BYTES);
    const length = readSync(descriptor, buffer, 0, READ_BYTES, 0);
    const bytes = buffer.subarray(0, length);
    if (bytes.includes(0)) return null;
    return describeText(bytes.toString('utf8'));
  } catch {
    return null;
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}

function clip(text: string): string {
  const points = Array.from(text);
  if (points.length <= MAX_DESCRIPTION_LENGTH) return text;
  return `${points.slice(0, MAX_DESCRIPTION_LENGTH - 1).join('')}…`;
}
