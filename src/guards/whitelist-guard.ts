/**
 * The main-thread whitelist: the permission gate of every agent that is not a coordinator (decisions.md D7,
 * docs/guards.md and decisions.md D106). `allowedTools` alone only auto-approves; measured in the reference,
 * a clarifier used an unlisted WebFetch and a judge ran Bash eleven times with no Bash listed. So the
 * gate is deny-by-default on the main thread: listed tools are approved, everything else is refused with a
 * short reason. Subagent calls (they carry an `agent_id`) are left to their own definitions.
 *
 * @module
 */
import type { Guard, GuardDecision } from './guard.js';
import { isMainThread } from './main-thread.js';

/** Options of {@link whitelistGuard}. */
export interface WhitelistOptions {
  /** Role name, quoted in the denial so the model knows the restriction is deliberate. */
  role: string;
  /**
   * Approve listed tools outright (`permissionDecision: 'allow'`), which also lets them run as root without
   * `bypassPermissions`. False only passes them on to the permission mode (used for `plan`). Default true.
   */
  approve?: boolean;
}

/**
 * A PreToolUse guard that approves the tools in `allowed` on the main thread and denies all others.
 * An entry `mcp__<server>` allows every tool of that MCP server; `*` allows everything, in which case there
 * is nothing to enforce and the result is null.
 */
export function whitelistGuard(allowed: readonly string[], options: WhitelistOptions): Guard | null {
  if (allowed.includes('*')) return null;
  const exact = new Set(allowed);
  const serverPrefixes = allowed.filter((name) => name.startsWith('mcp__') && !name.slice(5).includes('__'));
  const approve = options.approve ?? true;
  const isAllowed = (tool: string): boolean =>
    exact.has(tool) || serverPrefixes.some((prefix) => tool.startsWith(`${prefix}__`));
  return {
    name: 'whitelist',
    event: 'PreToolUse',
    matcher: '',
    failClosed: true,
    decide(input): GuardDecision {
      if (!isMainThread(input)) return { action: 'pass' };
      if (isAllowed(input.toolName)) return approve ? { action: 'allow' } : { action: 'pass' };
      return { action: 'deny', reason: denialReason(options.role, input.toolName, allowed) };
    },
  };
}

// Not in the UI catalog (decisions.md D28): the model reads this reason, not the user, so it stays English
// (decisions.md D1). Short on purpose: a denial stays in the transcript (the reference measured ~273
// characters per denial).
function denialReason(role: string, tool: string, allowed: readonly string[]): string {
  const list = allowed.length > 0 ? allowed.join(', ') : 'none';
  return (
    `${tool} is not available to the '${role}' agent (allowed: ${list}). This is intentional; ` +
    'do not work around it. Put your findings in your reply.'
  );
}
