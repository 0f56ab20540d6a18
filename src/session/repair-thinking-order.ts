/**
 * The repair of thinking blocks out of place in a transcript `flower doctor --fix` copies: the Messages API
 * wants a reply's thinking first, so each reply's blocks are reordered and the results follow their calls.
 *
 * @module
 */
import {
  blocksOf,
  isToolResult,
  isToolUse,
  messageOf,
  parentOf,
  uuidOf,
  withBlocks,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import type { Log } from './repair.js';

/**
 * Within each reply (consecutive assistant entries sharing `message.id`), thinking blocks go first, the other
 * blocks keep their order and every entry keeps its number of blocks. A call that lands in another entry
 * takes its results' `sourceToolAssistantUUID` and `parentUuid` with it.
 */
export function reorderThinking(entries: readonly Entry[], log: Log): Entry[] {
  const out = [...entries];
  const holders = new Map<string, string>();
  let start = 0;
  while (start < out.length) {
    const first = out[start] as Entry;
    if (first.type !== 'assistant') {
      start += 1;
      continue;
    }
    const key = messageOf(first)?.['id'];
    let end = start + 1;
    while (end < out.length) {
      const next = out[end] as Entry;
      if (next.type !== 'assistant' || typeof key !== 'string' || messageOf(next)?.['id'] !== key) break;
      end += 1;
    }
    reorderReply(out, start, end, holders, log);
    start = end;
  }
  if (holders.size === 0) return out;
  return out.map((entry) => {
    if (entry.type !== 'user') return entry;
    const results = (blocksOf(entry) ?? []).filter(isToolResult);
    const holder = results.map((block) => holders.get(block.tool_use_id)).find((uuid) => uuid !== undefined);
    if (holder === undefined) return entry;
    const copy: Entry = { ...entry };
    if (typeof entry['sourceToolAssistantUUID'] === 'string') copy['sourceToolAssistantUUID'] = holder;
    const parent = parentOf(entry);
    const old = out.find((candidate) => uuidOf(candidate) === parent);
    // Only a result hanging off its call moves with it; an entry continuing the chain stays where it is.
    if (old !== undefined && old.type === 'assistant') copy['parentUuid'] = holder;
    return copy;
  });
}

function reorderReply(
  out: Entry[],
  start: number,
  end: number,
  holders: Map<string, string>,
  log: Log,
): void {
  const sizes: number[] = [];
  const blocks: ContentBlock[] = [];
  for (let index = start; index < end; index += 1) {
    const own = blocksOf(out[index] as Entry) ?? [];
    sizes.push(own.length);
    blocks.push(...own);
  }
  const thinking = (block: ContentBlock): boolean =>
    block.type === 'thinking' || block.type === 'redacted_thinking';
  const ordered = [...blocks.filter(thinking), ...blocks.filter((block) => !thinking(block))];
  if (ordered.every((block, index) => block === blocks[index])) return;
  let position = 0;
  for (let index = start; index < end; index += 1) {
    const entry = out[index] as Entry;
    const size = sizes[index - start] ?? 0;
    const own = ordered.slice(position, position + size);
    position += size;
    const before = blocksOf(entry) ?? [];
    if (own.every((block, blockIndex) => block === before[blockIndex])) continue;
    out[index] = withBlocks(entry, own);
    const uuid = uuidOf(entry);
    for (const block of own) {
      if (isToolUse(block) && uuid !== null && !before.includes(block)) holders.set(block.id, uuid);
    }
  }
  log('reordered-thinking', out[start] as Entry, `entries ${start}–${end - 1}: thinking blocks moved first`);
}
