/**
 * The `summaries` table of a session store: folding each main-transcript batch into the session's summary
 * with the SDK's `foldSessionSummary`, reading summaries back, and rebuilding rows the Python flower wrote
 * (its own summary shape) from the stored transcript.
 *
 * @module
 */
import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import type { SqliteConnection } from './sqlite-driver.js';
import { parseStoredEntry } from './store-errors.js';
import { storeKey } from './store-key.js';
import type { StatementCache } from './store-queries.js';

/** A `meta` row: the transcript's storage mtime (epoch ms) and the `seq` its next entry gets. */
export interface MetaRow {
  mtime: number;
  next_seq: number;
}

interface SummaryRow {
  mtime: number;
  data: string;
}

/**
 * A summary folded inside an append's transaction, with the connection's `PRAGMA data_version` at that time.
 * Once committed, it is what the next batch of the same key folds into, while nothing else changed the file.
 */
export interface FoldedSummary {
  summary: SessionSummaryEntry;
  dataVersion: number;
}

/** The summary this instance last wrote for a main key, and what it knew about the file then. */
interface KnownSummary extends FoldedSummary {
  nextSeq: number;
}

/**
 * Reads and writes the summaries of one store. Remembers the summary it last wrote per main key, so the next
 * batch folds into it without reading and parsing the row again — but only while no other connection (in
 * this process or another) has committed anything since (`PRAGMA data_version` unchanged) and the key's
 * `meta` row is still the one written beside it. Otherwise the row is read as before.
 */
export class SessionSummaries {
  readonly #statements: StatementCache;
  readonly #path: string;
  readonly #known = new Map<string, KnownSummary>();

  /**
   * @param statements the store's prepared statements.
   * @param path the database path, for error messages.
   */
  constructor(statements: StatementCache, path: string) {
    this.#statements = statements;
    this.#path = path;
  }

  /**
   * Folds `kept` (the batch's stored entries, `seq` from `firstSeq`) into the summary of the main key and
   * writes it with `mtime`. Runs inside the append's transaction; call {@link SessionSummaries.remember} with
   * the result once that transaction has committed.
   *
   * @param meta the key's `meta` row before this batch, if any.
   */
  fold(
    key: SessionKey,
    meta: MetaRow | undefined,
    firstSeq: number,
    kept: SessionStoreEntry[],
    mtime: number,
  ): FoldedSummary {
    const { data_version: dataVersion } = this.#statements.get('dataVersion').get() as {
      data_version: number;
    };
    const known = meta === undefined ? undefined : this.#known.get(storeKey(key));
    const previous =
      known !== undefined &&
      known.dataVersion === dataVersion &&
      known.summary.mtime === meta?.mtime &&
      known.nextSeq === meta.next_seq
        ? known.summary
        : this.#previous(key, firstSeq);
    const summary = foldSessionSummary(previous, key, kept, { mtime });
    this.#write(key, summary);
    return { summary, dataVersion };
  }

  /** Records a committed summary and the `meta.next_seq` written with it (see the class description). */
  remember(key: SessionKey, folded: FoldedSummary, nextSeq: number): void {
    this.#known.set(storeKey(key), { ...folded, nextSeq });
  }

  /** Forgets every remembered summary (after a delete or rekey, or on close). */
  forget(): void {
    this.#known.clear();
  }

  /**
   * The summary of every main transcript of a project. A Python-written row is rebuilt from the stored
   * transcript; with a `writable` connection the rebuilt row is also written back, under the write lock.
   */
  list(projectKey: string, writable: SqliteConnection | null): SessionSummaryEntry[] {
    const rows = this.#statements.get('summariesOf').all(projectKey) as Array<
      SummaryRow & { session_id: string }
    >;
    return rows.flatMap((row) => {
      const decoded = decodeSummary(row);
      if (decoded !== null) return [decoded];
      const key = { projectKey, sessionId: row.session_id };
      if (writable === null) return [this.#foldStored(key, Number.MAX_SAFE_INTEGER, row.mtime)];
      // Re-read under the write lock: another process may have rebuilt, updated or deleted it meanwhile.
      return writable.immediate(() => {
        const current = this.#row(key);
        if (current === undefined) return [];
        const now = decodeSummary({ ...current, session_id: key.sessionId });
        if (now !== null) return [now];
        const rebuilt = this.#foldStored(key, Number.MAX_SAFE_INTEGER, current.mtime);
        this.#write(key, rebuilt);
        return [rebuilt];
      });
    });
  }

  /** The summary before a batch; rebuilt from the stored transcript when absent or Python-written. */
  #previous(key: SessionKey, firstSeq: number): SessionSummaryEntry | undefined {
    const row = this.#row(key);
    const decoded = row === undefined ? null : decodeSummary({ ...row, session_id: key.sessionId });
    if (decoded !== null) return decoded;
    if (firstSeq === 0 && row === undefined) return undefined;
    return this.#foldStored(key, firstSeq, row?.mtime ?? 0);
  }

  #row(key: SessionKey): SummaryRow | undefined {
    return this.#statements.get('summaryOf').get(key.projectKey, key.sessionId) as SummaryRow | undefined;
  }

  /** Folds the stored main transcript (entries with `seq < beforeSeq`) into a fresh summary. */
  #foldStored(key: SessionKey, beforeSeq: number, mtime: number): SessionSummaryEntry {
    const target = storeKey(key);
    const entries: SessionStoreEntry[] = [];
    for (const row of this.#statements.get('entriesBefore').iterate(target, beforeSeq)) {
      const { seq, payload } = row as { seq: number; payload: string };
      entries.push(parseStoredEntry(this.#path, target, seq, payload));
    }
    return foldSessionSummary(undefined, { projectKey: key.projectKey, sessionId: key.sessionId }, entries, {
      mtime,
    });
  }

  #write(key: SessionKey, summary: SessionSummaryEntry): void {
    this.#statements
      .get('writeSummary')
      .run(key.projectKey, key.sessionId, summary.mtime, JSON.stringify(summary));
  }
}

/**
 * A summary row as written by this store (the TS `SessionSummaryEntry` JSON), or `null` for anything else
 * (the Python flower's shape with `session_id`, or damage), which the caller rebuilds from the transcript.
 */
export function decodeSummary(row: SummaryRow & { session_id: string }): SessionSummaryEntry | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.data);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { sessionId, data } = parsed as { sessionId?: unknown; data?: unknown };
  if (typeof sessionId !== 'string' || typeof data !== 'object' || data === null || Array.isArray(data))
    return null;
  return { sessionId: row.session_id, mtime: row.mtime, data: data as Record<string, unknown> };
}
