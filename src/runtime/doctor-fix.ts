/**
 * `fixRun`: what `flower doctor --fix` changes (docs/doctor.md, decisions.md D445). A session with an
 * error-level transcript finding is repaired into a copy — {@link repairTranscript} on its main and subagent
 * transcripts, {@link forkEntries} to make the copy a new session of the same project — the lineage steps
 * that resumed it are pointed at the copy, and the original is left exactly as it was stored. The same
 * repair runs on a run directory's `sessions.db` and `lineage.json` ({@link fixRun}) and on a run on a
 * PostgreSQL server ({@link fixServerRun}), through the session store and the run's records
 * (docs/decisions.md D463).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { isRecord } from '../internal/is-record.js';
import type { Entry } from '../session/entry-content.js';
import { forkEntries } from '../session/fork-entries.js';
import { PgSessionStore } from '../session/pg-session-store.js';
import type { Repair } from '../session/repair.js';
import { REPAIRED_FROM_FIELD, repairTranscript } from '../session/repair-transcript.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import type { SessionKey } from '../agent/claude-sdk.js';
import type { TranscriptFinding } from '../session/transcript-checks.js';
import { FileRunRecords } from './file-run-records.js';
import { LINEAGE_FILE } from './lineage.js';
import { readRecord, writeRecord } from './lineage-record.js';
import { runRecordsFor, type RunRecords } from './run-records.js';
import { SESSIONS_FILE, type DoctorReport } from './run-doctor.js';
import type { RunStoreServer } from './run-stores.js';
import { runProjectKeys } from './server-transcripts.js';

/** One change to a copy, with the transcript it was made in (null: the main transcript). */
export interface SessionRepair extends Repair {
  subpath: string | null;
}

/** A session repaired into a new one. */
export interface SessionFix {
  sessionId: string;
  newSessionId: string;
  repairs: SessionRepair[];
  /** Lineage steps now pointing at the copy. */
  steps: string[];
}

/** A session the fix left as it was, and why. */
export interface SessionNotFixed {
  sessionId: string;
  subpath: string | null;
  /** What a repaired copy would still hold (an entry too large for the API can only be cut, not repaired). */
  findings: TranscriptFinding[];
}

/** What {@link fixRun} did. */
export interface FixReport {
  fixed: SessionFix[];
  notFixed: SessionNotFixed[];
  /** Why the lineage could not be pointed at the copies, when it could not (the copies are stored anyway). */
  lineageProblem: string | null;
}

/** Options of {@link fixRun}. */
export interface FixOptions {
  /** The id of each new session; a random UUID by default. */
  newSessionId?: () => string;
}

/** The transcripts as stored (no load layer): where {@link fixSessions} reads the originals and writes the copies. */
export interface FixStore {
  load(key: SessionKey): Promise<Entry[] | null> | Entry[] | null;
  append(key: SessionKey, entries: Entry[]): Promise<void> | void;
  listSessions(projectKey: string): Promise<Array<{ sessionId: string }>> | Array<{ sessionId: string }>;
  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> | string[];
}

/**
 * Repairs every session `report` holds an error-level transcript finding for, in a run directory's
 * `sessions.db`, and points `lineage.json` at the copies. A copy is stored only when nothing error-level
 * remains in it; otherwise the session is listed in `notFixed` and nothing is written for it.
 */
export async function fixRun(
  runDir: string,
  report: DoctorReport,
  options: FixOptions = {},
): Promise<FixReport> {
  if (brokenSessions(report).size === 0) return { fixed: [], notFixed: [], lineageProblem: null };
  const store = new SqliteSessionStore(join(runDir, SESSIONS_FILE));
  let found: Pick<FixReport, 'fixed' | 'notFixed'>;
  try {
    found = await fixSessions(store, store.projects(), report, options);
  } finally {
    store.close();
  }
  const lineage = await pointLineage(new FileRunRecords(runDir), join(runDir, LINEAGE_FILE), found.fixed);
  return { ...found, lineageProblem: lineage };
}

/**
 * {@link fixRun} for a run on a PostgreSQL server: the copies are new sessions on the server, under the
 * run's project keys (the workspace's, and the lineage's when it differs: a server holds many runs), and the
 * server's lineage of the run is pointed at them in one transaction. `runDir` only names the records.
 */
export async function fixServerRun(
  server: RunStoreServer,
  where: { workspace: string; runDir: string },
  report: DoctorReport,
  options: FixOptions = {},
): Promise<FixReport> {
  if (brokenSessions(report).size === 0) return { fixed: [], notFixed: [], lineageProblem: null };
  const records = runRecordsFor(where.runDir, server);
  try {
    const state = await records.readLineage();
    const document = state.kind === 'parsed' && isRecord(state.value) ? state.value : null;
    const store = new PgSessionStore(server.location, { schema: server.schema });
    let found: Pick<FixReport, 'fixed' | 'notFixed'>;
    try {
      found = await fixSessions(store, runProjectKeys(where.workspace, document), report, options);
    } finally {
      await store.close();
    }
    const lineage = await pointLineage(records, `the lineage of ${records.location}`, found.fixed);
    return { ...found, lineageProblem: lineage };
  } finally {
    await records.close();
  }
}

/** The sessions with an error-level transcript finding. */
function brokenSessions(report: DoctorReport): Set<string> {
  return new Set(
    report.findings
      .filter((finding) => finding.area === 'transcript' && finding.severity === 'error')
      .map((finding) => finding.sessionId)
      .filter((id): id is string => id !== null),
  );
}

/**
 * Repairs each broken session stored under `projectKeys` into a new session beside it; the originals are
 * only read. What it wrote, and what it left alone and why.
 */
async function fixSessions(
  store: FixStore,
  projectKeys: readonly string[],
  report: DoctorReport,
  options: FixOptions,
): Promise<Pick<FixReport, 'fixed' | 'notFixed'>> {
  const broken = brokenSessions(report);
  const newId = options.newSessionId ?? randomUUID;
  const fixed: SessionFix[] = [];
  const notFixed: SessionNotFixed[] = [];
  for (const projectKey of projectKeys) {
    for (const { sessionId } of await store.listSessions(projectKey)) {
      if (!broken.has(sessionId)) continue;
      const key = { projectKey, sessionId };
      const transcripts: Array<{ subpath: string | null; entries: Entry[] }> = [
        { subpath: null, entries: (await store.load(key)) ?? [] },
      ];
      for (const subpath of await store.listSubkeys(key)) {
        transcripts.push({ subpath, entries: (await store.load({ ...key, subpath })) ?? [] });
      }
      const outcomes = transcripts.map(({ subpath, entries }) => ({
        subpath,
        ...repairTranscript(entries),
      }));
      const stuck = outcomes.filter((outcome) =>
        outcome.remaining.some((finding) => finding.severity === 'error'),
      );
      if (stuck.length > 0) {
        for (const outcome of stuck) {
          notFixed.push({ sessionId, subpath: outcome.subpath, findings: outcome.remaining });
        }
        continue;
      }
      const to = newId();
      for (const outcome of outcomes) {
        const copy = forkEntries(outcome.entries, {
          from: sessionId,
          to,
          mark: { [REPAIRED_FROM_FIELD]: sessionId },
        });
        const target =
          outcome.subpath === null
            ? { projectKey, sessionId: to }
            : { projectKey, sessionId: to, subpath: outcome.subpath };
        await store.append(target, copy);
      }
      fixed.push({
        sessionId,
        newSessionId: to,
        repairs: outcomes.flatMap((outcome) =>
          outcome.repairs.map((repair) => ({ ...repair, subpath: outcome.subpath })),
        ),
        steps: [],
      });
    }
  }
  return { fixed, notFixed };
}

/**
 * Points every lineage step that resumed a repaired session at its copy, in one change of the run's records
 * (under the file's lock, or in one transaction on a server; the other steps and keys untouched). Returns
 * why it could not, or null. `name` says which lineage, in that answer.
 */
async function pointLineage(records: RunRecords, name: string, fixed: SessionFix[]): Promise<string | null> {
  if (fixed.length === 0) return null;
  const state = await records.readLineage();
  if (state.kind === 'missing') return null;
  if (state.kind === 'unreadable') return `${name} cannot be read: ${state.reason}`;
  let problem: string | null = null;
  let pointed = new Map<SessionFix, string[]>();
  await records.updateLineage('doctor-fix', (current) => {
    // Run afresh on each try, so a retried change reports what the written one did.
    problem = null;
    pointed = new Map();
    if (!isRecord(current)) return undefined;
    const record = readRecord(current);
    if (record.workspace === '') {
      problem = `${name} names no workspace, so it was left as it is`;
      return undefined;
    }
    for (const fix of fixed) {
      const steps = Object.entries(record.steps).filter(([, id]) => id === fix.sessionId);
      for (const [step] of steps) record.steps[step] = fix.newSessionId;
      if (steps.length > 0)
        pointed.set(
          fix,
          steps.map(([step]) => step),
        );
    }
    return pointed.size === 0 ? undefined : writeRecord(record);
  });
  for (const [fix, steps] of pointed) fix.steps.push(...steps);
  return problem;
}
