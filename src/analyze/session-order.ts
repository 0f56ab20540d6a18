/**
 * The main sessions in the order they ran: the manifest's rows in order, each row's retired sessions (the
 * ones its handoffs replaced) before its own. Sorting by store key, as the reference did, orders them by
 * UUID and scrambles a multi-step curve.
 *
 * @module
 */
import type { ManifestRow } from '../runtime/manifest.js';
import type { TranscriptStats } from './transcript-stats.js';

/** Where a main session ran: its first step, and the step whose handoff retired it. */
export interface SessionPlace {
  step: string;
  retiredBy: string | null;
}

/** Each main session's first step and the step that retired it, in the order the manifest ran them. */
export function sessionOrder(rows: readonly ManifestRow[]): Map<string, SessionPlace> {
  const order = new Map<string, SessionPlace>();
  for (const row of rows) {
    for (const retired of Array.isArray(row.retired) ? row.retired : []) {
      const place = order.get(retired);
      if (place === undefined) order.set(retired, { step: row.step, retiredBy: row.step });
      else place.retiredBy = row.step;
    }
    if (typeof row.session_id === 'string' && !order.has(row.session_id)) {
      order.set(row.session_id, { step: row.step, retiredBy: null });
    }
  }
  return order;
}

/** Main transcripts in manifest order; those no row names follow, by their first timestamp. */
export function orderMain(main: TranscriptStats[], order: Map<string, SessionPlace>): TranscriptStats[] {
  const rank = [...order.keys()];
  const position = (transcript: TranscriptStats): number => {
    const index = rank.indexOf(transcript.sessionId);
    return index === -1 ? rank.length : index;
  };
  return [...main].sort(
    (a, b) =>
      position(a) - position(b) ||
      (a.firstAt ?? Number.POSITIVE_INFINITY) - (b.firstAt ?? Number.POSITIVE_INFINITY) ||
      a.key.localeCompare(b.key),
  );
}
