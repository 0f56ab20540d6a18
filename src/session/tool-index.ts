/**
 * One walk over a loaded transcript that the expire and trim layers share. A resume runs each layer once
 * in a fresh process, before V8 has optimised anything, so every extra walk over every block of a
 * 10,000-entry transcript costs its full interpreted price; with this index expire and trim visit only the
 * tool blocks.
 *
 * @module
 */
import {
  blocksOf,
  isProtected,
  isToolResult,
  isToolUse,
  messageOf,
  resultTextLength,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import { isRecord } from '../internal/is-record.js';

/** Where one tool_result block sits, with the length of its text as indexed. */
export interface ResultSite {
  entryIndex: number;
  blockIndex: number;
  toolUseId: string;
  /** {@link resultTextLength} of the block's content in the indexed entry (`null`: no text, or an image). */
  length: number | null;
}

/** A model reply with calls left unanswered before the next reply. */
export interface UnansweredReply {
  /** Index of the reply's last entry, or of the last result answering it. */
  tail: number;
  /** Unanswered tool_use ids with the index of the assistant entry holding each. */
  calls: Array<[string, number]>;
}

/** What the layers need to know about a transcript's tool blocks. */
export interface ToolIndex {
  /** The entries indexed: a layer re-reads a block whose entry is no longer this very object. */
  entries: readonly Entry[];
  /** `input.command` of every `Bash` tool_use, by its id (a result carries only the id). */
  bashCommands: Map<string, string>;
  /** Every tool_result block of an unprotected `user` entry, in transcript order. */
  results: ResultSite[];
  /** Positions of `assistant` entries, ascending, with the key of the reply each belongs to. */
  assistants: number[];
  /** `message.id` of each of {@link ToolIndex.assistants}, or `#<position>` when it has none. */
  replyKeys: string[];
  /** Positions of assistant entries that may be synthetic API errors (`isApiErrorMessage` or `<synthetic>`). */
  apiErrors: number[];
  /** Positions of unprotected `user` entries marked `toolDenialKind`. */
  denials: number[];
  /** The id of every tool_use block of an `assistant` entry, in transcript order. */
  calls: string[];
  /** The position of the entry holding each of {@link ToolIndex.calls}. */
  callPositions: number[];
  /**
   * Positions of the entries whose tool blocks are not all in {@link ToolIndex.calls} and
   * {@link ToolIndex.results}: entries of other types, protected `user` entries, and `user` or `assistant`
   * entries holding a block of the other side's kind. With those three lists a layer looking for the entries
   * that hold given tool ids need not read every entry.
   */
  others: number[];
  /**
   * The replies with calls no result answers before the next reply, as healing finds them (`heal-orphans.ts`),
   * found in the same walk: a transcript prune removes nothing from needs no walk of its own to heal.
   */
  unanswered: UnansweredReply[];
}

/**
 * Indexes `entries` in one walk. Valid for any later array of the same length whose entries differ from
 * these only in tool_result contents (what expire and trim produce): a layer reading a site checks whether
 * the entry is still the indexed object and re-reads the block when it is not.
 */
export function indexTools(entries: readonly Entry[]): ToolIndex {
  const bashCommands = new Map<string, string>();
  const results: ResultSite[] = [];
  const assistants: number[] = [];
  const replyKeys: string[] = [];
  const apiErrors: number[] = [];
  const denials: number[] = [];
  const calls: string[] = [];
  const callPositions: number[] = [];
  const others: number[] = [];
  const unanswered: UnansweredReply[] = [];
  // The calls of the current reply not answered yet, and where that reply ends (healing's rule).
  const pending = new Map<string, number>();
  let replyKey: string | null = null;
  let tail = -1;
  for (let entryIndex = 0; entryIndex < entries.length; entryIndex += 1) {
    const entry = entries[entryIndex] as Entry;
    const type = entry.type;
    if (type === 'assistant') {
      const message = messageOf(entry);
      const id = message?.['id'];
      const key = typeof id === 'string' ? id : `#${entryIndex}`;
      assistants.push(entryIndex);
      replyKeys.push(key);
      if (key !== replyKey) {
        if (pending.size > 0) unanswered.push({ tail, calls: [...pending] });
        pending.clear();
        replyKey = key;
      }
      tail = entryIndex;
      // The same test as prune's isApiError, which looks at these again.
      if (Boolean(entry['isApiErrorMessage']) || message?.['model'] === '<synthetic>') {
        apiErrors.push(entryIndex);
      }
      const content = message?.['content'];
      if (!Array.isArray(content)) continue;
      const blocks = content as ContentBlock[];
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1) {
        const block = blocks[blockIndex] as ContentBlock;
        if (!isToolUse(block)) {
          if (isToolResult(block) && others[others.length - 1] !== entryIndex) others.push(entryIndex);
          continue;
        }
        pending.set(block.id, entryIndex);
        calls.push(block.id);
        callPositions.push(entryIndex);
        if (block['name'] !== 'Bash') continue;
        const input = block['input'];
        const command = isRecord(input) ? input['command'] : undefined;
        if (typeof command === 'string') bashCommands.set(block.id, command);
      }
      continue;
    }
    if (type !== 'user') {
      others.push(entryIndex);
      continue;
    }
    if (isProtected(entry)) {
      others.push(entryIndex);
      // Not a site for the layers, but its results still answer calls.
      if (replyKey !== null && pending.size > 0) {
        for (const block of blocksOf(entry) ?? []) {
          if (isToolResult(block) && pending.delete(block.tool_use_id)) tail = entryIndex;
        }
      }
      continue;
    }
    if (entry['toolDenialKind'] !== undefined) denials.push(entryIndex);
    const blocks = blocksOf(entry);
    if (blocks === null) continue;
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1) {
      const block = blocks[blockIndex] as ContentBlock;
      if (!isToolResult(block)) {
        if (isToolUse(block) && others[others.length - 1] !== entryIndex) others.push(entryIndex);
        continue;
      }
      if (replyKey !== null && pending.delete(block.tool_use_id)) tail = entryIndex;
      results.push({
        entryIndex,
        blockIndex,
        toolUseId: block.tool_use_id,
        length: resultTextLength(block['content']),
      });
    }
  }
  if (pending.size > 0) unanswered.push({ tail, calls: [...pending] });
  return {
    entries,
    bashCommands,
    results,
    assistants,
    replyKeys,
    apiErrors,
    denials,
    calls,
    callPositions,
    others,
    unanswered,
  };
}

/**
 * The block at `site` in `entries` and its text length now: the indexed length when the entry is the one
 * indexed, else read again (an earlier layer rewrote it). `null` when the block is no longer a tool result.
 */
export function siteNow(
  index: ToolIndex,
  entries: readonly Entry[],
  site: ResultSite,
): { block: ContentBlock & { tool_use_id: string }; length: number | null } | null {
  const entry = entries[site.entryIndex] as Entry;
  const block = blocksOf(entry)?.[site.blockIndex];
  if (block === undefined || !isToolResult(block)) return null;
  if (entry === index.entries[site.entryIndex]) return { block, length: site.length };
  return { block, length: resultTextLength(block['content']) };
}
