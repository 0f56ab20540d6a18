/**
 * The one rewrite of `Agent` tool input (docs/guards.md): sibling hooks that each rewrite the same input
 * override one another, so foreground dispatch and worktree isolation are decided together here.
 *
 * - Foreground (decisions.md D8): the Agent tool runs in the background by default; the coordinator's workers
 *   are made to run in the foreground (`run_in_background: false`) unless a workflow opts in.
 * - Isolation (docs/workbench.md): a dispatch of a role marked with `isolated()` gets
 *   `isolation: 'worktree'`. A hook, not a prompt: measured in the reference, it held even when the system
 *   prompt said not to use worktrees. A model-chosen `isolation` (or `cwd`) is respected.
 *
 * - Dispatch (a coordinator's workers only): with `dispatchable`, an Agent call naming any other type —
 *   Claude Code's built-in `general-purpose` among them, which would run unwalled in the main checkout —
 *   is denied with the list of the workers it may dispatch.
 *
 * Applies to the main thread and to subagents alike (a subagent may dispatch too).
 *
 * @module
 */
import type { AgentDefinition } from '../agent/claude-sdk.js';
import { wantsIsolation } from '../agent/isolation-mark.js';
import type { Guard, GuardDecision } from './guard.js';

/** Options of {@link agentInputGuard}. */
export interface AgentInputGuardOptions {
  /** Role names whose dispatches get a worktree (see {@link isolatedRoles}). */
  isolate?: ReadonlySet<string>;
  /** Leave `run_in_background` as the model set it. Default false: workers run in the foreground. */
  allowBackground?: boolean;
  /**
   * The only `subagent_type`s an Agent call may name; null (default): any. A call without one means Claude
   * Code's default type, so it is denied too.
   */
  dispatchable?: ReadonlySet<string> | null;
  /** Called with the role and the dispatch description each time isolation is injected. */
  onInject?: (agentType: string, description: string) => void;
}

/**
 * A PreToolUse guard on `Agent` that rewrites the input as above: `allow` with the original input plus the
 * changes when anything changed, else pass; `deny` for a type outside `dispatchable`. Null when there is
 * nothing to rewrite or refuse (background allowed, no isolated role, any type dispatchable).
 */
export function agentInputGuard(options: AgentInputGuardOptions = {}): Guard | null {
  const isolate = options.isolate ?? new Set<string>();
  const allowBackground = options.allowBackground ?? false;
  const dispatchable = options.dispatchable ?? null;
  if (allowBackground && isolate.size === 0 && dispatchable === null) return null;
  return {
    name: 'agent-input',
    event: 'PreToolUse',
    matcher: 'Agent',
    failClosed: true,
    decide(input): GuardDecision {
      if (input.toolName !== 'Agent') return { action: 'pass' };
      const original = input.toolInput;
      const changes: Record<string, unknown> = {};
      if (!allowBackground && original['run_in_background'] !== false) changes['run_in_background'] = false;
      const role = original['subagent_type'];
      if (dispatchable !== null && (typeof role !== 'string' || !dispatchable.has(role))) {
        return { action: 'deny', reason: notDispatchable(role, dispatchable) };
      }
      if (
        typeof role === 'string' &&
        isolate.has(role) &&
        original['isolation'] === undefined &&
        original['cwd'] === undefined
      ) {
        changes['isolation'] = 'worktree';
        const description = original['description'];
        try {
          options.onInject?.(role, typeof description === 'string' ? description : '');
        } catch {
          // A notification callback must not turn into a denied dispatch (the guard fails closed).
        }
      }
      if (Object.keys(changes).length === 0) return { action: 'pass' };
      return { action: 'allow', updatedInput: { ...original, ...changes } };
    },
  };
}

// Read by the model, not the user: an English literal.
function notDispatchable(role: unknown, dispatchable: ReadonlySet<string>): string {
  const named =
    typeof role === 'string' && role !== '' ? `'${role}' is not one of your workers` : 'Name a worker';
  const workers = [...dispatchable].join(', ');
  return workers === ''
    ? `${named}, and you have no workers to dispatch.`
    : `${named}: set subagent_type to one of ${workers}.`;
}

/** The names of the roles in `agents` marked with `isolated()`. */
export function isolatedRoles(agents: Readonly<Record<string, AgentDefinition>>): Set<string> {
  return new Set(
    Object.entries(agents)
      .filter(([, definition]) => wantsIsolation(definition))
      .map(([name]) => name),
  );
}
