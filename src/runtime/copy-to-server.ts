/**
 * `flower export --to postgres://…`: a SQLite run's transcripts and tool journal copied into a PostgreSQL
 * store, so the run continues there (`--store` / `FLOWER_STORE`) on this host or any other.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { FlowerError } from '../errors.js';
import { readJournalRows } from '../session/journal-rows.js';
import { PgSessionStore } from '../session/pg-session-store.js';
import { PgToolJournal } from '../session/pg-tool-journal.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { SESSIONS_DB } from './run-stores.js';

/** What {@link copyRunToServer} did. */
export interface CopySummary {
  /** Sessions (main transcripts) copied. */
  sessions: number;
  /** Sessions left alone because the server already holds one with the same project key and id. */
  skipped: number;
  /** Transcripts copied (main and subagent). */
  transcripts: number;
  /** Journalled tool calls copied. */
  calls: number;
  /** The server's location with its password replaced by `***`. */
  location: string;
}

/**
 * Copies every session of `<runDir>/sessions.db` (main transcripts, subagent transcripts, summaries as the
 * server folds them) and its tool journal into the PostgreSQL store at `location`, under the same project
 * keys (the workspace has not moved). A session the server already holds is skipped, never merged; the
 * SQLite file is only read. Running it again copies only what is new.
 *
 * @throws FlowerError: `USAGE` for a location that is not a PostgreSQL URL, `STORE_UNREADABLE` for a server
 *   that cannot be used (the password never shown), `NO_RUN` when the run directory has no `sessions.db`.
 */
export async function copyRunToServer(runDir: string, location: string): Promise<CopySummary> {
  const path = join(runDir, SESSIONS_DB);
  const target = new PgSessionStore(location);
  const journal = new PgToolJournal(location, { schema: target.schema });
  try {
    if (!existsSync(path)) {
      throw new FlowerError(
        'NO_RUN',
        `No transcripts to copy in ${runDir}: it holds no ${SESSIONS_DB}. Name the workspace or its run directory.`,
      );
    }
    // Checked before anything is read or sent: an unusable server stops here with one line.
    await target.ready();
    await journal.ready();
    const source = new SqliteSessionStore(path, { readonly: true, inMemoryCopy: true });
    const summary: CopySummary = {
      sessions: 0,
      skipped: 0,
      transcripts: 0,
      calls: 0,
      location: target.location,
    };
    const copied = new Set<string>();
    try {
      for (const projectKey of source.projects()) {
        for (const { sessionId } of await source.listSessions(projectKey)) {
          if (await target.hasSession(projectKey, sessionId)) {
            summary.skipped += 1;
            continue;
          }
          const subpaths = await source.listSubkeys({ projectKey, sessionId });
          // Subagent transcripts first: a session whose main transcript is on the server is complete.
          for (const subpath of subpaths) {
            const key = { projectKey, sessionId, subpath };
            await target.append(key, (await source.load(key)) ?? []);
            summary.transcripts += 1;
          }
          await target.append(
            { projectKey, sessionId },
            (await source.load({ projectKey, sessionId })) ?? [],
          );
          summary.transcripts += 1;
          summary.sessions += 1;
          copied.add(sessionId);
        }
      }
    } finally {
      source.close();
    }
    for (const call of readJournalRows(path)) {
      if (!copied.has(call.sessionId)) continue;
      await journal.record(call);
      summary.calls += 1;
    }
    return summary;
  } finally {
    await Promise.all([target.close(), journal.close()]);
  }
}
