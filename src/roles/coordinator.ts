/**
 * `coordinator()`: the main-thread agent that decomposes, delegates, reads reports and decides, but does no
 * hands-on work itself (docs/roles.md). What keeps it hands-off is not its tool list
 * (`allowedTools` only auto-approves, decisions.md D7) but the delegate guard the runtime installs because
 * the spec says `delegateOnly` (decisions.md D105).
 *
 * @module
 */
import { agentSpec, type AgentSpec } from '../agent/agent-spec.js';
import type { AgentDefinition, PermissionMode } from '../agent/claude-sdk.js';
import type { CompactPolicy } from '../agent/compact-policy.js';
import type { HooksConfig } from '../guards/hooks.js';
import { TASK_LIST_TOOLS } from '../guards/tool-groups.js';
import { ASK_TOOL, INBOX_TOOL } from '../guards/human-tool-names.js';
import type { ChannelLike } from './channel-like.js';
import { loadPrompt } from '../internal/load-prompt.js';
import { workbenchPlaces, type WorkbenchLike } from '../workbench/workbench-places.js';

/**
 * Worker tools merged up into the coordinator's `allowedTools`. `allowedTools` is session-scoped
 * (docs/roles.md): a worker's WebFetch missing from it waits on an approval nobody gives. Only read-only
 * tools are merged; Write, Edit or Bash would void the wall (and subagent calls pass the guard anyway).
 */
const MERGED_UP_TOOLS: readonly string[] = ['WebFetch', 'WebSearch'];

// The lines of the rule text that follow `canRead` and `glance`.
const READING = loadPrompt('coordinator-reading');
const NO_READING = loadPrompt('coordinator-no-reading');
const GLANCE = loadPrompt('coordinator-glance');
const NO_GLANCE = loadPrompt('coordinator-no-glance');

/** Options of {@link coordinator}. */
export interface CoordinatorOptions {
  /** Add Read. Default true. */
  canRead?: boolean;
  /** Add Bash for side-effect-free glances (what runs is decided by the delegate guard). Default true. */
  glance?: boolean;
  /**
   * A human channel: mounts its `human` MCP server and adds the inbox and ask rules (decisions.md D117).
   * Unattended, give the channel `timeoutS: 0`, or each ask blocks for the full timeout.
   */
  channel?: ChannelLike | null;
  /** Default `acceptEdits`. Not passed on to a clarifier or judge: that would remove their fallback. */
  permissionMode?: PermissionMode;
  compact?: CompactPolicy | null;
  hooks?: HooksConfig | null;
  env?: Record<string, string>;
  model?: string;
  effort?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  /**
   * Let Agent calls run in the background; default false (decisions.md D8: workers run in the foreground).
   */
  backgroundAgents?: boolean;
  /**
   * The workbench whose paths the rule text names (decisions.md D113). Specs are often built before a
   * workbench exists; without one the text names the default location (`workbenchPath()` without isolation or
   * `-W`).
   */
  workbench?: WorkbenchLike | null;
}

/** All parameters of {@link coordinator} in one object. */
export interface CoordinatorParameters extends CoordinatorOptions {
  name: string;
  /** The caller's own instructions, appended after the role's rules; none by default. */
  instructions?: string;
  /** The roles it can dispatch (build them with `worker()`). */
  workers: Record<string, AgentDefinition>;
}

/**
 * A coordinator spec from one object (the preferred form): `instructions` are the caller's own, appended
 * after the role's rules; `workers` are the roles it can dispatch (build them with `worker()`).
 *
 * @example coordinator({ name: 'lead', workers: { coder }, channel })
 */
export function coordinator(parameters: CoordinatorParameters): AgentSpec;
/**
 * A coordinator spec, positional form of the public API: `instructions` are the caller's own, appended after
 * the role's rules; `workers` are the roles it can dispatch. Same as `coordinator({ name, instructions, workers, ... })`.
 */
export function coordinator(
  name: string,
  instructions: string,
  workers: Record<string, AgentDefinition>,
  options?: CoordinatorOptions,
): AgentSpec;
export function coordinator(
  first: string | CoordinatorParameters,
  ownInstructions = '',
  roles: Record<string, AgentDefinition> = {},
  given: CoordinatorOptions = {},
): AgentSpec {
  if (typeof first === 'object' && first !== null) {
    const {
      name: objectName,
      instructions: objectInstructions = '',
      workers: objectWorkers,
      ...rest
    } = first;
    return coordinator(objectName, objectInstructions, objectWorkers, rest);
  }
  const name = first;
  const instructions = ownInstructions;
  const workers = roles;
  const options = given;
  const channel = options.channel ?? null;
  const glance = options.glance ?? true;
  const places = workbenchPlaces(options.workbench);
  const values = {
    ...places,
    reading: options.canRead === false ? NO_READING : READING,
    glance: glance ? GLANCE : NO_GLANCE,
  };
  const rules = [loadPrompt('coordinator', values)];
  if (channel !== null) rules.push(loadPrompt('coordinator-channel', values));
  if (instructions.trim() !== '') rules.push(instructions.trim());
  const offered = coordinatorTools({ canRead: options.canRead ?? true, glance, channel: channel !== null });
  return agentSpec({
    name,
    instructions: rules.join('\n\n'),
    tools: offered,
    allowedTools: [...offered, ...mergedUpTools(workers)],
    permissionMode: options.permissionMode ?? 'acceptEdits',
    agents: { ...workers },
    mcpServers: channel === null ? {} : channel.mcpServers(),
    hooks: options.hooks ?? null,
    compact: options.compact ?? null,
    env: { ...options.env },
    model: options.model ?? null,
    effort: options.effort ?? null,
    maxTurns: options.maxTurns ?? null,
    maxBudgetUsd: options.maxBudgetUsd ?? null,
    glance,
    workbench: true,
    delegateOnly: true,
    backgroundAgents: options.backgroundAgents ?? false,
  });
}

/**
 * The tools the coordinator is offered (the spec's `tools`): what the delegate guard lets it use on its own
 * thread, and nothing else, so no turn is spent calling a tool only to be refused. `SendMessage` continues a
 * dispatched worker, which is delegation too (the worker's hand-back tells the model to use it).
 */
function coordinatorTools(flags: { canRead: boolean; glance: boolean; channel: boolean }): string[] {
  const tools = ['Agent', 'SendMessage', ...TASK_LIST_TOOLS];
  if (flags.canRead) tools.push('Read');
  if (flags.glance) tools.push('Bash');
  if (flags.channel) tools.push(ASK_TOOL, INBOX_TOOL);
  return tools;
}

/** The workers' read-only web tools, approved session-wide but not offered to the coordinator itself. */
function mergedUpTools(workers: Record<string, AgentDefinition>): string[] {
  // A definition without `tools` inherits every tool, the web ones included.
  return MERGED_UP_TOOLS.filter((tool) =>
    Object.values(workers).some((definition) => definition.tools?.includes(tool) ?? true),
  );
}
