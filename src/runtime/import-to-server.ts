/**
 * `flower import run.tar.gz --store postgres://…`: the transcripts and records of an unpacked run archive
 * placed in a PostgreSQL store instead of the run directory, re-keyed for the new workspace, so `flower`
 * there with the same store resumes the same session ids (docs/scaling.md, docs/decisions.md D450).
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { projectKey as projectKeyOf } from '../agent/project-key.js';
import { FlowerError } from '../errors.js';
import { isRecord } from '../internal/is-record.js';
import { PgSessionStore } from '../session/pg-session-store.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { copyRunToServer } from './copy-to-server.js';
import { LINEAGE_FILE } from './lineage.js';
import { readRecord } from './lineage-record.js';
import { readManifest } from './manifest.js';
import { runRecordsFor } from './run-records.js';
import { SESSIONS_DB, type RunStoreServer } from './run-stores.js';

/** What {@link importToServer} placed on the server. */
export interface ServerImport {
  /** The project key the archive's sessions were stored under, and the one they are stored under now. */
  fromProjectKey: string;
  toProjectKey: string;
  /** The session ids the lineage resumes, by step. */
  steps: Record<string, string>;
  /** Where the run's records are now: the redacted location and the run's name. Safe to print. */
  location: string;
}

/** The tag a record change is made under (it names a quarantine copy, should there be one). */
const IMPORT_TAG = 'import';

/**
 * Places the staged run directory `stagedRun` (unpacked from an archive; its `sessions.db` is a copy this
 * call may change) on `server`: the sessions re-keyed from the archive's project key to `where.workspace`'s,
 * then copied with their tool journal; the manifest rows; last the lineage, rewritten for the new
 * workspace (its paths and the new key), since the lineage is what makes the next `flower` resume.
 *
 * Nothing is written when the server already holds records of this run, or any of these sessions under the
 * new key: `RUN_ARCHIVE`, naming the run on the server (never its password) and how to choose another name.
 * A server that fails half-way leaves what it already took (each session is whole: its main transcript is
 * written last); importing again is then refused, and the message says so.
 */
export async function importToServer(
  stagedRun: string,
  archiveKey: string,
  where: { workspace: string; runDir: string },
  server: RunStoreServer,
): Promise<ServerImport> {
  const records = runRecordsFor(where.runDir, server);
  try {
    const [rows, lineageState] = await Promise.all([records.readRows(), records.readLineage()]);
    if (rows.length > 0 || lineageState.kind !== 'missing') throw taken(records.location, 'a run');
    const lineage = stagedLineage(stagedRun);
    const fromProjectKey = typeof lineage?.['project_key'] === 'string' ? lineage['project_key'] : archiveKey;
    const toProjectKey = projectKeyOf(where.workspace);
    const sessionsPath = join(stagedRun, SESSIONS_DB);
    if (existsSync(sessionsPath)) {
      const sessions = rekeyStaged(sessionsPath, fromProjectKey, toProjectKey);
      const held = await heldOnServer(server, toProjectKey, await sessions);
      if (held.length > 0) throw taken(records.location, `session ${held.join(', ')}`);
      await copyRunToServer(stagedRun, server.location);
    }
    const manifest = readManifest(stagedRun);
    if (manifest.length > 0) {
      // Only into an empty run: another import or a run that started meanwhile is never overwritten.
      await records.updateRows(IMPORT_TAG, (current) => (current.length === 0 ? manifest : undefined));
    }
    let steps: Record<string, string> = {};
    if (lineage !== null) {
      const rel = relative(where.runDir, where.workspace).split(sep).join('/');
      // Already in the new place: the workspace's paths and the key its sessions are stored under now,
      // so the next `flower` finds its own lineage and has nothing left to re-key.
      const document: Record<string, unknown> = {
        ...lineage,
        workspace: where.workspace,
        workspace_rel: rel === '' ? '.' : rel,
        project_key: toProjectKey,
      };
      await records.updateLineage(IMPORT_TAG, (current) => (current === undefined ? document : undefined));
      steps = { ...readRecord(document).steps };
    }
    return { fromProjectKey, toProjectKey, steps, location: records.location };
  } finally {
    await records.close();
  }
}

/** The archive's lineage document, or null when it has none (or it cannot be read). */
function stagedLineage(stagedRun: string): Record<string, unknown> | null {
  const path = join(stagedRun, LINEAGE_FILE);
  if (!existsSync(path)) return null;
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Re-keys the staged copy's sessions (the archive's copy, never the user's) and lists them under the new key. */
async function rekeyStaged(path: string, from: string, to: string): Promise<string[]> {
  const staged = new SqliteSessionStore(path);
  try {
    staged.rekey(from, to);
    return (await staged.listSessions(to)).map((session) => session.sessionId);
  } finally {
    staged.close();
  }
}

/** Which of `sessionIds` the server already holds under `projectKey`. */
async function heldOnServer(
  server: RunStoreServer,
  projectKey: string,
  sessionIds: readonly string[],
): Promise<string[]> {
  const store = new PgSessionStore(server.location, { schema: server.schema });
  try {
    const held: string[] = [];
    for (const sessionId of sessionIds) {
      if (await store.hasSession(projectKey, sessionId)) held.push(sessionId);
    }
    return held;
  } finally {
    await store.close();
  }
}

function taken(location: string, what: string): FlowerError {
  return new FlowerError(
    'RUN_ARCHIVE',
    `Not imported: ${location} already holds ${what}. Import under another run name (?run=NAME in the ` +
      'store location, or FLOWER_RUN=NAME), or into another database. Nothing was changed here.',
  );
}
