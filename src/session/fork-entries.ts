/**
 * `forkEntries`: a transcript copied into a new session the way Claude Code's own fork writes one — every
 * entry a new uuid, every reference re-pointed to the new uuids, `sessionId` the new session's, and
 * `forkedFrom` naming the session and entry it was copied from — so the copy and the original can sit in
 * one store and both still resume. `flower doctor --fix` adds `repairedFrom` to say the copy replaces it.
 *
 * @module
 */
import type { Entry } from './entry-content.js';
import { uuidOf } from './entry-content.js';
import { derivedUuid } from './heal-orphans.js';
import { UUID_REFERENCE_FIELDS } from './relink.js';

/** Options of {@link forkEntries}. */
export interface ForkOptions {
  /** The session copied from. */
  from: string;
  /** The new session. */
  to: string;
  /** Extra top-level fields written on every copied entry. */
  mark?: Record<string, unknown>;
}

/**
 * The entries of session `from` as entries of session `to`. New uuids are derived from `to` and the old
 * uuid, so copying twice into one session gives the same copy. The input is not modified.
 */
export function forkEntries(entries: readonly Entry[], options: ForkOptions): Entry[] {
  const renamed = new Map<string, string>();
  for (const entry of entries) {
    const uuid = uuidOf(entry);
    if (uuid !== null && !renamed.has(uuid)) {
      renamed.set(uuid, derivedUuid(`flower-fork:${options.to}:${uuid}`));
    }
  }
  return entries.map((entry) => {
    const copy: Entry = { ...entry, ...options.mark };
    const uuid = uuidOf(entry);
    if (uuid !== null) {
      copy.uuid = renamed.get(uuid) as string;
      copy['forkedFrom'] = { sessionId: options.from, messageUuid: uuid };
    }
    for (const field of UUID_REFERENCE_FIELDS) {
      const target = entry[field];
      if (typeof target === 'string' && renamed.has(target)) copy[field] = renamed.get(target);
    }
    if (typeof entry['sessionId'] === 'string') copy['sessionId'] = options.to;
    return copy;
  });
}
