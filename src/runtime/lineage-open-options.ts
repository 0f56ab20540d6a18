/**
 * The options of `Lineage.open` and the notices it gives back: the public shapes around a lineage, apart from
 * the class that reads and writes it.
 *
 * @module
 */
import type { Lang } from '../config/ui-text.js';
import type { WarningCode } from '../events/flower-event.js';

/** A line for the screen about what `open` found: moved, reset or quarantined. */
export interface LineageNotice {
  code: WarningCode;
  text: string;
}

/** Options of {@link Lineage.open}. */
export interface LineageOpenOptions {
  /**
   * Change nothing on disk (for `wakeState`): no quarantine, no rewrite; `remember`, `bump` and
   * `recordHandoff` change only this object. `archive`, an explicit request, still moves files.
   */
  readonly?: boolean;
  /** Names the quarantine copy `lineage.json.corrupt-<runId>`; a fresh run id by default. */
  runId?: string;
  /** Language of the notice texts. */
  lang?: Lang;
  /**
   * Moves the stored sessions when the project key changed (normally `store.rekey`). Called under the lock
   * before the file records the new key; if it throws, the file keeps the old key so the next open retries.
   * Without it the file records the new key at once and the caller must act on {@link Lineage.rekey}.
   */
  rekeyStore?: (from: string, to: string) => unknown;
  /**
   * With `readonly`: the lineage document as read from where the run's records live (PostgreSQL), `null`
   * when there is none, instead of the file.
   */
  document?: Record<string, unknown> | null;
}
