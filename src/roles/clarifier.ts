/**
 * `clarify()`: the role that questions the human until the request is clear and writes the four-section
 * brief, doing no work itself (docs/roles.md). Measured in the reference: a clarifier
 * without constraints started coding after two questions and, once blocked, pasted the code into its reply
 * ($0.8908, 230 s). Mechanism beats prompt here: the runtime's whitelist guard refuses every unlisted tool,
 * and the brief parser keeps only the four sections.
 *
 * @module
 */
import { agentSpec, type AgentSpec } from '../agent/agent-spec.js';
import { ASK_TOOL, INBOX_TOOL } from '../guards/human-tool-names.js';
import type { ChannelLike } from './channel-like.js';
import { loadPrompt } from '../internal/load-prompt.js';

/** Options of {@link clarify}. */
export interface ClarifierOptions {
  /** Add Read, Glob, Grep, WebFetch and WebSearch: a glance saves questions. Default true. */
  canRead?: boolean;
  /**
   * Default null (unbounded): each question is a turn, so a cap like 16 silently means about a dozen
   * questions. See {@link maxTurnsLimitsQuestions}.
   */
  maxTurns?: number | null;
  model?: string;
  effort?: string;
  /** The caller's own instructions, appended after the role's rules. */
  instructions?: string;
}

/** The read-only tools a clarifier gets with `canRead`. */
const READING_TOOLS: readonly string[] = ['Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch'];

/** Turns a clarification needs besides the questions: reading the repository and writing the brief. */
const TURNS_BESIDES_QUESTIONS = 4;

/**
 * A clarifier spec for the human reached through `channel`. No workbench block (its rules are about
 * writing), no delegation, and `dontAsk` so anything the guard does not approve is refused rather than
 * prompted (decisions.md D106: a session without subagents has nobody to answer a prompt).
 */
export function clarify(name: string, channel: ChannelLike, options: ClarifierOptions = {}): AgentSpec {
  const canRead = options.canRead ?? true;
  const reading = canRead
    ? 'But first read what the repository already shows: Glob to list and find files, Read, Grep. There is no shell; do not try.'
    : 'You cannot read the repository here; ask instead of guessing.';
  const rules = [loadPrompt('clarifier', { reading })];
  if (options.instructions !== undefined && options.instructions.trim() !== '')
    rules.push(options.instructions.trim());
  const tools = [ASK_TOOL, ...(canRead ? READING_TOOLS : [])];
  return agentSpec({
    name,
    instructions: rules.join('\n\n'),
    tools,
    allowedTools: tools,
    // Mounting the channel's server exposes its inbox too; the inbox holds mail meant for the coordinator.
    disallowedTools: [INBOX_TOOL],
    permissionMode: 'dontAsk',
    mcpServers: channel.mcpServers(),
    model: options.model ?? null,
    effort: options.effort ?? null,
    maxTurns: options.maxTurns ?? null,
    workbench: false,
    delegateOnly: false,
  });
}

/**
 * True when a clarifier's `maxTurns` would stop the questions before the channel's `maxAsks` does (null =
 * unlimited), so the cap silently limits how much the human is asked (decisions.md D116). The caller warns;
 * this only decides.
 */
export function maxTurnsLimitsQuestions(
  maxTurns: number | null | undefined,
  maxAsks: number | null | undefined,
): boolean {
  if (maxTurns === null || maxTurns === undefined) return false;
  if (maxAsks === null || maxAsks === undefined) return true;
  return maxTurns < maxAsks + TURNS_BESIDES_QUESTIONS;
}
