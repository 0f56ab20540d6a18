/**
 * Shows the resumed model the tool calls the gate let through that the stored transcript lost. A process
 * killed after a tool ran but before Claude Code mirrored the call leaves the effect on disk and no trace of
 * the call; seeing nothing, the model asks for it again. From the tool journal this layer puts the call back
 * into the copy fed to the model, answered by a result that says it may have completed.
 *
 * @module
 */
import {
  blocksOf,
  isToolResult,
  isToolUse,
  messageOf,
  uuidOf,
  withBlocks,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import { derivedUuid, ENVELOPE_FIELDS } from './heal-orphans.js';
import type { JournalledCall } from './tool-journal.js';
import type { Transform } from './transform.js';

/** What the layer needs besides the entries. */
export interface JournalRecoveryInput {
  /** Every `tool_use` id in the transcript as stored (before any layer removed one). */
  storedCalls: ReadonlySet<string>;
  /** Every tool-use id journalled for this thread. */
  journalledIds: ReadonlySet<string>;
  /** The journalled calls to consider putting back, oldest first (those in `storedCalls` are skipped). */
  journalled: readonly JournalledCall[];
  /** The result text of a recovered call. */
  text: string;
  /** The text healOrphans gave a call without a result; a journalled call's such result is retold as `text`. */
  orphanText: string;
}

/**
 * Returns `entries` with every journalled call that `storedCalls` lacks put back as an assistant `tool_use`
 * entry and a user `tool_result` entry (an error saying the call may have completed), and with the
 * placeholder answer of a journalled call that was stored without its result retold the same way. The
 * entries and their order are otherwise unchanged; the input is not modified.
 *
 * Where a lost call goes: after the last entry written before the gate let it through (by timestamp), which
 * is the end of the stored chain when the killed process is resumed for the first time. Later entries that
 * the resumed session hung off the recovered pair still find it, because placement and ids (derived from
 * the call id) are the same on every load.
 */
export function recoverJournalledCalls(entries: readonly Entry[], input: JournalRecoveryInput): Transform {
  let out = retold(entries, input.journalledIds, input);
  let recovered = 0;
  for (const call of input.journalled) {
    if (input.storedCalls.has(call.toolUseId)) continue;
    out = withRecovered(out, call, input.text);
    recovered += 1;
  }
  return { entries: out, report: { healed: recovered } };
}

/** Copies of `entries` where a journalled call's placeholder answer says what the journal knows. */
function retold(entries: readonly Entry[], ids: ReadonlySet<string>, input: JournalRecoveryInput): Entry[] {
  const out: Entry[] = [];
  for (const entry of entries) {
    const blocks = entry.type === 'user' ? blocksOf(entry) : null;
    if (blocks === null || !blocks.some((block) => isPlaceholderFor(block, ids, input.orphanText))) {
      out.push(entry);
      continue;
    }
    out.push(
      withBlocks(
        entry,
        blocks.map((block) =>
          isPlaceholderFor(block, ids, input.orphanText)
            ? { ...block, content: input.text, is_error: true }
            : block,
        ),
      ),
    );
  }
  return out;
}

function isPlaceholderFor(block: ContentBlock, ids: ReadonlySet<string>, text: string): boolean {
  return isToolResult(block) && ids.has(block.tool_use_id) && block['content'] === text;
}

/** `entries` with the call and its answer inserted after the entry they follow (see the module comment). */
function withRecovered(entries: readonly Entry[], call: JournalledCall, text: string): Entry[] {
  const anchorIndex = anchorOf(entries, call.startedAt);
  const anchor = anchorIndex < 0 ? null : (entries[anchorIndex] as Entry);
  const template = lastChatEntry(entries, anchorIndex) ?? anchor;
  const anchorUuid = anchor === null ? null : uuidOf(anchor);
  const callUuid = derivedUuid(`flower-journal-call:${call.sessionId}:${call.toolUseId}`);
  const resultUuid = derivedUuid(`flower-journal-result:${call.sessionId}:${call.toolUseId}`);
  const timestamp = new Date(call.startedAt).toISOString();

  const assistant: Entry = { type: 'assistant', uuid: callUuid, parentUuid: anchorUuid };
  const user: Entry = { type: 'user', uuid: resultUuid, parentUuid: callUuid };
  for (const field of ENVELOPE_FIELDS) {
    if (template !== null && template[field] !== undefined) {
      assistant[field] = template[field];
      user[field] = template[field];
    }
  }
  assistant.timestamp = timestamp;
  user.timestamp = timestamp;
  const previousId = anchor === null ? undefined : messageOf(anchor)?.['id'];
  // Continuing a reply whose text was stored but whose tool_use was not: the same message id lets the
  // harness merge them into the one assistant turn they were.
  const sameReply =
    anchor?.type === 'assistant' &&
    typeof previousId === 'string' &&
    !(blocksOf(anchor) ?? []).some(isToolUse);
  assistant['message'] = {
    id: sameReply ? previousId : `msg_flower_journal_${call.toolUseId}`,
    type: 'message',
    role: 'assistant',
    model: modelOf(entries, anchorIndex),
    content: [{ type: 'tool_use', id: call.toolUseId, name: call.toolName, input: call.input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
  user['message'] = {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: call.toolUseId, content: text, is_error: true }],
  };
  user['sourceToolAssistantUUID'] = callUuid;

  const out: Entry[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    // A marker naming the old end of the chain as the place to resume from now names the recovered answer.
    out.push(
      anchorUuid !== null && entry['leafUuid'] === anchorUuid ? { ...entry, leafUuid: resultUuid } : entry,
    );
    if (index === anchorIndex) out.push(assistant, user);
  }
  if (anchorIndex < 0) out.unshift(assistant, user);
  return out;
}

/**
 * Index of the last entry with a uuid among those written before `startedAt`: the prefix up to the first
 * uuid-carrying entry stamped later. An entry without a readable timestamp counts as earlier. -1 when none.
 */
function anchorOf(entries: readonly Entry[], startedAt: number): number {
  let anchor = -1;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    if (uuidOf(entry) === null) continue;
    const stamped = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
    if (!Number.isNaN(stamped) && stamped > startedAt) break;
    anchor = index;
  }
  return anchor;
}

function lastChatEntry(entries: readonly Entry[], before: number): Entry | null {
  for (let index = Math.min(before, entries.length - 1); index >= 0; index -= 1) {
    const entry = entries[index] as Entry;
    if (entry.type === 'user' || entry.type === 'assistant') return entry;
  }
  for (const entry of entries) if (entry.type === 'user' || entry.type === 'assistant') return entry;
  return null;
}

/** The model of the nearest earlier real reply, so the recovered turn does not look like another model's. */
function modelOf(entries: readonly Entry[], before: number): string {
  for (let index = Math.min(before, entries.length - 1); index >= 0; index -= 1) {
    const entry = entries[index] as Entry;
    const model = entry.type === 'assistant' ? messageOf(entry)?.['model'] : undefined;
    if (typeof model === 'string' && model !== '<synthetic>') return model;
  }
  return 'unknown';
}

/** Every `tool_use` id in `entries`. */
export function toolUseIds(entries: readonly Entry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== 'assistant') continue;
    for (const block of blocksOf(entry) ?? []) if (isToolUse(block)) ids.add(block.id);
  }
  return ids;
}
