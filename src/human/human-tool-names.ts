/**
 * The names the model calls the `human` MCP server's tools by. Kept apart from `human-tools.ts`, which builds
 * the server with the Agent SDK, so roles and guards can name the tools without loading the SDK.
 *
 * @module
 */

/** The blocking question tool of the `human` MCP server. */
export const ASK_TOOL = 'mcp__human__ask';

/** The non-blocking inbox tool of the `human` MCP server (mounting the server exposes both). */
export const INBOX_TOOL = 'mcp__human__inbox';
