/**
 * `AgentSpec`: everything that defines one agent session — rule text, tools, limits, subagents, hooks — as
 * an immutable value (docs/runtime.md). Roles build specs; the runtime turns a spec into SDK options with
 * `buildOptions`.
 *
 * @module
 */
import type {
  AgentDefinition,
  HookCallbackMatcher,
  HookEvent,
  McpServerConfig,
  PermissionMode,
} from './claude-sdk.js';
import type { CompactPolicy } from './compact-policy.js';

/**
 * SDK hook configuration: matchers per hook event. Defined at the SDK seam, where a spec carries it to the
 * options; `src/guards/` builds values of it.
 */
export type HooksConfig = Partial<Record<HookEvent, HookCallbackMatcher[]>>;

/** One agent's definition. Immutable: derive a variant with `agentSpec({...spec, ...changes})`. */
export interface AgentSpec {
  readonly name: string;
  /** Appended to Claude Code's own system prompt (the `claude_code` preset), never replacing it. */
  readonly instructions: string;
  /**
   * Tools approved without asking. Not exclusive by itself: the whitelist guard makes it so
   * (decisions.md D7).
   */
  readonly allowedTools: readonly string[];
  /** Session-scoped: also disables the tool in subagents. */
  readonly disallowedTools: readonly string[];
  /**
   * The exact tool set offered to the model on the main thread, MCP tools included; null = Claude Code's
   * default set. A tool that is not offered costs no context and no refused turn. Subagents keep their own
   * lists (see `offerTools`).
   */
  readonly tools: readonly string[] | null;
  readonly model: string | null;
  readonly effort: string | null;
  readonly maxTurns: number | null;
  readonly maxBudgetUsd: number | null;
  readonly permissionMode: PermissionMode;
  readonly agents: Readonly<Record<string, AgentDefinition>> | null;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  /** Merged with the hooks the runtime installs. */
  readonly hooks: HooksConfig | null;
  /** When set, the runtime does not force `no_summary` for handoff. */
  readonly compact: CompactPolicy | null;
  /** Extra child environment; variables flower owns are ignored here (decisions.md D17). */
  readonly env: Readonly<Record<string, string>>;
  /** The coordinator may run side-effect-free Bash itself. */
  readonly glance: boolean;
  /** Inject the workbench index for this agent. */
  readonly workbench: boolean;
  /** Coordinate only: hands-on tools are denied on the main thread. */
  readonly delegateOnly: boolean;
  /** False: the coordinator's Agent calls are rewritten to run in the foreground (decisions.md D8). */
  readonly backgroundAgents: boolean;
}

/** The read-only tools an agent gets when nothing else is said. */
export const DEFAULT_ALLOWED_TOOLS: readonly string[] = Object.freeze(['Read', 'Glob', 'Grep']);

/** Builds an {@link AgentSpec} from a name, instructions and any fields to change from the defaults. */
export function agentSpec(init: Partial<AgentSpec> & { name: string; instructions: string }): AgentSpec {
  return Object.freeze({
    allowedTools: DEFAULT_ALLOWED_TOOLS,
    disallowedTools: [],
    tools: null,
    model: null,
    effort: null,
    maxTurns: null,
    maxBudgetUsd: null,
    permissionMode: 'default',
    agents: null,
    mcpServers: {},
    hooks: null,
    compact: null,
    env: {},
    glance: false,
    workbench: true,
    delegateOnly: false,
    backgroundAgents: false,
    ...init,
  });
}
