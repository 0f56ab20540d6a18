/**
 * Moving every session of one project key to another inside a session store (`SqliteSessionStore.rekey`),
 * for a project folder that was moved or renamed.
 *
 * @module
 */
import { childRange, sessionPrefix } from './store-key.js';
import type { StatementCache } from './store-queries.js';

/**
 * Moves every session of `fromProjectKey` to `toProjectKey`: main and subagent transcripts keep their
 * entries, `seq` and mtime; summaries move with them. A session whose id already has anything under the
 * target key is skipped (never merged). Run inside one write transaction.
 *
 * @returns the number of sessions moved.
 */
export function rekeyProject(
  statements: StatementCache,
  fromProjectKey: string,
  toProjectKey: string,
): number {
  const { low, high } = childRange(fromProjectKey);
  const keys = (statements.get('metaKeysInRange').all(low, high) as Array<{ store_key: string }>).map(
    (row) => row.store_key,
  );
  const bySession = new Map<string, string[]>();
  for (const key of keys) {
    const sessionId = key.slice(low.length).split('/')[0] ?? '';
    bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), key]);
  }
  let moved = 0;
  for (const [sessionId, sessionKeys] of bySession) {
    if (sessionExists(statements, toProjectKey, sessionId)) continue;
    for (const key of sessionKeys) {
      const target = toProjectKey + key.slice(fromProjectKey.length);
      statements.get('moveEntries').run(target, key);
      statements.get('moveMeta').run(target, key);
    }
    statements.get('moveSummary').run(toProjectKey, fromProjectKey, sessionId);
    moved += 1;
  }
  return moved;
}

/** True when anything (main or subagent transcript, or summary) is stored for the session. */
function sessionExists(statements: StatementCache, projectKey: string, sessionId: string): boolean {
  const main = sessionPrefix(projectKey, sessionId);
  const { low, high } = childRange(main);
  return (
    statements.get('hasMeta').get(main) !== undefined ||
    statements.get('hasMetaInRange').get(low, high) !== undefined ||
    statements.get('hasSummary').get(projectKey, sessionId) !== undefined
  );
}
