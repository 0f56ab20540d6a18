/**
 * The hooks that come with a workbench (docs/guards.md): the coordinator's wall and
 * the Agent input rewrite before a tool runs; the index refresh and the spill after it.
 *
 * @module
 */
import type { AgentDefinition } from '../agent/claude-sdk.js';
import type { EventSink } from '../events/flower-event.js';
import type { Workbench } from '../workbench/workbench.js';
import { agentInputGuard, isolatedRoles } from './agent-input-guard.js';
import { delegateGuard } from './delegate-guard.js';
import { toHooks, type HooksConfig } from './hooks.js';
import { indexGuard } from './index-guard.js';
import { spillGuard } from './spill-guard.js';

/** Options of {@link workbenchHooks}. */
export interface WorkbenchHooksOptions {
  /** Install the delegate guard (the coordinator's wall). Default true. */
  delegateOnly?: boolean;
  /** Spill results of this many characters or more (default 4000); null or 0: no spill guard. */
  spillThreshold?: number | null;
  /**
   * The spec's subagents. Given, the Agent input rewrite is installed here (worktrees for roles marked with
   * `isolated()`, foreground unless `allowBackground`). Null (default): not installed — the runtime builds
   * that guard itself from the spec, and two rewrites of one input would override each other.
   */
  agents?: Readonly<Record<string, AgentDefinition>> | null;
  /** With `agents`: leave `run_in_background` as the model set it. Default false (decisions.md D8). */
  allowBackground?: boolean;
  /** Let the coordinator run glance Bash itself (delegate guard). Default false. */
  allowGlance?: boolean;
  /** Receives spill events. */
  onEvent?: EventSink;
  /** The step the hooks serve, carried by the spill events; null (default) outside a step. */
  step?: string | null;
}

/**
 * PreToolUse: the delegate guard (with `delegateOnly`, naming this workbench's artifacts folder), then the
 * Agent input rewrite (with `agents`). PostToolUse: the index guard, then the spill guard (with a
 * threshold). An event with no guard is left out.
 */
export function workbenchHooks(workbench: Workbench, options: WorkbenchHooksOptions = {}): HooksConfig {
  const delegateOnly = options.delegateOnly ?? true;
  const agents = options.agents ?? null;
  const spillThreshold = options.spillThreshold === undefined ? 4000 : options.spillThreshold;
  return toHooks(
    delegateOnly ? delegateGuard({ allowGlance: options.allowGlance ?? false, workbench }) : null,
    agents === null
      ? null
      : agentInputGuard({
          isolate: isolatedRoles(agents),
          allowBackground: options.allowBackground ?? false,
        }),
    indexGuard(workbench),
    spillGuard(workbench, {
      threshold: spillThreshold,
      onSpill: options.onEvent ?? null,
      step: options.step ?? null,
    }),
  );
}
