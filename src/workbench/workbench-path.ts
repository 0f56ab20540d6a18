/**
 * Where the workbench lives, and the names of the notes in it. {@link workbenchPath} is the one rule used
 * everywhere (docs/workbench.md): the reference computed the location in three
 * places that disagreed silently.
 *
 * @module
 */
import { basename, dirname, join, resolve } from 'node:path';

/** File names under `notes/` (decisions.md D1: English names are written). */
export const NOTES = {
  brief: 'brief.md',
  goal: 'goal.md',
  qaLog: 'qa-log.md',
  handoffPrefix: 'handoff-',
} as const;

/** The Python flower's names, read only when the English file is absent (decisions.md D1). */
export const NOTES_ZH = {
  brief: '需求.md',
  goal: '目标.md',
  qaLog: '问答记录.md',
  handoffPrefix: '交接-',
} as const;

/** Options of {@link workbenchPath}. */
export interface WorkbenchPathOptions {
  /** Worktree isolation: the workbench sits beside the workspace so every worktree shares it. */
  isolate?: boolean;
  /** `-W`: the workbench lives in the run directory instead (it wins over `isolate`). */
  runDir?: string | null;
}

/**
 * The workbench root of `workspace`: `<runDir>/workbench` when `runDir` is given (`-W`), else
 * `<parent>/.flower-<basename>` with `isolate`, else `<workspace>/.flower`. Pure: nothing is read or created.
 */
export function workbenchPath(workspace: string, options: WorkbenchPathOptions = {}): string {
  if (options.runDir !== undefined && options.runDir !== null) {
    return join(resolve(options.runDir), 'workbench');
  }
  const root = resolve(workspace);
  if (options.isolate === true) return join(dirname(root), `.flower-${basename(root)}`);
  return join(root, '.flower');
}
