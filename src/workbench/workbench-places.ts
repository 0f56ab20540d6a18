/**
 * The workbench paths that model-facing texts mention — the coordinator's rules, the oracle's rules and the
 * delegate guard's denial — rendered from the workbench itself (decisions.md D113: the reference hard-coded
 * `.flower/`, though the workbench may sit beside the repo with isolation or in the run directory with `-W`).
 *
 * @module
 */
import { posix, relative, resolve } from 'node:path';
import { workbenchPath } from './workbench-path.js';

/** The part of a workbench these texts need; the `Workbench` class satisfies it. */
export interface WorkbenchLike {
  readonly root: string;
  readonly artifacts: string;
  readonly scripts: string;
  readonly notes: string;
  /** A path as the model should see it: relative inside the workspace, else absolute. */
  display(path: string): string;
}

/**
 * Display forms of the workbench and its three folders, each ending in `/`. A type alias, not an interface,
 * so it can be passed as placeholder values to `loadPrompt` as it is.
 */
export type WorkbenchPlaces = {
  readonly workbench: string;
  readonly artifacts: string;
  readonly scripts: string;
  readonly notes: string;
};

/**
 * The places of `workbench`, or, when there is none yet (a spec is often built before its runtime makes
 * the workbench), those of the default location: `workbenchPath()` without isolation or `-W`, relative to
 * the workspace (today `.flower/`). Taking the default from the one location rule keeps the texts right if
 * the rule changes.
 */
export function workbenchPlaces(workbench?: WorkbenchLike | null): WorkbenchPlaces {
  if (workbench === undefined || workbench === null) {
    const root = relative(resolve('workspace'), workbenchPath('workspace')).split(/[\\/]/).join('/');
    return {
      workbench: folder(root),
      artifacts: folder(posix.join(root, 'artifacts')),
      scripts: folder(posix.join(root, 'scripts')),
      notes: folder(posix.join(root, 'notes')),
    };
  }
  return {
    workbench: folder(workbench.display(workbench.root)),
    artifacts: folder(workbench.display(workbench.artifacts)),
    scripts: folder(workbench.display(workbench.scripts)),
    notes: folder(workbench.display(workbench.notes)),
  };
}

function folder(path: string): string {
  return path.endsWith('/') || path.endsWith('\\') ? path : `${path}/`;
}
