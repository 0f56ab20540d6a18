/**
 * Answers tool calls that never got a result. An interrupt at a message boundary can leave a `tool_use`
 * with no `tool_result`; the Messages API then rejects every later request with a 400, so the session could
 * never be resumed. Healing adds a synthetic result instead of deleting the call: deleting would re-chain an
 * assistant entry that may hold valid blocks (docs/context-economy.md).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import {
  blocksOf,
  isToolResult,
  isToolUse,
  messageOf,
  parentOf,
  uuidOf,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import type { UnansweredReply } from './tool-index.js';

/**
 * Envelope fields an entry flower adds copies from a stored entry beside it, so it reads like the harness's own
 * (a heal answer from the reply it answers, a recovered call from the entry it follows).
 */
export const ENVELOPE_FIELDS: readonly string[] = [
  'isSidechain',
  'agentId',
  'userType',
  'entrypoint',
  'cwd',
  'sessionId',
  'version',
  'gitBranch',
];

/**
 * Finds every `tool_use` not answered by a `tool_result` before the next model reply (the API's rule, not
 * "a result exists somewhere": decisions.md D417) and inserts one synthetic `user` entry per assistant entry
 * holding such calls, with a result of `text` for each. The heal entry hangs off that assistant entry, as the
 * harness hangs every result off its call; when that entry ends the reply, whatever followed it is
 * re-pointed to the heal entry so the parent chain runs through it. Ids are derived from the assistant's uuid,
 * so loading twice gives the same transcript. The input array and its entries are not modified.
 */
export function healOrphans(entries: readonly Entry[], text: string): { entries: Entry[]; healed: number } {
  return healReplies(entries, unansweredReplies(entries), text);
}

/**
 * {@link healOrphans} with the unanswered replies of `entries` already found (by `indexTools` of an
 * array with the same positions and tool blocks).
 */
export function healReplies(
  entries: readonly Entry[],
  replies: readonly UnansweredReply[],
  text: string,
): { entries: Entry[]; healed: number } {
  const insertions = new Map<number, Entry[]>();
  const repoint = new Map<string, string>();
  let healed = 0;
  for (const reply of replies) {
    const byHolder = new Map<number, string[]>();
    for (const [id, holder] of reply.calls) {
      const ids = byHolder.get(holder);
      if (ids === undefined) byHolder.set(holder, [id]);
      else ids.push(id);
    }
    const heals: Entry[] = [];
    for (const [holder, ids] of byHolder) {
      const assistant = entries[holder] as Entry;
      const heal = healEntry(assistant, entries[reply.tail] ?? assistant, ids, text);
      heals.push(heal);
      healed += ids.length;
      const holderUuid = uuidOf(assistant);
      if (holder === reply.tail && holderUuid !== null) repoint.set(holderUuid, heal.uuid as string);
    }
    insertions.set(reply.tail, heals);
  }
  if (healed === 0) return { entries: [...entries], healed: 0 };

  // Whole runs of entries copied at once between the few insertion points, rather than an entry at a time:
  // this runs on every resume, over every entry, in code V8 has not optimised yet.
  const source = repoint.size === 0 ? entries : repointedAll(entries, repoint);
  const parts: Entry[][] = [];
  let from = 0;
  for (const position of [...insertions.keys()].sort((first, second) => first - second)) {
    parts.push(source.slice(from, position + 1), insertions.get(position) as Entry[]);
    from = position + 1;
  }
  parts.push(source.slice(from));
  return { entries: ([] as Entry[]).concat(...parts), healed };
}

/**
 * Walks the transcript reply by reply (assistant entries sharing `message.id`) and returns the replies that
 * have calls without a result before the next reply. One pending map serves every reply, so a long
 * transcript costs no allocation per turn.
 */
function unansweredReplies(entries: readonly Entry[]): UnansweredReply[] {
  const found: UnansweredReply[] = [];
  const pending = new Map<string, number>();
  let key: string | null = null;
  let tail = -1;
  // No closure for "close the reply": a fresh closure per call makes V8 throw away the loop's optimised
  // code at the next transcript (a new call target), and compile it again (docs/decisions.md D426).
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    const type = entry.type;
    if (type === 'assistant') {
      const message = messageOf(entry);
      const id = message?.['id'];
      const next = typeof id === 'string' ? id : `#${index}`;
      if (next !== key) {
        if (pending.size > 0) found.push({ tail, calls: [...pending] });
        pending.clear();
        key = next;
      }
      tail = index;
      const content = message?.['content'];
      if (!Array.isArray(content)) continue;
      const blocks = content as ContentBlock[];
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1) {
        const block = blocks[blockIndex] as ContentBlock;
        if (isToolUse(block)) pending.set(block.id, index);
      }
      continue;
    }
    // With no call pending, a user entry's results answer nothing: its blocks need not be read.
    if (type !== 'user' || key === null || pending.size === 0) continue;
    const blocks = blocksOf(entry) ?? [];
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1) {
      const block = blocks[blockIndex] as ContentBlock;
      if (isToolResult(block) && pending.delete(block.tool_use_id)) tail = index;
    }
  }
  if (pending.size > 0) found.push({ tail, calls: [...pending] });
  return found;
}

/** The synthetic `user` entry answering `ids` of `assistant`. */
function healEntry(assistant: Entry, tail: Entry, ids: string[], text: string): Entry {
  const assistantUuid = uuidOf(assistant);
  const heal: Entry = { type: 'user', uuid: derivedUuid(`flower-heal:${assistantUuid ?? ids.join(',')}`) };
  heal['parentUuid'] = assistantUuid ?? parentOf(assistant);
  for (const field of ENVELOPE_FIELDS) if (assistant[field] !== undefined) heal[field] = assistant[field];
  heal['message'] = {
    role: 'user',
    content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: text, is_error: false })),
  };
  if (assistantUuid !== null) heal['sourceToolAssistantUUID'] = assistantUuid;
  const timestamp = tail.timestamp ?? assistant.timestamp;
  if (timestamp !== undefined) heal.timestamp = timestamp;
  return heal;
}

/** A UUID-shaped id (RFC 4122 layout, name-based) derived from `name`, so healing is deterministic. */
export function derivedUuid(name: string): string {
  const hex = createHash('sha256').update(name, 'utf8').digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `entries` with {@link repointed} applied to each; the same array positions, copied only where it changes. */
function repointedAll(entries: readonly Entry[], repoint: ReadonlyMap<string, string>): readonly Entry[] {
  let out: Entry[] | null = null;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    const changed = repointed(entry, repoint);
    if (changed === entry) continue;
    out ??= entries.slice();
    out[index] = changed;
  }
  return out ?? entries;
}

function repointed(entry: Entry, repoint: ReadonlyMap<string, string>): Entry {
  const parent = entry['parentUuid'];
  const leaf = entry['leafUuid'];
  const newParent = typeof parent === 'string' ? repoint.get(parent) : undefined;
  const newLeaf = typeof leaf === 'string' ? repoint.get(leaf) : undefined;
  if (newParent === undefined && newLeaf === undefined) return entry;
  const copy: Entry = { ...entry };
  if (newParent !== undefined) copy['parentUuid'] = newParent;
  if (newLeaf !== undefined) copy['leafUuid'] = newLeaf;
  return copy;
}
