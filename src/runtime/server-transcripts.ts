/**
 * The transcripts of a run on a PostgreSQL store, read as stored (no load layer), for the commands that look
 * at a whole run — `analyze`, `doctor`, the dashboard — where a SQLite run's are every row of its
 * `sessions.db` (docs/scaling.md, docs/decisions.md D451).
 *
 * @module
 */
import { projectKey as projectKeyOf } from '../agent/project-key.js';
import type { SessionSummaryEntry } from '../agent/claude-sdk.js';
import type { Entry } from '../session/entry-content.js';
import { PgSessionStore } from '../session/pg-session-store.js';
import { storeKey } from '../session/store-key.js';
import type { RunStoreServer } from './run-stores.js';

/** One stored transcript: a session's main transcript (`subpath` null) or one of its subagents'. */
export interface StoredTranscript {
  projectKey: string;
  sessionId: string;
  subpath: string | null;
  /** Its `store_key` (`projectKey/sessionId[/subpath]`), as in `sessions.db`. */
  key: string;
  entries: Entry[];
}

/** What {@link readServerTranscripts} read. */
export interface ServerTranscripts {
  /** In store-key order, as a SQLite run's are read. */
  transcripts: StoredTranscript[];
  /** The stored summaries of the main transcripts, by session id. */
  summaries: Map<string, SessionSummaryEntry>;
}

/**
 * The project keys a run's transcripts are stored under: its workspace's, and the one its lineage names
 * when that differs (a run whose sessions have not been re-keyed after a move). A server holds many runs;
 * these keys are what make the rows this run's.
 */
export function runProjectKeys(workspace: string, lineage: Record<string, unknown> | null): string[] {
  const keys = [projectKeyOf(workspace)];
  const recorded = lineage?.['project_key'];
  if (typeof recorded === 'string' && recorded !== '' && !keys.includes(recorded)) keys.push(recorded);
  return keys;
}

/**
 * Reads every transcript (main and subagent) and summary stored under `projectKeys` on `server`, as stored.
 *
 * @throws FlowerError (`STORE_UNREADABLE`) naming the redacted location when the server cannot be read.
 */
export async function readServerTranscripts(
  server: Pick<RunStoreServer, 'location' | 'schema'>,
  projectKeys: readonly string[],
): Promise<ServerTranscripts> {
  const store = new PgSessionStore(server.location, { schema: server.schema });
  try {
    const transcripts: StoredTranscript[] = [];
    const summaries = new Map<string, SessionSummaryEntry>();
    for (const projectKey of projectKeys) {
      for (const summary of await store.listSessionSummaries(projectKey)) {
        summaries.set(summary.sessionId, summary);
      }
      for (const { sessionId } of await store.listSessions(projectKey)) {
        const main = { projectKey, sessionId };
        transcripts.push({
          ...main,
          subpath: null,
          key: storeKey(main),
          entries: (await store.load(main)) ?? [],
        });
        for (const subpath of await store.listSubkeys(main)) {
          const key = { ...main, subpath };
          transcripts.push({ ...key, key: storeKey(key), entries: (await store.load(key)) ?? [] });
        }
      }
    }
    // `sessions.db` is read in store-key order; the figures that depend on order see the same here.
    transcripts.sort((first, second) => (first.key < second.key ? -1 : first.key > second.key ? 1 : 0));
    return { transcripts, summaries };
  } finally {
    await store.close();
  }
}
