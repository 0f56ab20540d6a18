/**
 * The repair of tool results out of place in a transcript `flower doctor --fix` copies: a second answer, an
 * answer to no call and an empty message are dropped; an answer away from its call is taken out, and put
 * back right after its call once the heal has answered every call.
 *
 * @module
 */
import {
  blocksOf,
  isChatEntry,
  isToolResult,
  isToolUse,
  messageOf,
  uuidOf,
  withBlocks,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import { isApiError } from './prune.js';
import { relink } from './relink.js';
import type { Log } from './repair.js';

/**
 * Drops a second answer to one call, a result that answers no call of the reply before it and an empty
 * message; a result whose call is elsewhere in the transcript is kept in `moved` to answer that call later.
 * Dropped entries are re-linked with {@link relink}.
 */
export function dropMisplaced(
  entries: readonly Entry[],
  moved: Map<string, ContentBlock>,
  log: Log,
): Entry[] {
  const calls = new Set<string>();
  for (const entry of entries) {
    if (entry.type === 'assistant')
      for (const block of blocksOf(entry) ?? []) if (isToolUse(block)) calls.add(block.id);
  }
  const drop = new Set<string>();
  const out: Entry[] = [];
  const answered = new Set<string>();
  let replyKey: string | null = null;
  let replyCalls = new Set<string>();
  entries.forEach((entry, index) => {
    if (isChatEntry(entry) && !isApiError(entry) && isEmpty(entry)) {
      log('dropped-empty-message', entry, `entry ${index}: ${entry.type} message with empty content`);
      dropEntry(entry, drop);
      return;
    }
    if (entry.type === 'assistant') {
      const id = messageOf(entry)?.['id'];
      const key = typeof id === 'string' ? id : `#${index}`;
      if (key !== replyKey) {
        replyKey = key;
        replyCalls = new Set();
      }
      for (const block of blocksOf(entry) ?? []) if (isToolUse(block)) replyCalls.add(block.id);
      out.push(entry);
      return;
    }
    const blocks = entry.type === 'user' ? blocksOf(entry) : null;
    if (blocks === null || !blocks.some(isToolResult)) {
      out.push(entry);
      return;
    }
    const kept = blocks.filter((block) => {
      if (!isToolResult(block)) return true;
      const id = block.tool_use_id;
      if (answered.has(id)) {
        log('dropped-duplicate-result', entry, `entry ${index}: a second result for ${id}`);
        return false;
      }
      if (replyCalls.has(id)) {
        answered.add(id);
        // A result in its place wins over an earlier one out of place (taken to be moved).
        if (moved.delete(id))
          log('dropped-duplicate-result', entry, `an earlier result for ${id} out of place`);
        return true;
      }
      if (calls.has(id) && !moved.has(id)) {
        moved.set(id, block);
        return false;
      }
      if (moved.has(id)) {
        log('dropped-duplicate-result', entry, `entry ${index}: a second result for ${id}`);
        return false;
      }
      log(
        'dropped-orphan-result',
        entry,
        `entry ${index}: result for ${id}, a call this transcript does not hold`,
      );
      return false;
    });
    if (kept.length === blocks.length) out.push(entry);
    else if (kept.length > 0) out.push(withBlocks(entry, kept));
    else dropEntry(entry, drop);
  });
  return drop.size > 0
    ? relink(out.concat(entries.filter((entry) => drop.has(uuidOf(entry) ?? ''))), drop)
    : out;
}

function isEmpty(entry: Entry): boolean {
  const content = messageOf(entry)?.['content'];
  return content === '' || (Array.isArray(content) && content.length === 0);
}

/** Marks `entry` for {@link relink}; an entry without a uuid has no children to re-link. */
function dropEntry(entry: Entry, drop: Set<string>): void {
  const uuid = uuidOf(entry);
  if (uuid !== null) drop.add(uuid);
}

/**
 * Puts each result {@link dropMisplaced} took away in place of the "unknown" answer the heal gave its call,
 * and logs the calls that really had no result.
 */
export function placeMoved(
  entries: readonly Entry[],
  before: ReadonlySet<string | null>,
  moved: ReadonlyMap<string, ContentBlock>,
  log: Log,
): Entry[] {
  return entries.map((entry) => {
    // Only the entries the heal added (a re-pointed copy keeps its uuid): every block of theirs is its answer.
    if (entry.type !== 'user' || before.has(uuidOf(entry))) return entry;
    const blocks = blocksOf(entry) ?? [];
    const next = blocks.map((block) => {
      if (!isToolResult(block)) return block;
      const original = moved.get(block.tool_use_id);
      if (original === undefined) {
        log('answered-unknown-outcome', entry, `tool_use ${block.tool_use_id} had no result`);
        return block;
      }
      log('moved-result', entry, `the result for ${block.tool_use_id} now follows its call`);
      return { ...original };
    });
    return withBlocks(entry, next);
  });
}
