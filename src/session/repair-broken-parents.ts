/**
 * The repair of a `parentUuid` that names no stored entry in a transcript `flower doctor --fix` copies: the
 * chain is joined to the entry before instead.
 *
 * @module
 */
import { parentOf, uuidOf, type Entry } from './entry-content.js';
import type { Log } from './repair.js';

/** A `parentUuid` naming no entry of the transcript becomes the uuid of the nearest entry before it. */
export function relinkBroken(entries: readonly Entry[], log: Log): Entry[] {
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
