/**
 * What `repairTranscript` reports of each change it made to the copy, and the callback every repair pass
 * records its changes through.
 *
 * @module
 */
import type { Entry } from './entry-content.js';

/** What one repair did. */
export type RepairKind =
  | 'dropped-duplicate-entry'
  | 'renamed-duplicate-uuid'
  | 'renamed-duplicate-tool-use-id'
  | 'dropped-duplicate-result'
  | 'dropped-orphan-result'
  | 'moved-result'
  | 'dropped-empty-message'
  | 'reordered-thinking'
  | 'relinked-parent'
  | 'dropped-synthetic-leaf'
  | 'answered-unknown-outcome';

/** One change made to the copy: its kind, the entry it touched (uuid in the original), the specifics. */
export interface Repair {
  kind: RepairKind;
  uuid: string | null;
  detail: string;
}

/** Records one change: its kind, the entry it touched (null for none), and the specifics. */
export type Log = (kind: RepairKind, entry: Entry | null, detail: string) => void;
