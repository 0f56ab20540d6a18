/**
 * The repair of a transcript `flower doctor --fix` copies that ends in replies the harness made up for an
 * API error: they are dropped, as a load drops them, and what hung off them is re-linked.
 *
 * @module
 */
import { isChatEntry, uuidOf, type Entry } from './entry-content.js';
import { isApiError } from './prune.js';
import { relink } from './relink.js';
import type { Log } from './repair.js';

/** Drops synthetic API-error replies at the end of the conversation (the load drops them too). */
export function dropSyntheticLeaf(entries: readonly Entry[], log: Log): Entry[] {
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
