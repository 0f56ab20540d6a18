/**
 * The tool names of the `human` MCP server, for the code below `src/human/` that has to name them (the
 * delegate guard lets them through; roles offer them) without loading the SDK that `human-tools.ts` imports.
 * The same names as there; a test in `src/human/` pins them.
 *
 * @module
 */

/** The blocking question tool of the `human` MCP server. */
export const ASK_TOOL = 'mcp__human__ask';

/** The non-blocking inbox tool of the `human` MCP server (mounting the server exposes both). */
export const INBOX_TOOL = 'mcp__human__inbox';
