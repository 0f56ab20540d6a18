/**
 * What a role factory needs from a human channel: its MCP servers. Roles code against this shape rather
 * than the `HumanChannel` class, so a spec can be built with any channel (or a test double) and the roles
 * do not depend on the channel's implementation.
 *
 * @module
 */
import type { McpServerConfig } from '../agent/claude-sdk.js';

/** A human channel as roles see it: `HumanChannel` satisfies it. */
export interface ChannelLike {
  /** The `human` MCP server that exposes `ask` and `inbox`. */
  mcpServers(): Record<string, McpServerConfig>;
}

/**
 * The blocking question tool of the `human` MCP server. The same name as in `src/human/human-tools.ts` (a test
 * pins it), kept here so roles and guards can name it without loading the SDK that module imports.
 */
export const ASK_TOOL = 'mcp__human__ask';

/** The non-blocking inbox tool of the `human` MCP server (mounting the server exposes both). */
export const INBOX_TOOL = 'mcp__human__inbox';
