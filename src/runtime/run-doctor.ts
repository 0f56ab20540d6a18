/**
 * `runDoctor`: reads a run directory — every transcript in `sessions.db`, its summaries and tool journal,
 * the spill files its results point at, the workbench index, the manifest, the lineage and `processes.json` — and returns what is wrong with it, without writing
 * anything (`flower doctor`, docs/doctor.md). The transcript rules are the load pipeline's own validator plus
 * {@link checkTranscript}'s API rules, so what the doctor reports is what a resume would meet.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { foldSessionSummary, type SessionSummaryEntry } from '../agent/claude-sdk.js';
import type { JsonFileState } from '../internal/locked-json-file.js';
import { isRecord } from '../internal/is-record.js';
import { isToolUse, type Entry } from '../session/entry-content.js';
import { REPAIRED_FROM_FIELD } from '../session/repair-transcript.js';
import type { JournalCallRow } from '../session/pg-journal-rows.js';
import { openSqlite } from '../session/sqlite-driver.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { checkTranscript, type Severity } from '../session/transcript-checks.js';
import { checkSpillPointers, checkWorkbenchIndexes } from './doctor-file-checks.js';
import { LINEAGE_FILE } from './lineage.js';
import { MANIFEST_FILE, type ManifestRow } from './manifest.js';
import { isLive, PROCESSES_FILE, RunProcesses } from './run-processes.js';

/** The session store's file name inside a run directory. */
export const SESSIONS_FILE = 'sessions.db';

/** Where a finding was made. */
export type FindingArea =
  'store' | 'transcript' | 'summary' | 'manifest' | 'lineage' | 'journal' | 'files' | 'process';

/** A finding's severity: `info` is worth knowing and never changes the exit code. */
export type FindingSeverity = Severity | 'info';

/** One thing the doctor found. `rule` names it (docs/doctor.md lists every rule with its meaning). */
export interface DoctorFinding {
  area: FindingArea;
  rule: string;
  severity: FindingSeverity;
  /** The session the finding is about, when there is one. */
  sessionId: string | null;
  /** The transcript's subpath (a subagent's), or null for the main transcript. */
  subpath: string | null;
  /** The entry index and uuid in that transcript, for transcript findings. */
  index: number | null;
  uuid: string | null;
  detail: string;
}

/** What {@link runDoctor} read and found. */
export interface DoctorReport {
  runDir: string;
  /** Transcripts checked (main and subagent). */
  transcripts: number;
  findings: DoctorFinding[];
}

interface Stored {
  projectKey: string;
  sessionId: string;
  subpath: string | null;
  entries: Entry[];
}

const NONE = { sessionId: null, subpath: null, index: null, uuid: null };

/**
 * A run whose transcripts, tool journal and records live on a PostgreSQL server, read there first (the
 * doctor's checks are synchronous): what {@link runDoctor} checks instead of the run directory's
 * `sessions.db`, `manifest.json` and `lineage.json` (docs/decisions.md D452).
 */
export interface DoctorServerRun {
  /** Where the records are, safe to print (the redacted location and the run's name). */
  location: string;
  /** The transcripts as stored, main and subagent. */
  transcripts: ReadonlyArray<{
    projectKey: string;
    sessionId: string;
    subpath: string | null;
    entries: Entry[];
  }>;
  /** The stored summaries of the main transcripts, by session id. */
  summaries: ReadonlyMap<string, SessionSummaryEntry>;
  /** The journalled calls of those sessions. */
  journal: readonly JournalCallRow[];
  /** The manifest rows (the server's records). */
  rows: readonly ManifestRow[];
  /** The lineage document as stored. */
  lineage: JsonFileState;
}

/** Examines `runDir` (with `server`: the run's transcripts and records there); never writes anything. */
export async function runDoctor(
  runDir: string,
  server: DoctorServerRun | null = null,
): Promise<DoctorReport> {
  const findings: DoctorFinding[] = [];
  const path = join(runDir, SESSIONS_FILE);
  const transcripts: Stored[] = [];
  if (server !== null) {
    for (const transcript of server.transcripts) {
      transcripts.push({ ...transcript });
      const summary = transcript.subpath === null ? server.summaries.get(transcript.sessionId) : undefined;
      if (summary !== undefined) checkSummary(transcript, summary, findings);
    }
  } else if (!existsSync(path)) {
    findings.push({
      area: 'store',
      rule: 'no-session-store',
      severity: 'info',
      ...NONE,
      detail: `${path} does not exist`,
    });
  } else {
    let store: SqliteSessionStore | null = null;
    try {
      store = new SqliteSessionStore(path, { readonly: true, inMemoryCopy: true });
      await readTranscripts(store, transcripts, findings);
    } catch (error) {
      findings.push({
        area: 'store',
        rule: 'store-unreadable',
        severity: 'error',
        ...NONE,
        detail: message(error),
      });
    } finally {
      store?.close();
    }
  }
  const repairedInto = repairedSessions(transcripts);
  const keptRules = new Map<string, Set<string>>();
  for (const transcript of transcripts) {
    const copy = repairedInto.get(transcript.sessionId);
    for (const finding of checkTranscript(transcript.entries)) {
      if (copy !== undefined) {
        // `--fix` replaced this session and kept it as stored: one note says so (decisions.md D446).
        const rules = keptRules.get(transcript.sessionId) ?? new Set<string>();
        keptRules.set(transcript.sessionId, rules.add(finding.rule));
        continue;
      }
      findings.push({
        area: 'transcript',
        rule: finding.rule,
        severity: finding.severity,
        sessionId: transcript.sessionId,
        subpath: transcript.subpath,
        index: finding.index,
        uuid: finding.uuid,
        detail: finding.detail,
      });
    }
  }
  for (const [sessionId, rules] of keptRules) {
    findings.push({
      area: 'transcript',
      rule: 'session-repaired',
      severity: 'info',
      ...NONE,
      sessionId,
      detail: `repaired into session ${repairedInto.get(sessionId) ?? ''}; as stored it still has ${[...rules].join(', ')}`,
    });
  }
  const sessions = new Set(transcripts.filter((item) => item.subpath === null).map((item) => item.sessionId));
  if (server !== null) checkJournalRows(server.journal, transcripts, findings);
  else if (existsSync(path)) checkJournal(path, transcripts, findings);
  const lineage = server === null ? lineageFile(join(runDir, LINEAGE_FILE)) : server.lineage;
  const workspace = workspaceOf(runDir, lineage);
  findings.push(...checkSpillPointers(transcripts, workspace), ...checkWorkbenchIndexes(runDir, workspace));
  const retired = checkManifest(runDir, sessions, findings, server?.rows ?? null);
  checkLineage(runDir, sessions, retired, findings, lineage, server?.location ?? null);
  checkProcesses(runDir, findings);
  return { runDir, transcripts: transcripts.length, findings };
}

/** The run's workspace: the one its lineage records, else the folder holding the run directory. */
function workspaceOf(runDir: string, lineage: JsonFileState): string {
  // No lineage, or one the lineage check reports: the default layout is `<workspace>/runs`.
  const recorded =
    lineage.kind === 'parsed' && isRecord(lineage.value) ? lineage.value['workspace'] : undefined;
  if (typeof recorded === 'string' && recorded !== '' && existsSync(recorded)) return recorded;
  return dirname(resolve(runDir));
}

/** `lineage.json` as read: missing, parsed, or unreadable with the reason. */
function lineageFile(file: string): JsonFileState {
  if (!existsSync(file)) return { kind: 'missing' };
  try {
    return { kind: 'parsed', value: JSON.parse(readFileSync(file, 'utf8')) as unknown };
  } catch (error) {
    return { kind: 'unreadable', reason: message(error) };
  }
}

/** Original session id → the id of the copy `flower doctor --fix` stored in its place. */
function repairedSessions(transcripts: readonly Stored[]): Map<string, string> {
  const into = new Map<string, string>();
  for (const transcript of transcripts) {
    if (transcript.subpath !== null) continue;
    const from = transcript.entries.find((entry) => typeof entry[REPAIRED_FROM_FIELD] === 'string');
    if (from !== undefined) into.set(from[REPAIRED_FROM_FIELD] as string, transcript.sessionId);
  }
  return into;
}

async function readTranscripts(
  store: SqliteSessionStore,
  into: Stored[],
  findings: DoctorFinding[],
): Promise<void> {
  for (const projectKey of store.projects()) {
    const summaries = new Map(
      (await store.listSessionSummaries(projectKey)).map((item) => [item.sessionId, item]),
    );
    for (const { sessionId } of await store.listSessions(projectKey)) {
      const entries = (await store.load({ projectKey, sessionId })) ?? [];
      into.push({ projectKey, sessionId, subpath: null, entries });
      const summary = summaries.get(sessionId);
      if (summary !== undefined) checkSummary({ projectKey, sessionId, entries }, summary, findings);
      for (const subpath of await store.listSubkeys({ projectKey, sessionId })) {
        const sub = (await store.load({ projectKey, sessionId, subpath })) ?? [];
        into.push({ projectKey, sessionId, subpath, entries: sub });
      }
    }
  }
}

/** A stored summary that is not what folding its stored transcript gives. */
function checkSummary(
  transcript: { projectKey: string; sessionId: string; entries: Entry[] },
  summary: SessionSummaryEntry,
  findings: DoctorFinding[],
): void {
  const { projectKey, sessionId } = transcript;
  const refolded = foldSessionSummary(undefined, { projectKey, sessionId }, transcript.entries, {
    mtime: summary.mtime,
  });
  if (JSON.stringify(sorted(refolded.data)) === JSON.stringify(sorted(summary.data))) return;
  findings.push({
    area: 'summary',
    rule: 'summary-disagrees',
    severity: 'warning',
    ...NONE,
    sessionId,
    detail: 'the stored summary is not what folding the stored transcript gives',
  });
}

/** Journalled calls whose `tool_use` no transcript of their session holds (recovered on load). */
function checkJournal(path: string, transcripts: readonly Stored[], findings: DoctorFinding[]): void {
  const connection = openSqlite(path, { readonly: true, inMemoryCopy: true });
  try {
    const table = connection.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'",
    );
    if (table.all().length === 0) return;
    const rows = connection
      .prepare('SELECT session_id, tool_use_id, tool_name FROM tool_calls')
      .all() as Array<{
      session_id: string;
      tool_use_id: string;
      tool_name: string;
    }>;
    const calls = rows.map((row) => ({
      sessionId: row.session_id,
      toolUseId: row.tool_use_id,
      toolName: row.tool_name,
    }));
    checkJournalRows(calls, transcripts, findings);
  } finally {
    connection.close();
  }
}

/** {@link checkJournal} on rows read already (a server's journal). */
function checkJournalRows(
  rows: readonly JournalCallRow[],
  transcripts: readonly Stored[],
  findings: DoctorFinding[],
): void {
  const uses = new Map<string, Set<string>>();
  for (const transcript of transcripts) {
    const ids = uses.get(transcript.sessionId) ?? new Set<string>();
    for (const entry of transcript.entries) {
      const content = (entry['message'] as { content?: unknown } | undefined)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Array<Record<string, unknown>>) if (isToolUse(block)) ids.add(block.id);
    }
    uses.set(transcript.sessionId, ids);
  }
  for (const row of rows) {
    if (uses.get(row.sessionId)?.has(row.toolUseId) === true) continue;
    findings.push({
      area: 'journal',
      rule: 'journal-call-not-in-transcript',
      severity: 'warning',
      ...NONE,
      sessionId: row.sessionId,
      detail: `${row.toolName} call ${row.toolUseId} was started but its transcript does not hold it`,
    });
  }
}

/** Manifest checks; returns session id → the step that retired it. */
function checkManifest(
  runDir: string,
  sessions: ReadonlySet<string>,
  findings: DoctorFinding[],
  stored: readonly ManifestRow[] | null,
): Map<string, string> {
  const retired = new Map<string, string>();
  const file = join(runDir, MANIFEST_FILE);
  // A server's rows were parsed as they were read (one that does not parse is left out there).
  const rows = stored ?? manifestRows(file, findings);
  if (rows === null) return retired;
  const stepOf = new Map<string, string>();
  const withRow = new Set<string>();
  for (const row of rows) {
    for (const old of row.retired ?? []) retired.set(old, row.step);
    const id = row.session_id;
    if (id === null || id === undefined) continue;
    withRow.add(id);
    const add = (rule: string, severity: FindingSeverity, detail: string): void => {
      findings.push({ area: 'manifest', rule, severity, ...NONE, sessionId: id, detail });
    };
    if (sessions.size > 0 && !sessions.has(id))
      add('manifest-session-missing', 'error', `step ${row.step} names a session the store does not hold`);
    const other = stepOf.get(id);
    if (other !== undefined && other !== row.step)
      add('session-in-two-steps', 'error', `steps ${other} and ${row.step} both use this session`);
    else stepOf.set(id, row.step);
    const retiredBy = retired.get(id);
    if (retiredBy !== undefined && row.resumed)
      add('retired-session-resumed', 'error', `step ${row.step} resumed a session step ${retiredBy} retired`);
  }
  for (const id of sessions) {
    if (withRow.has(id) || retired.has(id)) continue;
    findings.push({
      area: 'manifest',
      rule: 'session-without-row',
      severity: 'info',
      ...NONE,
      sessionId: id,
      detail: 'no manifest row names this session (a step that never finished, or another tool wrote it)',
    });
  }
  return retired;
}

/** The rows of `manifest.json`; null when there is none, or it is not a list of rows (reported). */
function manifestRows(file: string, findings: DoctorFinding[]): ManifestRow[] | null {
  if (!existsSync(file)) return null;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(value) || !value.every((row) => isRecord(row) && typeof row['step'] === 'string')) {
      throw new Error('not a list of step rows');
    }
    return value as ManifestRow[];
  } catch (error) {
    findings.push({
      area: 'manifest',
      rule: 'manifest-invalid',
      severity: 'error',
      ...NONE,
      detail: `${file}: ${message(error)}`,
    });
    return null;
  }
}

function checkLineage(
  runDir: string,
  sessions: ReadonlySet<string>,
  retired: ReadonlyMap<string, string>,
  findings: DoctorFinding[],
  lineage: JsonFileState,
  place: string | null,
): void {
  const file = place ?? join(runDir, LINEAGE_FILE);
  if (lineage.kind === 'missing') return;
  let steps: Record<string, unknown>;
  try {
    if (lineage.kind === 'unreadable') throw new Error(lineage.reason);
    const value = lineage.value;
    if (!isRecord(value) || !isRecord(value['steps'])) throw new Error('no "steps" object');
    steps = value['steps'];
  } catch (error) {
    findings.push({
      area: 'lineage',
      rule: 'lineage-invalid',
      severity: 'error',
      ...NONE,
      detail: `${file}: ${message(error)}`,
    });
    return;
  }
  for (const [step, id] of Object.entries(steps)) {
    if (typeof id !== 'string') continue;
    const add = (rule: string, detail: string): void => {
      findings.push({ area: 'lineage', rule, severity: 'error', ...NONE, sessionId: id, detail });
    };
    if (sessions.size > 0 && !sessions.has(id))
      add('lineage-session-missing', `step ${step} resumes a session the store does not hold`);
    const retiredBy = retired.get(id);
    if (retiredBy !== undefined)
      add('lineage-resumes-retired', `step ${step} would resume a session step ${retiredBy} retired`);
  }
}

function checkProcesses(runDir: string, findings: DoctorFinding[]): void {
  if (!existsSync(join(runDir, PROCESSES_FILE))) return;
  for (const record of new RunProcesses(runDir, 'doctor').records()) {
    const live = isLive(record);
    findings.push({
      area: 'process',
      rule: live ? 'flower-running' : 'leftover-process-record',
      severity: live ? 'warning' : 'info',
      ...NONE,
      detail: `pid ${record.pid} on ${record.host}${live ? ' is running now' : ' is gone but its record stayed'}`,
    });
  }
}

/** `value` with object keys in order, so two folds compare by content rather than key order. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
