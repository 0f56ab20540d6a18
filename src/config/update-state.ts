/**
 * The update check's memory, `CFG/.update-node.json`: when the registry was last asked (epoch seconds) and
 * the newest version it named. A separate file from the Python flower's `CFG/.update`, which holds commit
 * hashes under the same keys' names and would be misread.
 *
 * @module
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The file name inside `CFG`. */
export const UPDATE_STATE_FILE = '.update-node.json';

/** What the last successful check found. */
export interface UpdateState {
  /** When the registry answered, in whole seconds since the epoch. */
  checked: number;
  /** The version the registry's `latest` tag named then. */
  latest: string;
}

/** `CFG/.update-node.json` for the given `CFG`. */
export function updateStateFile(configDirectory: string): string {
  return join(configDirectory, UPDATE_STATE_FILE);
}

/** The recorded state, or `null` when the file is missing, unreadable or not of this shape. */
export function readUpdateState(path: string): UpdateState | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // Never a reason to fail or even warn: the next check writes the file afresh.
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { checked, latest } = parsed as Record<string, unknown>;
  if (typeof checked !== 'number' || !Number.isFinite(checked) || typeof latest !== 'string') return null;
  return { checked, latest };
}

/**
 * Writes the state through a temporary file renamed into place, so a run reading it at the same moment sees
 * the old file or the new one, never half of one.
 */
export function writeUpdateState(path: string, state: UpdateState): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ checked: state.checked, latest: state.latest })}\n`);
  renameSync(temporary, path);
}
