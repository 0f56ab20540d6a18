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
