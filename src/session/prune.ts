/**
 * Layer 4c, errors: drops synthetic API-error entries and all but the newest denied calls, neutralises
 * results cut off by an interrupt, re-links the parent chain and heals orphaned tool calls
 * (docs/context-economy.md). Trim drops by size and value, prune by "is it an error"; the two stay separate.
 *
 * @module
 */
import {
  blocksOf,
  isProtected,
  isToolResult,
  isToolUse,
  messageOf,
  uuidOf,
  withBlocks,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import { healOrphans, healReplies } from './heal-orphans.js';
import type { PrunePolicy } from './prune-policy.js';
import { relink } from './relink.js';
import { indexTools, type ResultSite, type ToolIndex } from './tool-index.js';
import type { Transform } from './transform.js';

/**
 * A synthetic assistant entry: an "API Error: …" left by a failed request (`isApiErrorMessage`) or another
 * harness-made reply (`model: '<synthetic>'`). Fed back, the model believes it was discussing a network failure.
 */
export function isApiError(entry: Entry): boolean {
  if (entry.type !== 'assistant') return false;
  return Boolean(entry['isApiErrorMessage']) || messageOf(entry)?.['model'] === '<synthetic>';
}

const NONE: readonly string[] = Object.freeze([]);

/** The tool_use ids an entry records as denied (every result of a marked entry, not only the first). */
export function deniedIds(entry: Entry, kinds: readonly string[]): readonly string[] {
  const kind = entry['toolDenialKind'];
  if (typeof kind !== 'string' || !kinds.includes(kind)) return NONE;
  return (blocksOf(entry) ?? []).filter(isToolResult).map((block) => block.tool_use_id);
}

/** True for a result block left by an interrupt: an error whose text starts the harness's interrupt marker. */
function isInterruptBlock(block: ContentBlock): boolean {
  const content = block['content'];
  return (
    isToolResult(block) &&
    block['is_error'] === true &&
    typeof content === 'string' &&
    content.includes('[Request interrupted')
  );
}

/**
 * Runs the prune layer over `entries` (see the module comment). `index` is {@link indexTools} of `entries`
 * or of the array expire and trim rewrote into `entries`, when the caller shares one walk between layers.
 * The input array and its entries are not modified; protected entries (compact summaries, meta) are never
 * touched.
 */
export function prune(entries: readonly Entry[], policy: PrunePolicy, given?: ToolIndex): Transform {
  // Prune keeps every position until relink, and expire and trim only rewrite results: the index holds.
  const index = given !== undefined && given.entries.length === entries.length ? given : indexTools(entries);
  const { dead, holders } = deadDenials(entries, policy, index);
  const drop = new Set<string>();
  const out = entries.slice();
  let pruned = 0;
  // Only entries that can change are visited: those holding a dead denial, API errors, and results cut off by
  // an interrupt. Every other entry would come out of the per-entry rules as the same object.
  for (const position of candidates(entries, policy, holders, index)) {
    let entry = entries[position] as Entry;
    if ((entry.type !== 'user' && entry.type !== 'assistant') || isProtected(entry)) continue;
    const uuid = uuidOf(entry);
    if (dead.size > 0) {
      const stripped = dropBlocks(entry, dead);
      // Keep the original in the list: relink reads the dropped entry's own parent.
      if (stripped === 'empty') {
        if (uuid !== null) drop.add(uuid);
        continue;
      }
      entry = stripped;
    }
    if (policy.dropApiErrors && uuid !== null && isApiError(entry)) {
      drop.add(uuid);
      pruned += 1;
      out[position] = entry;
      continue;
    }
    if (policy.neutralizeInterrupts) entry = neutralizeInterrupts(entry, policy.interruptText);
    out[position] = entry;
  }
  const report = { pruned, denialsDropped: dead.size, healed: 0 };
  const relinked = drop.size > 0 ? relink(out, drop) : out;
  if (!policy.healOrphans) return { entries: relinked, report };
  // When prune removed no entry and no block, every position and tool block is the one the index describes
  // (expire and trim change only result contents), so the index's walk already found what healing needs.
  const healed =
    drop.size === 0 && dead.size === 0 && relinked.length === index.entries.length
      ? healReplies(relinked, index.unanswered, policy.orphanText)
      : healOrphans(relinked, policy.orphanText);
  return { entries: healed.entries, report: { ...report, healed: healed.healed } };
}

/** The positions the prune rules may change, ascending: denial holders, API errors, interrupted results. */
function candidates(
  entries: readonly Entry[],
  policy: PrunePolicy,
  holders: ReadonlySet<number>,
  index: ToolIndex,
): number[] {
  const found = new Set<number>(holders);
  if (policy.dropApiErrors) {
    for (const position of index.apiErrors) {
      if (isApiError(entries[position] as Entry)) found.add(position);
    }
  }
  if (policy.neutralizeInterrupts) {
    const results = index.results;
    for (let siteIndex = 0; siteIndex < results.length; siteIndex += 1) {
      const site = results[siteIndex] as ResultSite;
      // The block as it is now (trim may have rewritten it), read without its length: only its text matters.
      const block = blocksOf(entries[site.entryIndex] as Entry)?.[site.blockIndex];
      if (block !== undefined && isInterruptBlock(block)) found.add(site.entryIndex);
    }
  }
  return [...found].sort((first, second) => first - second);
}

/**
 * The denied tool_use ids to remove: all but the newest `keepDenials`, and the positions of the entries
 * holding them. An id is only taken when both its call and its result can go (decisions.md D419): a protected
 * entry, or a uuid-less entry that would be left empty (it cannot be dropped), keeps the pair.
 */
function deadDenials(
  entries: readonly Entry[],
  policy: PrunePolicy,
  tools: ToolIndex,
): { dead: Set<string>; holders: Set<number> } {
  const denied: string[] = [];
  for (const position of tools.denials) {
    denied.push(...deniedIds(entries[position] as Entry, policy.denialKinds));
  }
  const older =
    policy.keepDenials > 0 ? denied.slice(0, Math.max(0, denied.length - policy.keepDenials)) : denied;
  const holders = new Set<number>();
  if (older.length === 0) return { dead: new Set(), holders };
  const dead = new Set(older);
  for (const index of holderCandidates(tools, dead)) {
    const entry = entries[index] as Entry;
    const blocks = blocksOf(entry);
    if (blocks === null) continue;
    let hits = 0;
    for (const block of blocks) if (dead.has(blockToolId(block) ?? '')) hits += 1;
    if (hits === 0) continue;
    holders.add(index);
    if (isProtected(entry) || (hits === blocks.length && uuidOf(entry) === null)) {
      for (const block of blocks) dead.delete(blockToolId(block) ?? '');
    }
  }
  return { dead, holders };
}

/**
 * The positions, ascending and each once, of every entry that may hold a block of an id in `dead`: the
 * holders of those calls and results by the index, and every entry the index does not list blocks of. The
 * rule above is then read on those alone, in transcript order, instead of on every entry
 * (docs/decisions.md D461).
 */
function holderCandidates(tools: ToolIndex, dead: ReadonlySet<string>): number[] {
  const found: number[] = tools.others.slice();
  const { calls, callPositions, results } = tools;
  for (let call = 0; call < calls.length; call += 1) {
    if (dead.has(calls[call] as string)) found.push(callPositions[call] as number);
  }
  for (let siteIndex = 0; siteIndex < results.length; siteIndex += 1) {
    const site = results[siteIndex] as ResultSite;
    if (dead.has(site.toolUseId)) found.push(site.entryIndex);
  }
  found.sort((first, second) => first - second);
  const positions: number[] = [];
  for (const position of found) if (positions[positions.length - 1] !== position) positions.push(position);
  return positions;
}

function blockToolId(block: ContentBlock): string | null {
  if (isToolUse(block)) return block.id;
  if (isToolResult(block)) return block.tool_use_id;
  return null;
}

/**
 * Removes the tool_use and tool_result blocks of the given ids. Unchanged when nothing matched, `'empty'`
 * when nothing is left (the caller drops the entry), else a copy without `toolUseResult` (the denial text
 * again, for the UI).
 */
export function dropBlocks(entry: Entry, ids: ReadonlySet<string>): Entry | 'empty' {
  const blocks = blocksOf(entry);
  if (blocks === null || !blocks.some((block) => ids.has(blockToolId(block) ?? ''))) return entry;
  const kept = blocks.filter((block) => !ids.has(blockToolId(block) ?? ''));
  if (kept.length === blocks.length) return entry;
  if (kept.length === 0) return 'empty';
  const { toolUseResult: _unused, ...rest } = withBlocks(entry, kept);
  return rest;
}

function neutralizeInterrupts(entry: Entry, text: string): Entry {
  if (entry.type !== 'user') return entry;
  const blocks = blocksOf(entry);
  if (blocks === null || !blocks.some(isInterruptBlock)) return entry;
  // The block stays (red line 1); only its text and error flag change.
  return withBlocks(
    entry,
    blocks.map((block) => (isInterruptBlock(block) ? { ...block, content: text, is_error: false } : block)),
  );
}
