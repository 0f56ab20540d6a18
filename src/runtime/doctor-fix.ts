/**
 * `fixRun`: what `flower doctor --fix` changes (docs/doctor.md, decisions.md D445). A session with an
 * error-level transcript finding is repaired into a copy — {@link repairTranscript} on its main and subagent
 * transcripts, {@link forkEntries} to make the copy a new session of the same project — the lineage steps
 * that resumed it are pointed at the copy, and the original is left exactly as it was stored.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../internal/is-record.js';
import type { Entry } from '../session/entry-content.js';
import { forkEntries } from '../session/fork-entries.js';
import type { Repair } from '../session/repair.js';
import { REPAIRED_FROM_FIELD, repairTranscript } from '../session/repair-transcript.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import type { TranscriptFinding } from '../session/transcript-checks.js';
import { Lineage, LINEAGE_FILE } from './lineage.js';
import { SESSIONS_FILE, type DoctorReport } from './run-doctor.js';

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

/**
 * Repairs every session `report` holds an error-level transcript finding for. A copy is stored only when
 * nothing error-level remains in it; otherwise the session is listed in `notFixed` and nothing is written
 * for it.
 */
export async function fixRun(
  runDir: string,
  report: DoctorReport,
  options: FixOptions = {},
): Promise<FixReport> {
  const broken = new Set(
    report.findings
      .filter((finding) => finding.area === 'transcript' && finding.severity === 'error')
      .map((finding) => finding.sessionId)
      .filter((id): id is string => id !== null),
  );
  const fixed: SessionFix[] = [];
  const notFixed: SessionNotFixed[] = [];
  if (broken.size === 0) return { fixed, notFixed, lineageProblem: null };
  const newId = options.newSessionId ?? randomUUID;
  const store = new SqliteSessionStore(join(runDir, SESSIONS_FILE));
  try {
    for (const projectKey of store.projects()) {
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
  } finally {
    store.close();
  }
  return { fixed, notFixed, lineageProblem: pointLineage(runDir, fixed) };
}

/**
 * Points every lineage step that resumed a repaired session at its copy, through {@link Lineage} (under its
 * lock, the other steps untouched). Returns why it could not, or null.
 */
function pointLineage(runDir: string, fixed: SessionFix[]): string | null {
  const path = join(runDir, LINEAGE_FILE);
  if (fixed.length === 0 || !existsSync(path)) return null;
  let workspace: unknown;
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    workspace = isRecord(value) ? value['workspace'] : undefined;
  } catch (error) {
    return `${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof workspace !== 'string' || workspace === '') {
    return `${path} names no workspace, so it was left as it is`;
  }
  const lineage = Lineage.open(runDir, workspace);
  for (const fix of fixed) {
    for (const [step, id] of Object.entries(lineage.steps)) {
      if (id !== fix.sessionId) continue;
      lineage.remember(step, fix.newSessionId);
      fix.steps.push(step);
    }
  }
  return null;
}
