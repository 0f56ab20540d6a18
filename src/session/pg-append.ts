/**
 * One `append` of `PgSessionStore`: the same rules as the SQLite store's `appendBatch` (uuid de-duplication,
 * gapless `seq`, strictly increasing `meta.mtime`, summary folded in the same transaction), in one PostgreSQL
 * transaction that holds the session's advisory lock. Four round trips whatever the batch size: begin and
 * lock, read, write, commit.
 *
 * @module
 */
import type { ClientBase } from 'pg';

import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import type { MtimeClock } from './append-batch.js';
import type { PgQueries } from './pg-queries.js';
import { decodeSummary } from './session-summaries.js';
import { parseStoredEntry } from './store-errors.js';
import { isMainKey, sessionPrefix, storeKey } from './store-key.js';

/** What {@link appendPgBatch} works with. */
export interface PgAppendContext {
  readonly queries: PgQueries;
  /** The schema, part of the advisory lock's key. */
  readonly schema: string;
  readonly clock: MtimeClock;
  /** The redacted location, for error messages. */
  readonly location: string;
  /** The driver's literal quoting (`pg.escapeLiteral`). */
  readonly escapeLiteral: (value: string) => string;
}

/** The advisory lock key of a session: two schemas of one database never wait for each other's writers. */
export function sessionLockKey(schema: string, key: SessionKey): string {
  return `${schema}:${sessionPrefix(key.projectKey, key.sessionId)}`;
}

interface AppendState {
  mtime: string | null;
  next_seq: string | null;
  top: string | null;
  stored: string[];
  summary_mtime: string | null;
  summary_data: string | null;
}

/**
 * Stores `entries` (serialised as `payloads`) under `key` in one transaction on `client`. Entries whose
 * `uuid` is already stored for the key, or came earlier in the batch, are skipped; uuid-less entries are
 * always kept. A batch with no survivors is rolled back, so a replay changes nothing (no mtime, no summary).
 *
 * Why a lock (docs/decisions.md D422) rather than `ON CONFLICT DO NOTHING` per row: `seq` must be gapless and in batch order, so which
 * rows survive has to be known before numbering. Every write of a session (main and subagent transcripts,
 * summary, delete) takes the session's transaction-scoped advisory lock first, so no other writer, on this
 * host or another, adds a uuid or a `seq` between the read and the write; the lock ends with the transaction,
 * also when the connection or the process dies.
 */
export async function appendPgBatch(
  client: ClientBase,
  context: PgAppendContext,
  key: SessionKey,
  payloads: readonly string[],
  entries: readonly SessionStoreEntry[],
): Promise<void> {
  const { queries } = context;
  const target = storeKey(key);
  const main = isMainKey(key);
  // One simple-protocol round trip for all three; the key is quoted by the driver's own literal escaping.
  // `synchronous_commit = off` for this transaction only: the commit returns before the server flushes its
  // log, as SQLite's `synchronous=NORMAL` in WAL mode does. A server crash can lose the last moments of
  // appends, never consistency, and the SDK wrote the transcript locally before mirroring it here
  // (docs/decisions.md D423).
  await client.query(
    `BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_advisory_xact_lock(hashtextextended(${context.escapeLiteral(sessionLockKey(context.schema, key))}, 0))`,
  );
  try {
    const uids = entries.map(uidOf);
    const candidates = [...new Set(uids.filter((uid): uid is string => uid !== null))];
    // Named statements: parsed and planned once per connection, not on every append.
    const { rows } = await client.query<AppendState>({
      name: `${context.schema}.appendState`,
      text: queries.appendState,
      values: [target, candidates, main ? key.projectKey : null, main ? key.sessionId : null],
    });
    const state = rows[0]!;
    const seen = new Set(state.stored);
    let seq =
      state.next_seq !== null ? Number(state.next_seq) : state.top === null ? 0 : Number(state.top) + 1;
    const firstSeq = seq;
    const seqs: number[] = [];
    const keptUids: Array<string | null> = [];
    const keptPayloads: string[] = [];
    const kept: SessionStoreEntry[] = [];
    entries.forEach((entry, index) => {
      const uid = uids[index] ?? null;
      if (uid !== null) {
        if (seen.has(uid)) return;
        seen.add(uid);
      }
      seqs.push(seq);
      keptUids.push(uid);
      keptPayloads.push(payloads[index]!);
      kept.push(entry);
      seq += 1;
    });
    if (kept.length === 0) {
      await client.query('ROLLBACK');
      return;
    }
    const now = context.clock.next(state.mtime === null ? 0 : Number(state.mtime));
    const batch = [target, seqs, keptUids, keptPayloads, now, seq];
    if (main) {
      const previous = await previousSummary(client, context, key, firstSeq, state);
      const folded = foldSessionSummary(previous, key, kept, { mtime: now });
      await client.query({
        name: `${context.schema}.writeMainBatch`,
        text: queries.writeMainBatch,
        values: [...batch, key.projectKey, key.sessionId, JSON.stringify(folded)],
      });
    } else {
      await client.query({ name: `${context.schema}.writeBatch`, text: queries.writeBatch, values: batch });
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The session's summary before this batch; rebuilt from the stored transcript when absent or unreadable. */
async function previousSummary(
  client: ClientBase,
  context: PgAppendContext,
  key: SessionKey,
  firstSeq: number,
  state: AppendState,
): Promise<SessionSummaryEntry | undefined> {
  const mtime = state.summary_mtime === null ? 0 : Number(state.summary_mtime);
  if (state.summary_data !== null) {
    const decoded = decodeSummary({ mtime, data: state.summary_data, session_id: key.sessionId });
    if (decoded !== null) return decoded;
  }
  if (firstSeq === 0 && state.summary_data === null) return undefined;
  return await foldStored(client, context, key, firstSeq, mtime);
}

/** Folds the stored main transcript (entries with `seq < beforeSeq`) into a fresh summary. */
export async function foldStored(
  client: ClientBase,
  context: Pick<PgAppendContext, 'queries' | 'location'>,
  key: SessionKey,
  beforeSeq: number,
  mtime: number,
): Promise<SessionSummaryEntry> {
  const target = storeKey(key);
  const { rows } = await client.query<{ seq: string; payload: string }>(context.queries.entriesBefore, [
    target,
    beforeSeq,
  ]);
  const entries = rows.map((row) => parseStoredEntry(context.location, target, Number(row.seq), row.payload));
  return foldSessionSummary(undefined, { projectKey: key.projectKey, sessionId: key.sessionId }, entries, {
    mtime,
  });
}

/** The de-duplication key of an entry: its `uuid` when it is a non-empty string (as the SQLite store). */
function uidOf(entry: SessionStoreEntry): string | null {
  return typeof entry.uuid === 'string' && entry.uuid !== '' ? entry.uuid : null;
}
