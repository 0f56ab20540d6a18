/**
 * `offerTools()`: how a spec's exact tool set (`AgentSpec.tools`) becomes SDK options, so the model is
 * offered those tools and no others — an offered tool that a guard then refuses costs context in every
 * request and a wasted turn each time the model tries it.
 *
 * @module
 */
import type { AgentSpec } from './agent-spec.js';
import type { AgentDefinition, Options } from './claude-sdk.js';

/**
 * The name under which a spec with subagents runs its own main thread as an agent definition. Claude Code
 * lists it among the agent types the `Agent` tool can start, so its description says not to.
 */
export const MAIN_THREAD_AGENT = 'flower-main-thread';

const MAIN_THREAD_DESCRIPTION = 'This session itself (its own tool list). Never dispatch it.';

/**
 * Sets the options that offer exactly `spec.tools`; a spec whose `tools` is null keeps Claude Code's default
 * set. Call it after `options.agents` and `options.env` are set.
 *
 * - Without subagents: the SDK's `tools` option. It cuts the built-in tools; MCP tools of mounted servers
 *   stay (a role hides one with `disallowedTools`).
 * - With subagents: `tools` cannot be used alone, because it is the pool of the whole session: a worker
 *   whose tool is missing from it is told the tool "is disabled for this session, in subagents as well".
 *   So the main thread runs as an agent definition whose `tools` are the spec's (they cut MCP tools too),
 *   and its empty `prompt` keeps the `claude_code` preset and the appended rules as they are. The pool is
 *   the union of every list, so each worker is offered exactly its own tools; a worker without a list means
 *   every tool, and the pool is left at Claude Code's default.
 *
 * With a pool that has no `ToolSearch`, nothing can be looked up, so tool search is turned off
 * (`ENABLE_TOOL_SEARCH=false`) unless the environment already says: otherwise the request carries a
 * deferred placeholder tool.
 */
export function offerTools(options: Options, spec: AgentSpec): void {
  if (spec.tools === null) return;
  const agents = spec.agents ?? {};
  const definitions = Object.values(agents);
  if (definitions.length === 0) {
    options.tools = builtIn(spec.tools);
  } else {
    const main: AgentDefinition = {
      description: MAIN_THREAD_DESCRIPTION,
      prompt: '',
      tools: [...spec.tools],
    };
    options.agents = { ...agents, [MAIN_THREAD_AGENT]: main };
    options.agent = MAIN_THREAD_AGENT;
    if (definitions.every((definition) => definition.tools !== undefined)) {
      const lists = [spec.tools, ...definitions.map((definition) => definition.tools ?? [])];
      options.tools = builtIn([...new Set(lists.flat())]);
    }
  }
  if (Array.isArray(options.tools) && !options.tools.includes('ToolSearch') && options.env !== undefined) {
    options.env['ENABLE_TOOL_SEARCH'] ??= 'false';
  }
}

/** The built-in names of a list: MCP tools come from the mounted servers, not from the `tools` option. */
function builtIn(tools: readonly string[]): string[] {
  return tools.filter((tool) => !tool.startsWith('mcp__'));
}
