/**
 * The content of `lineage.json` (docs/continuity.md): reading a record written by flower or by the Python
 * flower, and writing it back in the same shape. Kept apart from {@link Lineage}'s locking and matching
 * logic.
 *
 * @module
 */

import { isRecord } from '../internal/is-record.js';

/** The hash recorded when a handoff document was written (decisions.md D23). */
export interface HandoffHash {
  path: string;
  sha256: string;
}

/** One lineage, as read from disk and normalised. */
export interface LineageRecord {
  /** Absolute workspace path when written ("" when absent). */
  workspace: string;
  /** Workspace path relative to the run directory, or `null` in a file written by the Python flower. */
  workspaceRel: string | null;
  /** The SDK project key the sessions were stored under, or `null` when not recorded. */
  projectKey: string | null;
  /** The lineage's identity (16 hex), or `null` in a file written by the Python flower. */
  lineageId: string | null;
  woke: number;
  steps: Record<string, string>;
  handoffs: Record<string, HandoffHash>;
  /**
   * The request the lineage's clarification started from, or `null` when not recorded: rerunning the same
   * command sends it again, and it is then no new words to add (docs/decisions.md D332).
   */
  request: string | null;
  /** Keys this version does not know, written back unchanged so a newer flower loses nothing. */
  extra: Record<string, unknown>;
}

/** The Python flower's Chinese step names and the English names they are read as (decisions.md D1). */
export const STEP_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  确认需求: 'clarify',
  设定目标: 'goal',
  干活: 'work',
});

const KNOWN_KEYS = new Set([
  'workspace',
  'workspace_rel',
  'project_key',
  'lineage_id',
  'woke',
  'steps',
  'handoffs',
  'request',
]);

/** A record with no identity, no steps and no wakes. */
export function emptyRecord(): LineageRecord {
  return {
    workspace: '',
    workspaceRel: null,
    projectKey: null,
    lineageId: null,
    woke: 0,
    steps: {},
    handoffs: {},
    request: null,
    extra: {},
  };
}

/**
 * Normalises a parsed `lineage.json` object: only non-empty string session ids are kept, Chinese step
 * names become English ones (an English key wins over its Chinese alias), `woke` is a whole number ≥ 0.
 */
export function readRecord(value: Record<string, unknown>): LineageRecord {
  const extra: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!KNOWN_KEYS.has(key)) extra[key] = item;
  const woke = value['woke'];
  return {
    workspace: nonEmptyString(value['workspace']) ?? '',
    workspaceRel: nonEmptyString(value['workspace_rel']),
    projectKey: nonEmptyString(value['project_key']),
    lineageId: nonEmptyString(value['lineage_id']),
    woke: typeof woke === 'number' && Number.isFinite(woke) && woke > 0 ? Math.floor(woke) : 0,
    steps: readSteps(value['steps']),
    handoffs: readHandoffs(value['handoffs']),
    request: nonEmptyString(value['request']),
    extra,
  };
}

/** The JSON object for `record`, keys in the documented order, unknown keys after them. */
export function writeRecord(record: LineageRecord): Record<string, unknown> {
  return {
    workspace: record.workspace,
    workspace_rel: record.workspaceRel,
    project_key: record.projectKey,
    lineage_id: record.lineageId,
    woke: record.woke,
    steps: { ...record.steps },
    handoffs: Object.fromEntries(Object.entries(record.handoffs).map(([step, hash]) => [step, { ...hash }])),
    ...(record.request === null ? {} : { request: record.request }),
    ...record.extra,
  };
}

/** A deep copy (steps, handoffs and extras are the mutable parts). */
export function copyRecord(record: LineageRecord): LineageRecord {
  return {
    ...record,
    steps: { ...record.steps },
    handoffs: Object.fromEntries(Object.entries(record.handoffs).map(([step, hash]) => [step, { ...hash }])),
    extra: { ...record.extra },
  };
}

/** The English step name for a step key read from disk. */
export function englishStep(step: string): string {
  return Object.hasOwn(STEP_ALIASES, step) ? (STEP_ALIASES[step] ?? step) : step;
}

function readSteps(value: unknown): Record<string, string> {
  const steps: Record<string, string> = {};
  if (!isRecord(value)) return steps;
  for (const [step, sessionId] of englishFirst(value)) {
    const name = englishStep(step);
    const id = nonEmptyString(sessionId);
    if (usableStep(name) && id !== null && !Object.hasOwn(steps, name)) steps[name] = id;
  }
  return steps;
}

function readHandoffs(value: unknown): Record<string, HandoffHash> {
  const handoffs: Record<string, HandoffHash> = {};
  if (!isRecord(value)) return handoffs;
  for (const [step, hash] of englishFirst(value)) {
    if (!isRecord(hash)) continue;
    const path = nonEmptyString(hash['path']);
    const sha256 = nonEmptyString(hash['sha256']);
    const name = englishStep(step);
    if (usableStep(name) && path !== null && sha256 !== null && !Object.hasOwn(handoffs, name)) {
      handoffs[name] = { path, sha256 };
    }
  }
  return handoffs;
}

// English keys first, so an English entry wins over the Chinese one it would collide with.
function englishFirst(value: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(value).sort(
    ([left], [right]) =>
      Number(Object.hasOwn(STEP_ALIASES, left)) - Number(Object.hasOwn(STEP_ALIASES, right)),
  );
}

/** False for names that cannot be a plain object key safely. */
export function usableStep(step: string): boolean {
  return step !== '' && step !== '__proto__';
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
