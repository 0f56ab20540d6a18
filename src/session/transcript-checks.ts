/**
 * Every check `flower doctor` runs on one stored transcript: the load pipeline's own invariants
 * ({@link validateTranscript}) plus the structural rules the Messages API enforces that healing on load does
 * not repair (duplicate ids, empty content, thinking out of place, a result away from its call, oversized
 * entries) and the shape problems that lose history silently (forks, duplicate uuids). Pure: reads entries,
 * returns findings.
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
import { validateTranscript, type TranscriptRule } from './validate-transcript.js';

/** Every rule a transcript finding can name. */
export type TranscriptCheckRule =
  | TranscriptRule
  | 'result-out-of-place'
  | 'duplicate-uuid'
  | 'duplicate-tool-use-id'
  | 'duplicate-tool-result'
  | 'empty-content'
  | 'thinking-not-first'
  | 'forked-chain'
  | 'oversized-entry';

/** How bad a finding is: `error` stops a resume or loses history; `warning` is healed on load or harmless. */
export type Severity = 'error' | 'warning';

/** One problem in one transcript: the entry at fault (its index and uuid), the rule, and the specifics. */
export interface TranscriptFinding {
  rule: TranscriptCheckRule;
  severity: Severity;
  index: number;
  uuid: string | null;
  detail: string;
}

/**
 * The largest request the Messages API accepts (32 MB). One stored entry larger than that can never be sent
 * again, whatever else the request holds.
 */
export const API_REQUEST_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * Severity per rule. Unanswered calls and a synthetic error leaf are warnings because every load heals them
 * (an answer is added, the error entry dropped); every other rule the API rejects or the chain walk loses.
 */
export const RULE_SEVERITY: Readonly<Record<TranscriptCheckRule, Severity>> = {
  'unanswered-tool-use': 'warning',
  'synthetic-leaf': 'warning',
  'orphan-tool-result': 'error',
  'result-out-of-place': 'error',
  'broken-parent': 'error',
  'duplicate-uuid': 'error',
  'duplicate-tool-use-id': 'error',
  'duplicate-tool-result': 'error',
  'empty-content': 'error',
  'thinking-not-first': 'error',
  'forked-chain': 'warning',
  'oversized-entry': 'error',
};

/** Runs every transcript check; findings in entry order (then rule order within one entry). */
export function checkTranscript(entries: readonly Entry[]): TranscriptFinding[] {
  const findings: TranscriptFinding[] = [];
  const add = (rule: TranscriptCheckRule, index: number, detail: string): void => {
    findings.push({
      rule,
      severity: RULE_SEVERITY[rule],
      index,
      uuid: uuidOf(entries[index] as Entry),
      detail,
    });
  };
  const callSites = toolUseSites(entries);
  for (const problem of validateTranscript(entries)) {
    if (problem.rule === 'orphan-tool-result') {
      // The validator says "not in the reply it follows"; name the two cases apart, they mean different fixes.
      const id = /tool_result for (\S+)/.exec(problem.detail)?.[1] ?? '';
      if (callSites.has(id)) {
        add(
          'result-out-of-place',
          problem.index,
          `tool_result for ${id} is not in the user turn right after its call`,
        );
        continue;
      }
    }
    add(problem.rule, problem.index, problem.detail);
  }
  checkDuplicates(entries, add);
  checkContent(entries, add);
  checkForks(entries, add);
  return findings.sort((first, second) => first.index - second.index);
}

type Add = (rule: TranscriptCheckRule, index: number, detail: string) => void;

/** tool_use id → index of the first entry holding it. */
function toolUseSites(entries: readonly Entry[]): Map<string, number> {
  const sites = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (entry.type !== 'assistant') return;
    for (const block of blocksOf(entry) ?? [])
      if (isToolUse(block) && !sites.has(block.id)) sites.set(block.id, index);
  });
  return sites;
}

function checkDuplicates(entries: readonly Entry[], add: Add): void {
  const uuids = new Map<string, number>();
  const uses = new Map<string, number>();
  const results = new Map<string, number>();
  entries.forEach((entry, index) => {
    const uuid = uuidOf(entry);
    if (uuid !== null) {
      const first = uuids.get(uuid);
      if (first === undefined) uuids.set(uuid, index);
      else add('duplicate-uuid', index, `uuid ${uuid} was already used by entry ${first}`);
    }
    for (const block of blocksOf(entry) ?? []) {
      if (entry.type === 'assistant' && isToolUse(block)) {
        const first = uses.get(block.id);
        if (first === undefined) uses.set(block.id, index);
        else
          add('duplicate-tool-use-id', index, `tool_use id ${block.id} was already used by entry ${first}`);
      } else if (entry.type === 'user' && isToolResult(block)) {
        const first = results.get(block.tool_use_id);
        if (first === undefined) results.set(block.tool_use_id, index);
        else
          add(
            'duplicate-tool-result',
            index,
            `tool_use ${block.tool_use_id} was already answered by entry ${first}`,
          );
      }
    }
  });
}

/** Empty messages, thinking after another block of the same reply, entries too big to send. */
function checkContent(entries: readonly Entry[], add: Add): void {
  let replyKey: string | null = null;
  let sawOther = false;
  entries.forEach((entry, index) => {
    if (isChatEntry(entry) && !isApiError(entry)) {
      const content = messageOf(entry)?.['content'];
      const empty = content === '' || (Array.isArray(content) && content.length === 0);
      if (empty) add('empty-content', index, `${entry.type} message with empty content`);
    }
    if (entry.type === 'assistant') {
      const id = messageOf(entry)?.['id'];
      const key = typeof id === 'string' ? id : `#${index}`;
      if (key !== replyKey) {
        replyKey = key;
        sawOther = false;
      }
      for (const block of blocksOf(entry) ?? []) {
        const thinking = block.type === 'thinking' || block.type === 'redacted_thinking';
        if (thinking && sawOther) {
          add(
            'thinking-not-first',
            index,
            `a ${String(block.type)} block follows another block of reply ${key}`,
          );
        }
        if (!thinking) sawOther = true;
      }
    } else if (entry.type === 'user') {
      replyKey = null;
    }
    const size = Buffer.byteLength(JSON.stringify(entry), 'utf8');
    if (size > API_REQUEST_LIMIT_BYTES) {
      add(
        'oversized-entry',
        index,
        `entry is ${size} bytes, over the API's ${API_REQUEST_LIMIT_BYTES}-byte request limit`,
      );
    }
  });
}

/**
 * A parent with two children that both continue the conversation. The harness hangs each tool result off
 * the assistant entry of its call while the reply goes on from that same entry, so children that only carry
 * tool results are not a fork.
 */
function checkForks(entries: readonly Entry[], add: Add): void {
  const children = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const parent = parentOf(entry);
    if (parent === null || uuidOf(entry) === null || carriesOnlyResults(entry)) return;
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [index]);
    else list.push(index);
  });
  for (const [parent, list] of children) {
    if (list.length < 2) continue;
    for (const index of list.slice(1)) {
      add(
        'forked-chain',
        index,
        `entry ${parent} has another child (entry ${list[0]}): the chain forks here`,
      );
    }
  }
}

function carriesOnlyResults(entry: Entry): boolean {
  if (entry.type !== 'user') return false;
  const blocks = blocksOf(entry) ?? [];
  return blocks.length > 0 && blocks.every(isToolResult);
}
