/**
 * Layer 4a, freshness: results of ephemeral (read-only glance) Bash commands go stale, so all but the newest
 * few are replaced by a short placeholder on the way back to the model (docs/context-economy.md). Expired
 * content is not spilled: re-running the command is the way to see the current state. `Read` results never
 * expire.
 *
 * @module
 */
import { isEphemeral } from '../guards/ephemeral-command.js';
import type { EphemeralPolicy } from './ephemeral-policy.js';
import {
  codePointLength,
  headByCodePoints,
  replaced,
  resultText,
  templateFiller,
  type Entry,
} from './entry-content.js';
import { indexTools, siteNow, type ResultSite, type ToolIndex } from './tool-index.js';
import type { Transform } from './transform.js';

interface Site {
  entryIndex: number;
  blockIndex: number;
  command: string;
}

/**
 * Replaces the content of stale ephemeral Bash results with the policy's placeholder, keeping the newest
 * `keepRecent` (all are expired when it is 0 or less). `index` is {@link indexTools} of `entries`, when the
 * caller shares one walk between layers. The input array and its entries are not modified.
 */
export function expire(
  entries: readonly Entry[],
  policy: EphemeralPolicy,
  index: ToolIndex = indexTools(entries),
): Transform {
  const tools = index.entries.length === entries.length ? index : indexTools(entries);
  const commands = tools.bashCommands;
  const sites: Site[] = [];
  // Commands repeat (`git status` dozens of times); the predicate tokenises, so ask once per command.
  const verdicts = new Map<string, boolean>();
  if (commands.size > 0) {
    // Only the tool_result blocks, from the shared index: no walk over every block of the transcript.
    const results = tools.results;
    for (let siteIndex = 0; siteIndex < results.length; siteIndex += 1) {
      const site = results[siteIndex] as ResultSite;
      const command = commands.get(site.toolUseId);
      if (command === undefined) continue;
      let verdict = verdicts.get(command);
      if (verdict === undefined) {
        // The one glance/expiry predicate: what the coordinator may run itself is exactly what expires.
        verdict = isEphemeral(command);
        verdicts.set(command, verdict);
      }
      if (!verdict) continue;
      const now = siteNow(tools, entries, site);
      if (now === null) continue;
      const length = now.length;
      if (length === null || (length > policy.maxChars && longerThan(now.block['content'], policy.maxChars)))
        continue;
      sites.push({ entryIndex: site.entryIndex, blockIndex: site.blockIndex, command });
    }
  }
  const targets =
    policy.keepRecent > 0 ? sites.slice(0, Math.max(0, sites.length - policy.keepRecent)) : sites;
  if (targets.length === 0) return { entries: entries.slice(), report: { expired: 0 } };

  const turnsAfter = modelTurnsAfter(tools, targets);
  const replacements = new Map<number, Map<number, string>>();
  const placeholderOf = templateFiller(policy.text);
  for (let siteIndex = 0; siteIndex < targets.length; siteIndex += 1) {
    const site = targets[siteIndex] as Site;
    const text = placeholderOf({
      cmd: commandLabel(site.command),
      age: Math.max(1, turnsAfter[siteIndex] ?? 1),
    });
    const forEntry = replacements.get(site.entryIndex) ?? new Map<number, string>();
    forEntry.set(site.blockIndex, text);
    replacements.set(site.entryIndex, forEntry);
  }
  return { entries: replaced(entries, replacements), report: { expired: targets.length } };
}

/** The first line of a command, at most 60 characters, in backticks. */
export function commandLabel(command: string): string {
  const firstLine = command.trim().split(/\r?\n/, 1)[0] ?? '';
  const head = headByCodePoints(firstLine, 60);
  return `\`${head}${head.length < firstLine.length ? '…' : ''}\``;
}

/**
 * For each site, how many model turns (distinct assistant messages) follow its entry. The reference called
 * the ordinal among glance results "turns ago" (decisions.md D412); this counts real turns. Read from the
 * index's list of assistant entries, walked once from the end, rather than from every entry.
 */
function modelTurnsAfter(index: ToolIndex, sites: readonly Site[]): number[] {
  const counts = new Array<number>(sites.length).fill(0);
  const seen = new Set<string>();
  let next = index.assistants.length - 1;
  // Sites are in transcript order: walk them from the last, counting the replies after each.
  for (let siteIndex = sites.length - 1; siteIndex >= 0; siteIndex -= 1) {
    const position = (sites[siteIndex] as Site).entryIndex;
    while (next >= 0 && (index.assistants[next] as number) > position) {
      seen.add(index.replyKeys[next] as string);
      next -= 1;
    }
    counts[siteIndex] = seen.size;
  }
  return counts;
}

/** True when the result's text has more than `max` code points (only called when `.length` says it may). */
function longerThan(content: unknown, max: number): boolean {
  const text = resultText(content);
  return text !== null && codePointLength(text) > max;
}
