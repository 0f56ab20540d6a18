/**
 * Layer 4a, freshness: results of ephemeral (read-only glance) Bash commands go stale, so all but the newest
 * few are replaced by a short placeholder on the way back to the model (cs §6.4). Expired content is not
 * spilled: re-running the command is the way to see the current state. `Read` results never expire.
 *
 * @module
 */
import { isEphemeral } from '../guards/ephemeral-command.js';
import type { EphemeralPolicy } from './ephemeral-policy.js';
import {
  bashCommands,
  blocksOf,
  codePointLength,
  fillTemplate,
  headByCodePoints,
  isProtected,
  isToolResult,
  messageOf,
  resultText,
  resultTextLength,
  withResultContents,
  type ContentBlock,
  type Entry,
} from './entry-content.js';
import type { Transform } from './transform.js';

interface Site {
  entryIndex: number;
  blockIndex: number;
  command: string;
}

/**
 * Replaces the content of stale ephemeral Bash results with the policy's placeholder, keeping the newest
 * `keepRecent` (all are expired when it is 0 or less). The input array and its entries are not modified.
 */
export function expire(entries: readonly Entry[], policy: EphemeralPolicy): Transform {
  const commands = bashCommands(entries);
  const sites: Site[] = [];
  // Commands repeat (`git status` dozens of times); the predicate tokenises, so ask once per command.
  const verdicts = new Map<string, boolean>();
  const ephemeral = (command: string): boolean => {
    let verdict = verdicts.get(command);
    if (verdict === undefined) {
      verdict = isEphemeral(command);
      verdicts.set(command, verdict);
    }
    return verdict;
  };
  if (commands.size > 0) {
    // Plain loops: this runs over every block of a long transcript on each resume; no closure per entry.
    for (let entryIndex = 0; entryIndex < entries.length; entryIndex += 1) {
      const entry = entries[entryIndex] as Entry;
      if (entry.type !== 'user' || isProtected(entry)) continue;
      const blocks = blocksOf(entry) ?? [];
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1) {
        const block = blocks[blockIndex] as ContentBlock;
        if (!isToolResult(block)) continue;
        const command = commands.get(block.tool_use_id);
        // The one glance/expiry predicate: what the coordinator may run itself is exactly what expires.
        if (command === undefined || !ephemeral(command)) continue;
        const length = resultTextLength(block['content']);
        if (length === null || (length > policy.maxChars && longerThan(block['content'], policy.maxChars)))
          continue;
        sites.push({ entryIndex, blockIndex, command });
      }
    }
  }
  const targets =
    policy.keepRecent > 0 ? sites.slice(0, Math.max(0, sites.length - policy.keepRecent)) : sites;
  if (targets.length === 0) return { entries: [...entries], report: { expired: 0 } };

  const turnsAfter = modelTurnsAfter(entries);
  const replacements = new Map<number, Map<number, string>>();
  for (const site of targets) {
    const text = fillTemplate(policy.text, {
      cmd: commandLabel(site.command),
      age: Math.max(1, turnsAfter[site.entryIndex] ?? 1),
    });
    const forEntry = replacements.get(site.entryIndex) ?? new Map<number, string>();
    forEntry.set(site.blockIndex, text);
    replacements.set(site.entryIndex, forEntry);
  }
  const out = entries.map((entry, index) => {
    const forEntry = replacements.get(index);
    return forEntry === undefined ? entry : withResultContents(entry, forEntry);
  });
  return { entries: out, report: { expired: targets.length } };
}

/** The first line of a command, at most 60 characters, in backticks. */
export function commandLabel(command: string): string {
  const firstLine = command.trim().split(/\r?\n/, 1)[0] ?? '';
  const head = headByCodePoints(firstLine, 60);
  return `\`${head}${head.length < firstLine.length ? '…' : ''}\``;
}

/**
 * For each index, how many model turns (distinct assistant messages) follow it. The reference called the
 * ordinal among glance results "turns ago" (cs §11.12); this counts real turns.
 */
function modelTurnsAfter(entries: readonly Entry[]): number[] {
  const counts = new Array<number>(entries.length).fill(0);
  const seen = new Set<string>();
  let turns = 0;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    counts[index] = turns;
    const entry = entries[index];
    if (entry?.type !== 'assistant') continue;
    const id = messageOf(entry)?.['id'];
    const key = typeof id === 'string' ? id : `#${index}`;
    if (!seen.has(key)) {
      seen.add(key);
      turns += 1;
    }
  }
  return counts;
}

/** True when the result's text has more than `max` code points (only called when `.length` says it may). */
function longerThan(content: unknown, max: number): boolean {
  const text = resultText(content);
  return text !== null && codePointLength(text) > max;
}
