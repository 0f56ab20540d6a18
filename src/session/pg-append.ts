/**
 * One `append` of `PgSessionStore`: the same rules as the SQLite store's `appendBatch` (uuid de-duplication,
 * gapless `seq`, strictly increasing `meta.mtime`, summary folded in the same transaction), in one PostgreSQL
 * transaction that holds the session's advisory lock.
 *
 * @module
 */
import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import type { ClientBase } from 'pg';
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
}

/** The advisory lock key of a session: two schemas of one database never wait for each other's writers. */
export function sessionLockKey(schema: string, key: SessionKey): string {
  return `${schema}:${sessionPrefix(key.projectKey, key.sessionId)}`;
}

/**
 * Stores `entries` under `key` inside the open transaction on `client` (the caller begins and commits).
 * Entries whose `uuid` is already stored for the key, or came earlier in the batch, are skipped; uuid-less
 * entries are always kept. Returns false when nothing survived: the caller then rolls back, so a replay
 * changes nothing (no mtime, no summary).
 *
 * Why the lock rather than `ON CONFLICT DO NOTHING` per row: `seq` must be gapless and in batch order, so
 * which rows survive has to be known before numbering; holding the session's lock, no other writer can add
 * a uuid between the lookup and the insert, on this host or any other.
 */
export async function appendPgBatch(
  client: ClientBase,
  context: PgAppendContext,
  key: SessionKey,
  payloads: readonly string[],
  entries: readonly SessionStoreEntry[],
): Promise<boolean> {
  const { queries } = context;
  const target = storeKey(key);
  await client.query(queries.lockSession, [sessionLockKey(context.schema, key)]);
  const uids = entries.map(uidOf);
  const candidates = [...new Set(uids.filter((uid): uid is string => uid !== null))];
  const [metaResult, storedResult] = [
    await client.query<{ mtime: string; next_seq: string }>(queries.metaOf, [target]),
    candidates.length === 0
      ? { rows: [] as Array<{ uid: string }> }
      : await client.query<{ uid: string }>(queries.storedUids, [target, candidates]),
  ];
  const meta = metaResult.rows[0];
  const seen = new Set(storedResult.rows.map((row) => row.uid));
  let seq = meta === undefined ? await nextSeqWithoutMeta(client, queries, target) : Number(meta.next_seq);
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
  if (kept.length === 0) return false;
  await client.query(queries.insertEntries, [target, seqs, keptUids, keptPayloads]);
  const storedMtime = meta === undefined ? 0 : Number(meta.mtime);
  const now = context.clock.next(storedMtime);
  await client.query(queries.writeMeta, [target, now, seq]);
  if (isMainKey(key)) {
    const previous = await previousSummary(client, context, key, firstSeq);
    const folded = foldSessionSummary(previous, key, kept, { mtime: now });
    await client.query(queries.writeSummary, [key.projectKey, key.sessionId, now, JSON.stringify(folded)]);
  }
  return true;
}

/** The session's summary before this batch; rebuilt from the stored transcript when absent or unreadable. */
async function previousSummary(
  client: ClientBase,
  context: PgAppendContext,
  key: SessionKey,
  firstSeq: number,
): Promise<SessionSummaryEntry | undefined> {
  const { rows } = await client.query<{ mtime: string; data: string }>(context.queries.summaryOf, [
    key.projectKey,
    key.sessionId,
  ]);
  const row = rows[0];
  if (row !== undefined) {
    const decoded = decodeSummary({ mtime: Number(row.mtime), data: row.data, session_id: key.sessionId });
    if (decoded !== null) return decoded;
  }
  if (firstSeq === 0 && row === undefined) return undefined;
  return await foldStored(client, context, key, firstSeq, row === undefined ? 0 : Number(row.mtime));
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

/** For a key with entries but no meta row (not written by flower; tolerated): one past the highest seq. */
async function nextSeqWithoutMeta(client: ClientBase, queries: PgQueries, target: string): Promise<number> {
  const { rows } = await client.query<{ top: string | null }>(queries.maxSeq, [target]);
  const top = rows[0]?.top ?? null;
  return top === null ? 0 : Number(top) + 1;
}

/** The de-duplication key of an entry: its `uuid` when it is a non-empty string (as the SQLite store). */
function uidOf(entry: SessionStoreEntry): string | null {
  return typeof entry.uuid === 'string' && entry.uuid !== '' ? entry.uuid : null;
}
