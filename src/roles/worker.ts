/**
 * `worker()`: a subagent role the coordinator dispatches with the Agent tool (docs/roles.md). It returns the
 * SDK's `AgentDefinition`, not an `AgentSpec`: a worker has no session of its own.
 *
 * @module
 */
import type { AgentDefinition, PermissionMode } from '../agent/claude-sdk.js';
import { isolated } from '../agent/isolation-mark.js';
import { loadPrompt } from '../internal/load-prompt.js';

/**
 * The report discipline appended to every worker's prompt: four labelled parts, at most 30 lines, no pasted
 * contents, scripts reused. It names no workbench path on purpose: the real path comes from the workbench
 * (it may be absolute), and the coordinator relays it in each brief (decisions.md D113).
 */
export const WORKER_RULES: string = loadPrompt('worker');

/** The tools a worker gets unless told otherwise: everything hands-on, plus the web. */
export const WORKER_TOOLS: readonly string[] = Object.freeze([
  'Read',
  'Write',
  'Edit',
  'Bash',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
]);

/** Options of {@link worker}. */
export interface WorkerOptions {
  /** Append {@link WORKER_RULES} to the prompt. Default true. */
  discipline?: boolean;
  /** Default {@link WORKER_TOOLS}. */
  tools?: readonly string[];
  /**
   * Default `inherit`: the same model as the coordinator. Savings come from the division of labour, not
   * from a smaller model.
   */
  model?: string;
  effort?: AgentDefinition['effort'];
  maxTurns?: number;
  permissionMode?: PermissionMode;
  skills?: readonly string[];
  /**
   * Run every dispatch of this role in its own git worktree (marked with `isolated()`, docs/workbench.md).
   */
  isolate?: boolean;
}

/** All parameters of {@link worker} in one object. */
export interface WorkerParameters extends WorkerOptions {
  /** How the coordinator picks it: say *when* to use it. */
  description: string;
  /** The role's own instructions, followed by {@link WORKER_RULES} unless `discipline` is false. */
  prompt: string;
}

/**
 * A worker role from one object (the preferred form). `description` is how the coordinator picks it, so
 * say *when* to use it; `prompt` is the role's own instructions, followed by {@link WORKER_RULES} unless
 * `discipline` is false.
 *
 * @example worker({ description: 'Use for any code change.', prompt: 'Implement; run the tests.', isolate: true })
 */
export function worker(parameters: WorkerParameters): AgentDefinition;
/**
 * A worker role, positional form of the public API; the same as `worker({ description, prompt, ... })`.
 */
export function worker(description: string, prompt: string, options?: WorkerOptions): AgentDefinition;
export function worker(
  first: string | WorkerParameters,
  ownPrompt = '',
  given: WorkerOptions = {},
): AgentDefinition {
  if (typeof first === 'object' && first !== null) {
    const { description: objectDescription, prompt: objectPrompt, ...rest } = first;
    return worker(objectDescription, objectPrompt, rest);
  }
  const description = first;
  const prompt = ownPrompt;
  const options = given;
  if (description.trim() === '') {
    throw new Error('worker(): the description is empty; say when the coordinator should pick this worker.');
  }
  const discipline = options.discipline ?? true;
  const parts = [prompt.trim(), discipline ? WORKER_RULES : ''].filter((part) => part !== '');
  const definition: AgentDefinition = {
    description,
    prompt: parts.join('\n\n'),
    tools: [...(options.tools ?? WORKER_TOOLS)],
    model: options.model ?? 'inherit',
  };
  if (options.effort !== undefined) definition.effort = options.effort;
  if (options.maxTurns !== undefined) definition.maxTurns = options.maxTurns;
  if (options.permissionMode !== undefined) definition.permissionMode = options.permissionMode;
  if (options.skills !== undefined) definition.skills = [...options.skills];
  return options.isolate === true ? isolated(definition) : definition;
}
