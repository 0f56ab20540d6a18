/**
 * `PgSessionStore.rekey`: moving every session of one project key to another on a PostgreSQL server, with
 * the SQLite store's rules (see `rekey-project.ts`).
 *
 * @module
 */
import type { ClientBase } from 'pg';

import type { PgFlowerQueries } from './pg-flower-queries.js';
import { childRange, sessionPrefix } from './store-key.js';

/**
 * Moves every session of `fromProjectKey` to `toProjectKey` in one transaction: main and subagent transcripts
 * keep their entries, `seq` and mtime; summaries move with them. A session whose id already has anything
 * under the target key is skipped (never merged). Both project keys' advisory locks are held, so two hosts
 * re-keying at once move each session once.
 *
 * @returns the number of sessions moved.
 */
export async function rekeyPgProject(
  client: ClientBase,
  queries: PgFlowerQueries,
  lockKeys: { from: string; to: string },
  fromProjectKey: string,
  toProjectKey: string,
): Promise<number> {
  await client.query('BEGIN');
  try {
    // Always in the same order, so two re-keys in opposite directions cannot deadlock.
    for (const lock of [lockKeys.from, lockKeys.to].sort()) await client.query(queries.lockProject, [lock]);
    const { low, high } = childRange(fromProjectKey);
    const { rows } = await client.query<{ store_key: string }>(queries.metaKeysInRange, [low, high]);
    const bySession = new Map<string, string[]>();
    for (const { store_key: key } of rows) {
      const sessionId = key.slice(low.length).split('/')[0] ?? '';
      bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), key]);
    }
    let moved = 0;
    for (const [sessionId, keys] of bySession) {
      if (await sessionExists(client, queries, toProjectKey, sessionId)) continue;
      for (const key of keys) {
        const target = toProjectKey + key.slice(fromProjectKey.length);
        await client.query(queries.moveEntries, [target, key]);
        await client.query(queries.moveMeta, [target, key]);
      }
      await client.query(queries.moveSummary, [toProjectKey, fromProjectKey, sessionId]);
      moved += 1;
    }
    await client.query('COMMIT');
    return moved;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** True when anything (main or subagent transcript, or summary) is stored for the session. */
async function sessionExists(
  client: ClientBase,
  queries: PgFlowerQueries,
  projectKey: string,
  sessionId: string,
): Promise<boolean> {
  const main = sessionPrefix(projectKey, sessionId);
  const { low, high } = childRange(main);
  const found = await Promise.all([
    client.query(queries.hasMeta, [main]),
    client.query(queries.hasMetaInRange, [low, high]),
    client.query(queries.hasSummary, [projectKey, sessionId]),
  ]);
  return found.some((result) => result.rows.length > 0);
}
