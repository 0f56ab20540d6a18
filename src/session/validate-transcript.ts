/**
 * Checks a loaded transcript against the Messages API's invariants, so a view the load pipeline produced
 * can be proven resumable without sending it anywhere. Used by the tests and by the `doctor` command.
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
  type Entry,
} from './entry-content.js';
import { isApiError } from './prune.js';

/** The invariant a problem breaks. */
export type TranscriptRule =
  'unanswered-tool-use' | 'orphan-tool-result' | 'broken-parent' | 'synthetic-leaf';

/** One broken invariant: the index of the entry at fault, the rule, and a one-line explanation. */
export interface TranscriptProblem {
  index: number;
  rule: TranscriptRule;
  detail: string;
}

/**
 * Lists every broken invariant, in entry order (empty when the transcript is sound):
 * - `unanswered-tool-use`: a `tool_use` not answered by a `tool_result` before the next model reply;
 * - `orphan-tool-result`: a `tool_result` whose `tool_use` is not in the reply it follows;
 * - `broken-parent`: a `parentUuid` naming no entry of the transcript;
 * - `synthetic-leaf`: the last conversation entry is a synthetic API error.
 */
export function validateTranscript(entries: readonly Entry[]): TranscriptProblem[] {
  const problems: TranscriptProblem[] = [];
  const uuids = new Set<string>();
  for (const entry of entries) {
    const uuid = uuidOf(entry);
    if (uuid !== null) uuids.add(uuid);
  }
  let replyKey: string | null = null;
  let calls = new Map<string, number>();
  let answered = new Set<string>();
  const closeReply = (): void => {
    for (const [id, index] of calls) {
      if (!answered.has(id)) {
        problems.push({
          index,
          rule: 'unanswered-tool-use',
          detail: `tool_use ${id} has no tool_result before the next reply`,
        });
      }
    }
    calls = new Map();
    answered = new Set();
  };
  entries.forEach((entry, index) => {
    const parent = parentOf(entry);
    if (parent !== null && !uuids.has(parent)) {
      problems.push({
        index,
        rule: 'broken-parent',
        detail: `parentUuid ${parent} names no entry of this transcript`,
      });
    }
    if (entry.type === 'assistant') {
      const id = messageOf(entry)?.['id'];
      const key = typeof id === 'string' ? id : `#${index}`;
      if (key !== replyKey) {
        closeReply();
        replyKey = key;
      }
      for (const block of blocksOf(entry) ?? []) if (isToolUse(block)) calls.set(block.id, index);
      return;
    }
    if (entry.type !== 'user') return;
    for (const block of blocksOf(entry) ?? []) {
      if (!isToolResult(block)) continue;
      if (calls.has(block.tool_use_id)) answered.add(block.tool_use_id);
      else {
        problems.push({
          index,
          rule: 'orphan-tool-result',
          detail: `tool_result for ${block.tool_use_id} does not follow its tool_use`,
        });
      }
    }
  });
  closeReply();
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index] as Entry;
    if (!isChatEntry(entry)) continue;
    if (isApiError(entry)) {
      problems.push({ index, rule: 'synthetic-leaf', detail: 'the last message is a synthetic API error' });
    }
    break;
  }
  return problems.sort((first, second) => first.index - second.index);
}
