/**
 * Deleting one transcript from a session store (`SqliteSessionStore.delete`).
 *
 * @module
 */
import type { SessionKey } from '../agent/claude-sdk.js';
import { childRange, isMainKey, storeKey } from './store-key.js';
import type { StatementCache } from './store-queries.js';

/**
 * Deletes the transcript at `key`. For a main key this cascades to its summary and to every subagent
 * transcript of the session, so no orphans remain. Run inside one write transaction.
 */
export function deleteTranscript(statements: StatementCache, key: SessionKey): void {
  const target = storeKey(key);
  statements.get('deleteEntries').run(target);
  statements.get('deleteMeta').run(target);
  if (!isMainKey(key)) return;
  const { low, high } = childRange(target);
  statements.get('deleteEntriesInRange').run(low, high);
  statements.get('deleteMetaInRange').run(low, high);
  statements.get('deleteSummary').run(key.projectKey, key.sessionId);
}
