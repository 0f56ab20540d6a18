/**
 * `repairTranscript`: the copy `flower doctor --fix` stores as a new session in place of a transcript the
 * Messages API would reject (docs/doctor.md). It reuses the load pipeline's own surgery — `relink` for
 * every dropped entry, {@link healOrphans} for every call left without a result — and adds the repairs a load
 * never needs because the harness never writes such shapes itself (duplicate ids, empty messages, thinking
 * out of place, a parent that is not stored). Pure: the input array and its entries are not modified.
 *
 * @module
 */
import { uuidOf, type ContentBlock, type Entry } from './entry-content.js';
import { healOrphans } from './heal-orphans.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import type { Log, Repair } from './repair.js';
import { renameDuplicateToolUseIds, renameDuplicateUuids } from './repair-duplicates.js';
import { dropMisplaced, placeMoved } from './repair-misplaced-results.js';
import { relinkBroken } from './repair-broken-parents.js';
import { dropSyntheticLeaf } from './repair-synthetic-leaf.js';
import { reorderThinking } from './repair-thinking-order.js';
import { checkTranscript, type TranscriptFinding } from './transcript-checks.js';

/**
 * The field every entry of a copy `flower doctor --fix` stored carries: the id of the session it replaces.
 * The doctor reads it to know that session's problems were dealt with.
 */
export const REPAIRED_FROM_FIELD = 'repairedFrom';

/** What {@link repairTranscript} made. */
export interface RepairOutcome {
  /** The repaired copy. */
  entries: Entry[];
  /** Every change, in the order they were made; empty when nothing needed repair. */
  repairs: Repair[];
  /** What the checks still find in the copy: what cannot be repaired without losing something. */
  remaining: TranscriptFinding[];
}

/** Options of {@link repairTranscript}. */
export interface RepairOptions {
  /** Written into every entry's `sessionId` field (the copy is a new session). Kept when absent. */
  sessionId?: string;
  /** The answer given to a call without a result. */
  unknownOutcomeText?: string;
}

/**
 * Repairs every rule of {@link checkTranscript} that can be repaired without losing what the transcript says:
 * a later duplicate uuid or tool_use id is renamed (with the references and the result that belong to it), a
 * second answer to one call is dropped, a result that answers no call is dropped, a result away from its call
 * is moved to the turn right after it, an empty message is dropped, thinking blocks go first in their reply,
 * a parent that is not stored becomes the entry before, a trailing synthetic API error is dropped and every
 * call still without a result is answered "outcome unknown". Forks and oversized entries stay (`remaining`).
 */
export function repairTranscript(entries: readonly Entry[], options: RepairOptions = {}): RepairOutcome {
  const repairs: Repair[] = [];
  const log: Log = (kind, entry, detail) => {
    repairs.push({ kind, uuid: entry === null ? null : uuidOf(entry), detail });
  };
  let current = renameDuplicateUuids(entries, log);
  current = renameDuplicateToolUseIds(current, log);
  const moved = new Map<string, ContentBlock>();
  current = dropMisplaced(current, moved, log);
  current = reorderThinking(current, log);
  current = relinkBroken(current, log);
  current = dropSyntheticLeaf(current, log);
  const unknown = options.unknownOutcomeText ?? PLACEHOLDER_TEXT.unknownOutcome;
  const healed = healOrphans(current, unknown);
  if (healed.healed > 0) current = placeMoved(healed.entries, new Set(current.map(uuidOf)), moved, log);
  if (options.sessionId !== undefined) {
    const sessionId = options.sessionId;
    current = current.map((entry) =>
      typeof entry['sessionId'] === 'string' ? { ...entry, sessionId } : entry,
    );
  }
  return { entries: current, repairs, remaining: checkTranscript(current) };
}
