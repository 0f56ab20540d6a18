/**
 * `judge()`: the independent judge of the goal guard (docs/roles.md). It has two jobs, one per
 * call: A, set the goal (Goal + Checklist); B, judge a round (Conclusion + Reason + Failed). Its rule text
 * holds both; the step prompt says which, opening with {@link setGoalInstructions} or
 * {@link verdictInstructions}. It always runs as a fresh session that sees the goal and the scene, not the
 * workers' effort, so it does not excuse it.
 *
 * `canRun` decides what it can check:
 * - `false` (default): Read, Glob and Grep only. It cannot run `file`, `uname` or an acceptance command, so
 *   it reads source — HT001's failure mode (decisions.md D101); and the goal setter cannot establish where it
 * runs (decisions.md D102).
 * - `true`: Bash too. Verdicts harden (in the reference's HT002, `file` showed a Mach-O arm64 binary and
 *   `lsof` that it was alive), but Bash can change the workspace ("fix, then pass"; Write/Edit stay blocked).
 * - `'inspect'`: Bash limited to inspection commands by a PreToolUse hook (`isInspectCommand`): the
 *   artifact can be examined without write power.
 *
 * @module
 */
import { agentSpec, type AgentSpec } from '../agent/agent-spec.js';
import { toHooks } from '../guards/hooks.js';
import { inspectGuard } from '../guards/inspect-guard.js';
import { ASK_TOOL, INBOX_TOOL } from '../guards/human-tool-names.js';
import type { ChannelLike } from './channel-like.js';
import { loadPrompt } from '../internal/load-prompt.js';

/** Options of {@link judge}. */
export interface JudgeOptions {
  /** `false` (default), `true` (full Bash) or `'inspect'` (Bash for inspection commands only). */
  canRun?: boolean | 'inspect';
  model?: string;
  effort?: string;
  maxTurns?: number;
  /** The caller's own instructions, appended after the role's rules. */
  instructions?: string;
}

// What the judge is told it can run, per `canRun`.
const COMMANDS = {
  none: 'You cannot run commands here: Read, Glob and Grep only. Judge from what the files show; a claim you cannot check is not evidence.',
  full: 'You can run commands with Bash. Use them to look and to run the artifact, never to change or fix anything.',
  inspect:
    'Bash runs inspection commands only: glances (ls, cat, git status, …), file, ldd, otool -L, lipo -info, readelf -h, checksums and `<program> --version`. Anything else is refused.',
} as const;

/**
 * A judge spec. With a channel it may ask the human (`mcp__human__ask`, no inbox). No workbench block, no
 * web (it judges the scene, not web pages), and `dontAsk` so nothing unapproved can run (decisions.md D106).
 */
export function judge(name: string, channel: ChannelLike | null, options: JudgeOptions = {}): AgentSpec {
  const canRun = options.canRun ?? false;
  const commands = canRun === 'inspect' ? COMMANDS.inspect : canRun ? COMMANDS.full : COMMANDS.none;
  const rules = [loadPrompt('judge', { commands })];
  if (options.instructions !== undefined && options.instructions.trim() !== '')
    rules.push(options.instructions.trim());
  const allowedTools = [...(channel === null ? [] : [ASK_TOOL]), 'Read', 'Glob', 'Grep'];
  if (canRun !== false) allowedTools.push('Bash');
  return agentSpec({
    name,
    instructions: rules.join('\n\n'),
    tools: allowedTools,
    allowedTools,
    // Mounting the channel's server exposes its inbox too; the inbox holds mail meant for the coordinator.
    disallowedTools: channel === null ? [] : [INBOX_TOOL],
    permissionMode: 'dontAsk',
    mcpServers: channel === null ? {} : channel.mcpServers(),
    hooks: canRun === 'inspect' ? toHooks(inspectGuard()) : null,
    model: options.model ?? null,
    effort: options.effort ?? null,
    maxTurns: options.maxTurns ?? null,
    workbench: false,
    delegateOnly: false,
  });
}

/** The opening line of a step prompt that gives the judge job A: set the goal for the brief that follows. */
export function setGoalInstructions(): string {
  return 'Job A: set the goal. Turn the brief below into a goal that can be judged here. Reply with the two sections Goal and Checklist, nothing else.';
}

/**
 * The opening line of a step prompt that gives the judge job B: judge the round against the goal that
 * follows.
 */
export function verdictInstructions(): string {
  return "Job B: judge this round against the goal below. Inspect the scene item by item; the worker's reply is a claim, not evidence. Reply with the three sections Conclusion, Reason and Failed, nothing else.";
}
