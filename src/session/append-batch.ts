/**
 * One `append` of the session store: a batch of transcript entries stored in one `BEGIN IMMEDIATE`
 * transaction, de-duplicated by `uuid`, numbered gaplessly, with the key's `meta` row and (for a main
 * transcript) its summary updated in the same transaction.
 *
 * @module
 */
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import type { MetaRow, SessionSummaries } from './session-summaries.js';
import type { SqliteConnection } from './sqlite-driver.js';
import { isMainKey, storeKey } from './store-key.js';
import type { StatementCache } from './store-queries.js';

/** Issues storage times (epoch ms) that strictly increase per store instance and per key. */
export class MtimeClock {
  /** The last mtime issued, so two appends in one millisecond still get increasing times. */
  #last = 0;

  /** Now, but strictly after both the key's stored mtime and the last time this clock issued. */
  next(storedMtime: number): number {
    const now = Math.max(Date.now(), storedMtime + 1, this.#last + 1);
    this.#last = now;
    return now;
  }
}

/** What {@link appendBatch} works with: the store's statements, summaries and clock. */
export interface AppendContext {
  statements: StatementCache;
  summaries: SessionSummaries;
  clock: MtimeClock;
}

/**
 * Stores `entries` under `key`. Entries whose `uuid` is already stored for the key, or came earlier in the
 * batch, are skipped (the SDK retries failed batches); uuid-less entries are always kept. A batch with no
 * survivors changes nothing, so a replay neither advances mtime nor re-folds the summary.
 */
export function appendBatch(
  connection: SqliteConnection,
  context: AppendContext,
  key: SessionKey,
  entries: readonly SessionStoreEntry[],
): void {
  if (entries.length === 0) return;
  const { statements, summaries } = context;
  const target = storeKey(key);
  // Serialise before taking the write lock: it keeps the transaction short, and what is stored is fixed at
  // call time even if the caller later mutates its objects.
  const payloads = entries.map((entry) => JSON.stringify(entry));
  const written = connection.immediate(() => {
    const meta = statements.get('metaOf').get(target) as MetaRow | undefined;
    const firstSeq = meta?.next_seq ?? nextSeqWithoutMeta(statements, target);
    const insert = statements.get('insertEntry');
    const kept: SessionStoreEntry[] = [];
    let seq = firstSeq;
    entries.forEach((entry, index) => {
      // 0 changes: the uuid is stored already, or came earlier in this batch (the insert sees this
      // transaction's rows). One statement per entry instead of a lookup and an insert; only stored entries
      // take a seq, so seq stays gapless.
      if (insert.run(target, seq, uidOf(entry), payloads[index]).changes === 0) return;
      seq += 1;
      kept.push(entry);
    });
    if (kept.length === 0) return null;
    const now = context.clock.next(meta?.mtime ?? 0);
    statements.get('writeMeta').run(target, now, seq);
    if (!isMainKey(key)) return null;
    return { folded: summaries.fold(key, meta, firstSeq, kept, now), nextSeq: seq };
  });
  // Only a committed summary may be reused by the next batch.
  if (written !== null) summaries.remember(key, written.folded, written.nextSeq);
}

/** For a key with entries but no meta row (never written by flower; tolerated): one past the highest seq. */
function nextSeqWithoutMeta(statements: StatementCache, target: string): number {
  const row = statements.get('maxSeq').get(target) as { top: number | null };
  return row.top === null ? 0 : row.top + 1;
}

/** The de-duplication key of an entry: its `uuid` when it is a non-empty string (as the reference). */
function uidOf(entry: SessionStoreEntry): string | null {
  return typeof entry.uuid === 'string' && entry.uuid !== '' ? entry.uuid : null;
}
