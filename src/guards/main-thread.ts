/**
 * The one main-thread test every "main thread only" guard uses (docs/roles.md).
 *
 * @module
 */

/**
 * True when a hook call comes from the main thread: the SDK sets `agent_id` only inside a subagent.
 * (`agent_type` alone is not enough: a session started with `--agent` carries it on the main thread.)
 */
export function isMainThread(input: { agentId?: string | null }): boolean {
  return input.agentId === undefined || input.agentId === null || input.agentId === '';
}
