/**
 * Where the big texts sit in each tool's result, and the replacement the Claude Code binary accepts for
 * each (found by running it; re-measured in test/e2e/spill.e2e.test.ts). The binary runs a replaced
 * output through the tool's own formatter, so the replacement must keep the tool's shape: a Bash result
 * given back as a plain string, for instance, is silently ignored and the full output reaches the model.
 *
 * Shapes seen by a PostToolUse hook (Claude Code bundled with SDK 0.3.334):
 * - Bash `{stdout, stderr, interrupted, isImage, noOutputExpected}`; over 30,000 characters the binary keeps
 *   only the first 30,000 in `stdout` and adds `persistedOutputPath` / `persistedOutputSize` (the full text
 *   on disk). While those two keys are present the model is shown the binary's own preview, so they are
 *   dropped when `stdout` is replaced. Stderr arrives merged into `stdout`; a big `stderr` is handled anyway.
 * - Read `{type: 'text', file: {filePath, content, numLines, startLine, totalLines}}`; `image`, `pdf` and
 *   `notebook` results carry base64 data or cell arrays and are left alone.
 * - Grep `{mode: 'content', content, numLines, …}` or `{mode: 'files_with_matches', filenames: [...], …}`.
 * - Glob `{filenames: [...], numFiles, truncated, totalMatches, countIsComplete, durationMs}`; when
 *   `truncated`, its formatter counts the list it is given ("Showing 1 of 120"), so the pointer says it.
 * - WebFetch `{bytes, code, codeText, result, durationMs, url}` (from sdk-tools.d.ts: tests have no network).
 * - MCP tools: the content-block array `[{type: 'text', text}, …]` itself.
 * - Agent (a foreground subagent) `{status, prompt, agentId, content: [{type: 'text', text}], usage, …}`.
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { isRecord } from '../internal/is-record.js';

/** Saves `text` and returns the pointer that replaces it. */
export type Stash = (text: string) => string;

// Past this, the binary's truncated stdout is spilled instead of its saved file: a string must fit in memory.
const MAX_PERSISTED_BYTES = 64 * 1024 * 1024;
const UNCHANGED: unique symbol = Symbol('unchanged');
type Shrunk = unknown;

/**
 * Length in code points (a surrogate pair counts once), the unit of the spill threshold (decisions.md D21).
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/**
 * The output to show the model instead of `response`, with every text of `threshold` code points or more
 * swapped for `stash(text)`; undefined when nothing reached the threshold. `response` is never mutated.
 */
export function shrinkToolResponse(
  toolName: string,
  response: unknown,
  threshold: number,
  stash: Stash,
): unknown {
  const context: ShrinkContext = { threshold, stash };
  const result = shrinkFor(toolName, response, context);
  return result === UNCHANGED ? undefined : result;
}

interface ShrinkContext {
  threshold: number;
  stash: Stash;
}

function shrinkFor(toolName: string, response: unknown, context: ShrinkContext): Shrunk {
  if (toolName.startsWith('mcp__')) {
    return isRecord(response) ? shrinkObject(response, context) : shrinkText(response, context);
  }
  if (!isRecord(response)) return shrinkText(response, context);
  switch (toolName) {
    case 'Bash':
      return shrinkBash(response, context);
    case 'Read':
      return shrinkRead(response, context);
    case 'Grep':
      return shrinkFields(response, ['content', 'filenames'], context);
    case 'Glob':
      return shrinkGlob(response, context);
    case 'WebFetch':
      return shrinkFields(response, ['result'], context);
    case 'Agent':
      // Only the report: `prompt` is the caller's own input, which the model is not shown again.
      return shrinkFields(response, ['content'], context);
    default:
      return shrinkObject(response, context);
  }
}

function shrinkBash(response: Record<string, unknown>, context: ShrinkContext): Shrunk {
  const output: Record<string, unknown> = { ...response };
  let changed = false;
  const stdout = response['stdout'];
  // With isImage the stdout is image data, never text to spill.
  if (typeof stdout === 'string' && response['isImage'] !== true) {
    const full = persistedText(response) ?? stdout;
    if (isLong(full, context.threshold)) {
      output['stdout'] = context.stash(full);
      // The binary shows its own preview instead of `stdout` while these are set (measured).
      delete output['persistedOutputPath'];
      delete output['persistedOutputSize'];
      changed = true;
    }
  }
  const stderr = shrinkText(response['stderr'], context);
  if (stderr !== UNCHANGED) {
    output['stderr'] = stderr;
    changed = true;
  }
  return changed ? output : UNCHANGED;
}

/** The binary's saved copy of an output it truncated, when it is readable and not huge. */
function persistedText(response: Record<string, unknown>): string | null {
  const path = response['persistedOutputPath'];
  if (typeof path !== 'string' || path === '') return null;
  try {
    if (statSync(path).size > MAX_PERSISTED_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function shrinkRead(response: Record<string, unknown>, context: ShrinkContext): Shrunk {
  const file = response['file'];
  if (response['type'] !== 'text' || !isRecord(file)) return UNCHANGED;
  const content = shrinkText(file['content'], context);
  return content === UNCHANGED ? UNCHANGED : { ...response, file: { ...file, content } };
}

/**
 * Glob's formatter appends "(Showing <list length> of <total> matching files; …)" to a truncated result,
 * which with a one-element list would read "Showing 1 of 120". So the result is marked untruncated and the
 * pointer carries the true count instead.
 */
function shrinkGlob(response: Record<string, unknown>, context: ShrinkContext): Shrunk {
  const shrunk = shrinkFields(response, ['filenames'], context);
  if (shrunk === UNCHANGED || response['truncated'] !== true) return shrunk;
  const listed = Array.isArray(response['filenames']) ? response['filenames'].length : 0;
  const total = response['totalMatches'];
  const count =
    typeof total === 'number'
      ? `the first ${listed} of ${response['countIsComplete'] === false ? 'more than ' : ''}${total} matching files`
      : `the first ${listed} matching files`;
  const [pointer] = (shrunk as { filenames: string[] }).filenames;
  return {
    ...(shrunk as Record<string, unknown>),
    filenames: [`${pointer}\n(The list holds ${count}; narrow the pattern or path to see the rest.)`],
    truncated: false,
  };
}

function shrinkFields(
  response: Record<string, unknown>,
  fields: readonly string[],
  context: ShrinkContext,
): Shrunk {
  let output: Record<string, unknown> | null = null;
  for (const field of fields) {
    const value = shrinkText(response[field], context);
    if (value === UNCHANGED) continue;
    output ??= { ...response };
    output[field] = value;
  }
  return output ?? UNCHANGED;
}

/**
 * The generic rule (docs/guards.md) for tools of unknown shape: long string fields, recursively
 * in nested plain objects. Arrays stay untouched here (they may hold images), as does any object carrying
 * `base64` data.
 */
function shrinkObject(value: Record<string, unknown>, context: ShrinkContext): Shrunk {
  if ('base64' in value) return UNCHANGED;
  let output: Record<string, unknown> | null = null;
  for (const [key, field] of Object.entries(value)) {
    const shrunk =
      typeof field === 'string'
        ? shrinkText(field, context)
        : isRecord(field)
          ? shrinkObject(field, context)
          : UNCHANGED;
    if (shrunk === UNCHANGED) continue;
    output ??= { ...value };
    output[key] = shrunk;
  }
  return output ?? UNCHANGED;
}

/**
 * A string, a list of strings (file names, spilled joined by newlines into one pointer element) or a list
 * of content blocks. Anything else is left as it is.
 */
function shrinkText(value: unknown, context: ShrinkContext): Shrunk {
  if (typeof value === 'string') return isLong(value, context.threshold) ? context.stash(value) : UNCHANGED;
  if (!Array.isArray(value) || value.length === 0) return UNCHANGED;
  if (value.every((item) => typeof item === 'string')) {
    const joined = value.join('\n');
    return isLong(joined, context.threshold) ? [context.stash(joined)] : UNCHANGED;
  }
  return shrinkBlocks(value, context);
}

/**
 * Content blocks: when they are all text, their texts joined by newlines (the reference joined them with
 * nothing, gluing lines together) become one pointer block; when images or other blocks are among them,
 * only each long text block is replaced, and the rest stays exactly as it was.
 */
function shrinkBlocks(blocks: readonly unknown[], context: ShrinkContext): Shrunk {
  if (blocks.every(isTextBlock)) {
    const joined = blocks.map((block) => block.text).join('\n');
    if (!isLong(joined, context.threshold)) return UNCHANGED;
    return [{ type: 'text', text: context.stash(joined) }];
  }
  let changed = false;
  const output = blocks.map((block) => {
    if (!isTextBlock(block) || !isLong(block.text, context.threshold)) return block;
    changed = true;
    return { ...block, text: context.stash(block.text) };
  });
  return changed ? output : UNCHANGED;
}

function isLong(text: string, threshold: number): boolean {
  // Code points never outnumber UTF-16 units, so most texts are settled without counting.
  return text.length >= threshold && codePointLength(text) >= threshold;
}

function isTextBlock(value: unknown): value is { type: 'text'; text: string } {
  return isRecord(value) && value['type'] === 'text' && typeof value['text'] === 'string';
}
