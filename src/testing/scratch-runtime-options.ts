/**
 * The options of a `Runtime` that runs in a scratch environment against the fake Messages API
 * (docs/testing.md, "Test a workflow").
 *
 * @module
 */
import type { RuntimeOptions } from '../runtime/runtime-options.js';
import type { ScratchEnvironment } from './scratch-environment.js';

/** What {@link scratchRuntimeOptions} sets: where the runtime works, the child's environment, no resilience. */
export type ScratchRuntimeOptions = Required<Pick<RuntimeOptions, 'workspace' | 'config' | 'resilience'>>;

/**
 * `new Runtime({ ...scratchRuntimeOptions(scratch), ...yours })`: the scratch workspace (the run directory
 * is its `runs/`), the scratch environment as the whole configuration (so no `.env`, no `~/.claude` and no
 * real key is read), and resilience off, so a fault ends the step at once instead of waiting out an outage
 * that a test scripted on purpose. Give `resilience: true` to test the waiting itself.
 */
export function scratchRuntimeOptions(scratch: ScratchEnvironment): ScratchRuntimeOptions {
  return { workspace: scratch.workspace, config: { env: scratch.env }, resilience: false };
}
