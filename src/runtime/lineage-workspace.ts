/**
 * Which workspace a lineage belongs to: where the workspace is (its real path, its path from the run directory
 * and its SDK project key), whether a stored lineage record is this workspace's, and the record rewritten for
 * it. Kept apart from the `Lineage` class because these are pure decisions on paths and records, and the class
 * is about reading and writing them under a lock.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { projectKey as projectKeyOf } from '../agent/project-key.js';
import { isRecord } from '../internal/is-record.js';
import { copyRecord, emptyRecord, readRecord, type LineageRecord } from './lineage-record.js';

/** Old and new SDK project keys of a moved workspace: the caller runs `store.rekey(from, to)`. */
export interface ProjectRekey {
  from: string;
  to: string;
}

/** How a stored lineage record relates to this workspace: none, this one, this one moved, or another's. */
export type Match =
  | { kind: 'missing' }
  | { kind: 'same'; record: LineageRecord }
  | { kind: 'moved'; record: LineageRecord }
  | { kind: 'foreign'; other: string };

/** This workspace: its resolved path, its path from the run directory, and its SDK project key. */
export interface Here {
  workspace: string;
  workspaceRel: string;
  projectKey: string;
}

/** The resolved workspace, its path from the run directory and its project key (decisions.md D19). */
export function locate(runDir: string, workspace: string): Here {
  const workspacePath = realOrResolved(workspace);
  const rel = relative(realOrResolved(runDir), workspacePath).split(sep).join('/');
  return {
    workspace: workspacePath,
    workspaceRel: rel === '' ? '.' : rel,
    projectKey: projectKeyOf(workspacePath),
  };
}

/** `path` resolved, with its symbolic links followed where it exists. */
export function realOrResolved(path: string): string {
  const resolved = resolve(path);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}

/**
 * Whether the stored lineage `value` is this workspace's, this workspace's before a move, or another's.
 * `anyPath`: the record is this run's whatever its path (a server's records of a run named by the user:
 * another host may see the shared workspace at another path, with its run directory elsewhere;
 * docs/decisions.md D455), so a different path is a move.
 */
export function matchRecord(value: unknown, here: Here, anyPath: boolean): Match {
  if (!isRecord(value)) return { kind: 'missing' };
  const record = readRecord(value);
  if (record.workspace === here.workspace) return { kind: 'same', record };
  if (anyPath || (record.workspaceRel !== null && record.workspaceRel === here.workspaceRel)) {
    return { kind: 'moved', record };
  }
  return { kind: 'foreign', other: record.workspace || '?' };
}

/** Old and new key when the sessions on record live under another key than this workspace's. */
export function rekeyOf(match: Match, here: Here): ProjectRekey | null {
  if (match.kind !== 'same' && match.kind !== 'moved') return null;
  const from = match.record.projectKey ?? projectKeyOf(match.record.workspace || here.workspace);
  return from === here.projectKey ? null : { from, to: here.projectKey };
}
/**
 * Runs `rekeyStore` (moving the stored sessions to the new key), if there is one; false when it threw, so the
 * file keeps the old key and the next open tries again.
 */
export function runRekey(
  rekeyStore: ((from: string, to: string) => unknown) | null,
  rekey: ProjectRekey,
): boolean {
  if (rekeyStore === null) return true;
  try {
    rekeyStore(rekey.from, rekey.to);
    return true;
  } catch {
    return false;
  }
}

/** A new, empty lineage record of this workspace, with a new identity. */
export function fresh(here: Here): LineageRecord {
  return relocated({ ...emptyRecord(), lineageId: randomBytes(8).toString('hex') }, here);
}

/**
 * `record` with this workspace's paths, and an identity if it had none (a Python flower file). The project
 * key stays: it names where the sessions are stored, and changes only when they are re-keyed.
 */
export function relocated(record: LineageRecord, here: Here): LineageRecord {
  return {
    ...copyRecord(record),
    workspace: here.workspace,
    workspaceRel: here.workspaceRel,
    projectKey: record.projectKey ?? here.projectKey,
    lineageId: record.lineageId ?? randomBytes(8).toString('hex'),
  };
}
