/**
 * Every stored entry of a session, its subagents' transcripts included, exactly as stored. Used to price
 * what a killed process spent (`completeAbandonedRows`); the copy the model gets on resume is rewritten by
 * the store's load layers (trim, prune), which may drop entries that were paid for.
 *
 * @module
 */
import type { SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { storeKeyText } from './cost-breakdown.js';

/** The session's main and subagent entries, untransformed when the store is a SQLite file. */
export async function sessionEntries(
  store: SessionStore,
  projectKey: string,
  sessionId: string,
): Promise<SessionStoreEntry[]> {
  return (await sessionTranscripts(store, projectKey, sessionId)).flatMap((transcript) => transcript.entries);
}

/** The same entries by transcript, each with its store key as text (`projectKey/sessionId[/subpath]`). */
export async function sessionTranscripts(
  store: SessionStore,
  projectKey: string,
  sessionId: string,
): Promise<Array<{ key: string; entries: SessionStoreEntry[] }>> {
  // A second, read-only connection reads the rows as written; WAL lets it sit beside the writer.
  const reader =
    store instanceof SqliteSessionStore ? new SqliteSessionStore(store.path, { readonly: true }) : store;
  try {
    const main = (await reader.load({ projectKey, sessionId })) ?? [];
    const subpaths = reader.listSubkeys ? await reader.listSubkeys({ projectKey, sessionId }) : [];
    const subagents = await Promise.all(
      subpaths.map(async (subpath) => (await reader.load({ projectKey, sessionId, subpath })) ?? []),
    );
    return [
      { key: storeKeyText({ projectKey, sessionId }), entries: main },
      ...subagents.map((entries, index) => ({
        key: storeKeyText({ projectKey, sessionId, subpath: subpaths[index] ?? '' }),
        entries,
      })),
    ];
  } finally {
    if (reader !== store && reader instanceof SqliteSessionStore) reader.close();
  }
}
