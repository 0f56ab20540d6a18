/**
 * The repairs of reused identities in a transcript `flower doctor --fix` copies: an entry's uuid and a call's
 * tool_use id, each renamed (or the entry dropped when it is a plain second copy) so every reference stays
 * pointed at the entry it meant.
 *
 * @module
 */
import {
  blocksOf,
  isToolResult,
  isToolUse,
  parentOf,
  uuidOf,
  withBlocks,
  type Entry,
} from './entry-content.js';
import { derivedUuid } from './heal-orphans.js';
import { UUID_REFERENCE_FIELDS } from './relink.js';
import type { Log } from './repair.js';

/**
 * A later entry with a uuid already used is dropped when it is a copy of the first (written twice), else it
 * gets a derived uuid and the entries after it that name that uuid follow it.
 */
export function renameDuplicateUuids(entries: readonly Entry[], log: Log): Entry[] {
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
export function renameDuplicateToolUseIds(entries: readonly Entry[], log: Log): Entry[] {
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
