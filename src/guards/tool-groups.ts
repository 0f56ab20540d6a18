/**
 * The tool groups guards match on (docs/guards.md), as SDK hook matchers: a
 * string of plain names joined by `|` is a name list; anything else is a regular expression over the tool
 * name (verified against the real binary in test/e2e/spill.e2e.test.ts).
 *
 * @module
 */

/** The tools that change the workspace. */
export const HANDS_ON = 'Bash|Write|Edit|NotebookEdit';

/**
 * The task-list tools of the bundled Claude Code, which no longer offers `TodoWrite` under any name: a
 * coordinator keeps its plan there. All four, because TaskUpdate's own description sends the model to
 * TaskGet first, and a tool it is told to use but not offered costs a turn.
 */
export const TASK_LIST_TOOLS: readonly string[] = Object.freeze([
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
]);

/** The built-in tools whose results can be large. */
export const BULKY = 'Bash|Read|Grep|Glob|WebFetch|WebSearch';

/**
 * What the spill guard watches by default: {@link BULKY}, subagent reports (`Agent`) and every MCP tool
 * except the human channel's (`mcp__human__*`: a person's answer is never hidden behind a pointer).
 * Anchored, because the binary tests a regular-expression matcher anywhere in the name.
 */
export const SPILL_TOOLS = `^(?:${BULKY}|Agent|mcp__(?!human__).+)$`;

/**
 * Whether `matcher` selects `toolName`, read as the binary reads it: empty or `*` matches everything, a
 * plain `A|B` list matches those names exactly, anything else is a regular expression tested against the
 * name (an invalid one matches nothing).
 */
export function matchesTool(matcher: string, toolName: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  if (/^[a-zA-Z0-9_|]+$/.test(matcher)) return matcher.split('|').includes(toolName);
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}
