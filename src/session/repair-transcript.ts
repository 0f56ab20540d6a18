/**
 * `repairTranscript`: the copy `flower doctor --fix` stores as a new session in place of a transcript the
 * Messages API would reject (docs/doctor.md). It reuses the load pipeline's own surgery — {@link relink} for
 * every dropped entry, {@link healOrphans} for every call left without a result — and adds the repairs a load
 * never needs because the harness never writes such shapes itself (duplicate ids, empty messages, thinking
 * out of place, a parent that is not stored). Pure: the input array and its entries are not modified.
 *
 * @module
 */
import {
  blocksOf,
  isChatEntry,
  isToolResult,
  isToolUse,
  messageOf,
  parentOf,
  uuidOf,
  withBlocks,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import { derivedUuid, healOrphans } from './heal-orphans.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import { isApiError } from './prune.js';
import { relink, UUID_REFERENCE_FIELDS } from './relink.js';
import { checkTranscript, type TranscriptFinding } from './transcript-checks.js';

/**
 * The field every entry of a copy `flower doctor --fix` stored carries: the id of the session it replaces.
 * The doctor reads it to know that session's problems were dealt with.
 */
export const REPAIRED_FROM_FIELD = 'repairedFrom';

/** What one repair did. */
export type RepairKind =
  | 'dropped-duplicate-entry'
  | 'renamed-duplicate-uuid'
  | 'renamed-duplicate-tool-use-id'
  | 'dropped-duplicate-result'
  | 'dropped-orphan-result'
  | 'moved-result'
  | 'dropped-empty-message'
  | 'reordered-thinking'
  | 'relinked-parent'
  | 'dropped-synthetic-leaf'
  | 'answered-unknown-outcome';

/** One change made to the copy: its kind, the entry it touched (uuid in the original), the specifics. */
export interface Repair {
  kind: RepairKind;
  uuid: string | null;
  detail: string;
}

/** What {@link repairTranscript} made. */
export interface RepairOutcome {
  /** The repaired copy. */
  entries: Entry[];
  /** Every change, in the order they were made; empty when nothing needed repair. */
  repairs: Repair[];
  /** What the checks still find in the copy: what cannot be repaired without losing something. */
  remaining: TranscriptFinding[];
}

/** Options of {@link repairTranscript}. */
export interface RepairOptions {
  /** Written into every entry's `sessionId` field (the copy is a new session). Kept when absent. */
  sessionId?: string;
  /** The answer given to a call without a result. */
  unknownOutcomeText?: string;
}

type Log = (kind: RepairKind, entry: Entry | null, detail: string) => void;

/**
 * Repairs every rule of {@link checkTranscript} that can be repaired without losing what the transcript says:
 * a later duplicate uuid or tool_use id is renamed (with the references and the result that belong to it), a
 * second answer to one call is dropped, a result that answers no call is dropped, a result away from its call
 * is moved to the turn right after it, an empty message is dropped, thinking blocks go first in their reply,
 * a parent that is not stored becomes the entry before, a trailing synthetic API error is dropped and every
 * call still without a result is answered "outcome unknown". Forks and oversized entries stay (`remaining`).
 */
export function repairTranscript(entries: readonly Entry[], options: RepairOptions = {}): RepairOutcome {
  const repairs: Repair[] = [];
  const log: Log = (kind, entry, detail) => {
    repairs.push({ kind, uuid: entry === null ? null : uuidOf(entry), detail });
  };
  let current = renameDuplicateUuids(entries, log);
  current = renameDuplicateToolUseIds(current, log);
  const moved = new Map<string, ContentBlock>();
  current = dropMisplaced(current, moved, log);
  current = reorderThinking(current, log);
  current = relinkBroken(current, log);
  current = dropSyntheticLeaf(current, log);
  const unknown = options.unknownOutcomeText ?? PLACEHOLDER_TEXT.unknownOutcome;
  const healed = healOrphans(current, unknown);
  if (healed.healed > 0) current = placeMoved(healed.entries, new Set(current.map(uuidOf)), moved, log);
  if (options.sessionId !== undefined) {
    const sessionId = options.sessionId;
    current = current.map((entry) =>
      typeof entry['sessionId'] === 'string' ? { ...entry, sessionId } : entry,
    );
  }
  return { entries: current, repairs, remaining: checkTranscript(current) };
}

/**
 * A later entry with a uuid already used is dropped when it is a copy of the first (written twice), else it
 * gets a derived uuid and the entries after it that name that uuid follow it.
 */
function renameDuplicateUuids(entries: readonly Entry[], log: Log): Entry[] {
  const seen = new Map<string, Entry>();
  const renamed = new Map<string, string>();
  const out: Entry[] = [];
  entries.forEach((entry, index) => {
    let copy = entry;
    // References name the nearest entry before them with that uuid: the renamed duplicate, once there is one.
    for (const field of UUID_REFERENCE_FIELDS) {
      const target = entry[field];
      const to = typeof target === 'string' ? renamed.get(target) : undefined;
      if (to !== undefined) copy = { ...copy, [field]: to };
    }
    const uuid = uuidOf(entry);
    const first = uuid === null ? undefined : seen.get(uuid);
    if (uuid === null || first === undefined) {
      if (uuid !== null) seen.set(uuid, entry);
      out.push(copy);
      return;
    }
    if (JSON.stringify(entry) === JSON.stringify(first)) {
      log('dropped-duplicate-entry', entry, `entry ${index} is a second copy of entry ${uuid}`);
      return;
    }
    const fresh = derivedUuid(`flower-doctor-fix:${uuid}:${index}`);
    renamed.set(uuid, fresh);
    log('renamed-duplicate-uuid', entry, `entry ${index} reused uuid ${uuid}; it is ${fresh} in the copy`);
    out.push({ ...copy, uuid: fresh });
  });
  return out;
}

/**
 * A later call reusing a tool_use id gets a new id, and so does its result: the first result for that id
 * after it that does not hang off the first call's entry (parallel calls are answered after both were made).
 */
function renameDuplicateToolUseIds(entries: readonly Entry[], log: Log): Entry[] {
  const holders = new Map<string, { count: number; first: string | null }>();
  const pending = new Map<string, { fresh: string; first: string | null }>();
  return entries.map((entry, index) => {
    const blocks = blocksOf(entry);
    if (blocks === null) return entry;
    let changed = false;
    const next = blocks.map((block) => {
      if (entry.type === 'assistant' && isToolUse(block)) {
        const seen = holders.get(block.id);
        if (seen === undefined) {
          holders.set(block.id, { count: 1, first: uuidOf(entry) });
          return block;
        }
        const fresh = `${block.id}_dup${seen.count}`;
        seen.count += 1;
        pending.set(block.id, { fresh, first: seen.first });
        changed = true;
        log(
          'renamed-duplicate-tool-use-id',
          entry,
          `entry ${index}: tool_use ${block.id} is ${fresh} in the copy`,
        );
        return { ...block, id: fresh };
      }
      if (entry.type === 'user' && isToolResult(block)) {
        const rename = pending.get(block.tool_use_id);
        if (rename === undefined) return block;
        const source = entry['sourceToolAssistantUUID'] ?? parentOf(entry);
        if (rename.first !== null && source === rename.first) return block;
        pending.delete(block.tool_use_id);
        changed = true;
        return { ...block, tool_use_id: rename.fresh };
      }
      return block;
    });
    return changed ? withBlocks(entry, next) : entry;
  });
}

/**
 * Drops a second answer to one call, a result that answers no call of the reply before it and an empty
 * message; a result whose call is elsewhere in the transcript is kept in `moved` to answer that call later.
 * Dropped entries are re-linked with {@link relink}.
 */
function dropMisplaced(entries: readonly Entry[], moved: Map<string, ContentBlock>, log: Log): Entry[] {
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
 * Within each reply (consecutive assistant entries sharing `message.id`), thinking blocks go first, the other
 * blocks keep their order and every entry keeps its number of blocks. A call that lands in another entry
 * takes its results' `sourceToolAssistantUUID` and `parentUuid` with it.
 */
function reorderThinking(entries: readonly Entry[], log: Log): Entry[] {
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

/** A `parentUuid` naming no entry of the transcript becomes the uuid of the nearest entry before it. */
function relinkBroken(entries: readonly Entry[], log: Log): Entry[] {
  const uuids = new Set<string>();
  for (const entry of entries) {
    const uuid = uuidOf(entry);
    if (uuid !== null) uuids.add(uuid);
  }
  let previous: string | null = null;
  return entries.map((entry, index) => {
    const parent = parentOf(entry);
    let copy = entry;
    if (parent !== null && !uuids.has(parent)) {
      copy = { ...entry, parentUuid: previous };
      log(
        'relinked-parent',
        entry,
        `entry ${index}: parent ${parent} is not stored; now ${previous ?? 'none'}`,
      );
    }
    previous = uuidOf(entry) ?? previous;
    return copy;
  });
}

/** Drops synthetic API-error replies at the end of the conversation (the load drops them too). */
function dropSyntheticLeaf(entries: readonly Entry[], log: Log): Entry[] {
  const drop = new Set<string>();
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index] as Entry;
    if (!isChatEntry(entry)) continue;
    if (!isApiError(entry) || uuidOf(entry) === null) break;
    drop.add(uuidOf(entry) as string);
    log('dropped-synthetic-leaf', entry, `entry ${index}: a synthetic API error the harness wrote`);
  }
  return relink(entries, drop);
}

/**
 * Puts each result {@link dropMisplaced} took away in place of the "unknown" answer the heal gave its call,
 * and logs the calls that really had no result.
 */
function placeMoved(
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
