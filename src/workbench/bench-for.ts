/**
 * The workbench a run uses, placed by the one location rule.
 *
 * @module
 */
import { Workbench } from './workbench.js';
import { workbenchPath } from './workbench-path.js';
import type { WorkbenchPathOptions } from './workbench-path.js';

/**
 * The {@link Workbench} of `workspace` at {@link workbenchPath}`(workspace, options)`. Nothing is created:
 * call `ensure()` when the run actually starts.
 */
export function benchFor(workspace: string, options: WorkbenchPathOptions = {}): Workbench {
  return new Workbench(workspace, { root: workbenchPath(workspace, options) });
}
