/**
 * Re-attaches the children of removed entries to their nearest surviving ancestor (docs/context-economy.md,
 * structural red line 3). The harness rebuilds a conversation by walking `parentUuid` back from the leaf, so
 * one broken link would silently lose all earlier history.
 *
 * @module
 */
import { parentOf, type Entry } from './entry-content.js';

/**
 * Fields that name another entry by uuid. Besides `parentUuid` the harness follows `logicalParentUuid`
 * (across a compact boundary) and `sourceToolAssistantUUID` (a result's tool call), and a `last-prompt`
 * entry names the leaf to resume from in `leafUuid` (seen in Claude Code 2.1.334).
 */
export const UUID_REFERENCE_FIELDS = [
  'parentUuid',
  'logicalParentUuid',
  'sourceToolAssistantUUID',
  'leafUuid',
] as const;

/**
 * Returns the entries whose uuid is not in `drop`, with every reference to a dropped uuid re-pointed to the
 * nearest surviving ancestor (or `null` when none survives). Pass the full list, dropped entries included:
 * the ancestry of a dropped entry is read from the dropped entry itself, so pre-filtering would break
 * removals in the middle of a chain. The input array and its entries are not modified.
 */
export function relink(entries: readonly Entry[], drop: ReadonlySet<string>): Entry[] {
  if (drop.size === 0) return [...entries];
  // One walk (it runs over every entry of every resume, in code not yet optimised): dropped entries leave
  // their parent behind, survivors go out as they are, and the few survivors naming a dropped uuid are
  // noted and copied afterwards, once every dropped entry's parent is known (a child may come first;
  // docs/decisions.md D426).
  const parents = new Map<string, string | null>();
  const out: Entry[] = [];
  const repoint: number[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    const uuid = entry.uuid;
    if (typeof uuid === 'string' && uuid !== '' && drop.has(uuid)) {
      parents.set(uuid, parentOf(entry));
      continue;
    }
    // One named read per field (the fields of UUID_REFERENCE_FIELDS): a read by a computed key on entries
    // of a hundred shapes is several times slower, and this runs once per entry on every resume.
    if (
      names(drop, entry['parentUuid']) ||
      names(drop, entry['logicalParentUuid']) ||
      names(drop, entry['sourceToolAssistantUUID']) ||
      names(drop, entry['leafUuid'])
    ) {
      repoint.push(out.length);
    }
    out.push(entry);
  }
  const survivor = (start: string): string | null => {
    const seen = new Set<string>();
    let current: string | null = start;
    // The cycle guard matters: a corrupt transcript with a parent loop must not hang a resume.
    while (current !== null && drop.has(current) && !seen.has(current)) {
      seen.add(current);
      current = parents.get(current) ?? null;
    }
    return current !== null && drop.has(current) ? null : current;
  };
  for (const position of repoint) {
    const entry = out[position] as Entry;
    const copy: Record<string, unknown> = { ...entry };
    for (const field of UUID_REFERENCE_FIELDS) {
      const target = entry[field];
      if (typeof target === 'string' && drop.has(target)) copy[field] = survivor(target);
    }
    out[position] = copy as Entry;
  }
  return out;
}

/** True when `reference` is a uuid in `drop`. */
function names(drop: ReadonlySet<string>, reference: unknown): boolean {
  return typeof reference === 'string' && drop.has(reference);
}
