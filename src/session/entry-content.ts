/**
 * Reading and copy-on-write editing of transcript entries, shared by the load-pipeline transforms
 * (expire, trim, prune, healOrphans, the validator). Entries are the SDK's opaque JSON objects; nothing here
 * mutates one: an edit returns a shallow copy along the changed path, so the stored transcript and every
 * entry the caller still holds stay as they were.
 *
 * @module
 */
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { isRecord } from '../internal/is-record.js';

/** One transcript entry as the SDK mirrors it to a session store (opaque JSON with `type`, maybe `uuid`). */
export type Entry = SessionStoreEntry;

/** A content block of a message (`text`, `thinking`, `tool_use`, `tool_result`, `image`, …). */
export type ContentBlock = Record<string, unknown> & { type?: unknown };

/** The entry's `message` object, if it has one. */
export function messageOf(entry: Entry): Record<string, unknown> | null {
  const message = entry['message'];
  return isRecord(message) ? message : null;
}

/** The entry's content blocks when `message.content` is an array (a string content has no blocks). */
export function blocksOf(entry: Entry): readonly ContentBlock[] | null {
  const content = messageOf(entry)?.['content'];
  return Array.isArray(content) ? (content as ContentBlock[]) : null;
}

/** The entry's `uuid`, or `null` for uuid-less entries (titles, tags, mode markers, cost states). */
export function uuidOf(entry: Entry): string | null {
  return typeof entry.uuid === 'string' && entry.uuid !== '' ? entry.uuid : null;
}

/** The entry's `parentUuid`, or `null` at a root or when absent. */
export function parentOf(entry: Entry): string | null {
  const parent = entry['parentUuid'];
  return typeof parent === 'string' && parent !== '' ? parent : null;
}

/**
 * Protected entries are never rewritten by expire, trim or prune: compact summaries and meta entries are
 * the only surviving form of compacted history (structural red line 2).
 */
export function isProtected(entry: Entry): boolean {
  return Boolean(entry['isCompactSummary']) || Boolean(entry['isMeta']);
}

/** True for a conversation entry (`user` or `assistant`), the only kinds that become API messages. */
export function isChatEntry(entry: Entry): boolean {
  return entry.type === 'user' || entry.type === 'assistant';
}

/** True for a `tool_use` block with a string id. */
export function isToolUse(block: ContentBlock): block is ContentBlock & { id: string } {
  return block.type === 'tool_use' && typeof block['id'] === 'string';
}

/** True for a `tool_result` block with a string `tool_use_id`. */
export function isToolResult(block: ContentBlock): block is ContentBlock & { tool_use_id: string } {
  return block.type === 'tool_result' && typeof block['tool_use_id'] === 'string';
}

/**
 * The text of a tool result's `content`: a string is itself; an array is its `text` blocks joined with a
 * newline, or `null` when it holds an image or document (those are never touched) or no text at all.
 * Anything else is `null`. Only text results are expired or trimmed.
 */
export function resultText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'image' || block['type'] === 'document') return null;
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
  }
  // A newline between blocks: the reference glued them together (decisions.md D415).
  return texts.length > 0 ? texts.join('\n') : null;
}

/**
 * The UTF-16 length {@link resultText} would return, without building the joined string: `null` where it
 * returns `null`. Lets the transforms skip small results without allocating.
 */
export function resultTextLength(content: unknown): number | null {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return null;
  let length = 0;
  let texts = 0;
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'image' || block['type'] === 'document') return null;
    if (block['type'] === 'text' && typeof block['text'] === 'string') {
      length += block['text'].length;
      texts += 1;
    }
  }
  return texts > 0 ? length + texts - 1 : null;
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Length in code points, the unit the reference (Python) counts in; JavaScript's `.length` counts UTF-16
 * units and would call an emoji two characters (decisions.md D405).
 */
export function codePointLength(text: string): number {
  // The regex engine scans a 20 MB transcript's results several times faster than a charCodeAt loop.
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** Cuts `text` to at most `max` code points without splitting a surrogate pair. */
export function headByCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let taken = 0;
  let index = 0;
  while (index < text.length && taken < max) {
    const unit = text.charCodeAt(index);
    index += unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length ? 2 : 1;
    taken += 1;
  }
  return text.slice(0, index);
}

/**
 * Maps the id of every `Bash` tool_use to its `input.command`. A tool result carries only `tool_use_id`, so
 * this is how expiry learns which command produced it.
 */
export function bashCommands(entries: readonly Entry[]): Map<string, string> {
  const commands = new Map<string, string>();
  // Indexed loops here and in the other per-load passes: no iterator objects on a 10,000-entry transcript.
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    if (entry.type !== 'assistant') continue;
    const blocks = blocksOf(entry) ?? [];
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1) {
      const block = blocks[blockIndex] as ContentBlock;
      if (!isToolUse(block) || block['name'] !== 'Bash') continue;
      const input = block['input'];
      const command = isRecord(input) ? input['command'] : undefined;
      if (typeof command === 'string') commands.set(block.id, command);
    }
  }
  return commands;
}

/** Returns a copy of `entry` whose `message.content` is `blocks`; `entry` itself is left as it was. */
export function withBlocks(entry: Entry, blocks: ContentBlock[]): Entry {
  // A copy, then one assignment: the same object as `{ ...entry, message }`, but V8 builds a spread with a
  // property after it several times slower on the load path, where trim copies thousands of entries
  // (docs/decisions.md D462).
  const message: Record<string, unknown> = { ...(messageOf(entry) ?? {}) };
  message['content'] = blocks;
  const copy: Entry = { ...entry };
  copy['message'] = message;
  return copy;
}

/**
 * Returns a copy of `entry` in which the tool_result blocks at the given indexes have their `content`
 * replaced by the given strings (block and `tool_use_id` kept: structural red line 1).
 */
export function withResultContents(entry: Entry, replacements: ReadonlyMap<number, string>): Entry {
  const blocks = blocksOf(entry);
  if (blocks === null || replacements.size === 0) return entry;
  // The blocks copied once and the few replaced ones assigned: no callback per block
  // (docs/decisions.md D462).
  const copy = blocks.slice();
  for (const [index, content] of replacements) {
    // Only blocks that are there (`map` skipped holes and indexes past the end).
    if (!(index in copy)) continue;
    const block: ContentBlock = { ...copy[index] };
    block['content'] = content;
    copy[index] = block;
  }
  return withBlocks(entry, copy);
}

/**
 * A copy of `entries` in which the tool_result blocks named in `replacements` (entry index → block index →
 * new content) are replaced; every other entry is the same object. A copied array plus a few assignments:
 * no callback per entry on a transcript of thousands.
 */
export function replaced(
  entries: readonly Entry[],
  replacements: ReadonlyMap<number, ReadonlyMap<number, string>>,
): Entry[] {
  const out = entries.slice();
  for (const [index, forEntry] of replacements) {
    out[index] = withResultContents(out[index] as Entry, forEntry);
  }
  return out;
}

/** Fills `{name}` slots of a template; unknown slots are left as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) => {
    const value = values[name];
    return value === undefined ? slot : String(value);
  });
}

/**
 * {@link fillTemplate} of `template` as a function of the values, the template split once: a load fills
 * the same pointer template for thousands of results, and a regex replace with a callback per result cost
 * more than the rest of writing the pointer. Same output as `fillTemplate(template, values)`.
 */
export function templateFiller(
  template: string,
): (values: Readonly<Record<string, string | number>>) => string {
  // A split on a capturing pattern alternates literal text and slot names: literal, name, literal, …, literal.
  const parts = template.split(/\{(\w+)\}/);
  return (values) => {
    let text = parts[0] as string;
    for (let part = 1; part < parts.length; part += 2) {
      const name = parts[part] as string;
      const value = values[name];
      text += value === undefined ? `{${name}}` : String(value);
      text += parts[part + 1] as string;
    }
    return text;
  };
}
